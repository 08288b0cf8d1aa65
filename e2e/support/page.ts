import { expect, type Page } from '@playwright/test';

/** The launch token `flowplay serve` was started with (playwright.config.ts sets it). */
export const E2E_TOKEN = process.env.FLOWPLAY_E2E_TOKEN ?? '';

/** The page's address with the launch token, as `flowplay serve` prints it. */
export function withToken(path = '/'): string {
  const [base, hash] = path.split('#');
  const joiner = base!.includes('?') ? '&' : '?';
  return `${base}${joiner}token=${E2E_TOKEN}${hash ? `#${hash}` : ''}`;
}

/** Opens the playground with a clean workspace (no documents or settings from an earlier test). */
export async function openPlayground(page: Page, path = '/'): Promise<void> {
  await page.goto(withToken(path));
  await page.evaluate(() => localStorage.clear());
  await page.goto(withToken(path));
}

/** Replaces the editor's text (as if pasted) and waits for the editor to hold it. */
export async function setSource(page: Page, source: string): Promise<void> {
  const editor = page.locator('.cm-content');
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(source);
  await expect(editor).toContainText(source.split('\n')[0]!.trim());
}

/** Points the page at another gateway through the connection panel. */
export async function connectTo(page: Page, url: string): Promise<void> {
  await page.getByRole('button', { name: /^Gateway:/ }).click();
  await page.getByLabel('Gateway (A11 WebSocket)').fill(url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByTestId('connection-status')).toHaveText(/^Connected · \d+ actions$/, { timeout: 15_000 });
  await page.keyboard.press('Escape');
}
