import { expect, test } from '@playwright/test';
import { openPlayground } from './support/page';

test('the Hello example runs in the page, and the inspector shows its ports', async ({ page }, testInfo) => {
  await openPlayground(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: /^Hello/ }).click();
  await expect(page.getByRole('radio', { name: 'In this page' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: /^name/ })).toHaveValue('world');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.locator('[data-port="greeting"]')).toHaveText('Hello, world!');
  await expect(page.getByTestId('run-result')).toContainText('"greeting": "Hello, world!"');

  await page.getByRole('tab', { name: /Inspector/ }).click();
  const ports = page.getByRole('list', { name: 'Ports of the run' });
  await expect(ports.getByText('name', { exact: true })).toBeVisible();
  await expect(ports.getByText('greeting', { exact: true })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Values' }).getByRole('row');
  await expect(rows.filter({ hasText: 'Hello, world!' })).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('run-in-page.png') });
});

test('Mod-Enter runs from the editor, Escape does nothing when there is nothing to cancel', async ({ page }) => {
  await openPlayground(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: /^Hello/ }).click();
  await page.locator('.cm-content').click();
  await page.keyboard.press('Escape');
  await expect(page.locator('.cm-content')).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('[data-port="greeting"]')).toHaveText('Hello, world!');
  // Mod-Enter ran the flow instead of inserting a line.
  await expect(page.locator('.cm-line')).toHaveCount(9);
});
