import { expect, test, type Page } from '@playwright/test';
import { flowplayCheck } from './support/flowplay';
import { openPlayground, setSource } from './support/page';

const valid = `flow greet {
  in  name:     string required
  out greeting: string
  strformat("Hello, %s", name) -> greeting
}
`;

/** The rows of the lint panel, as the reader sees them: `line:column code message`. */
async function panelRows(page: Page): Promise<string[]> {
  const panel = page.locator('.cm-panel-lint');
  if (!(await panel.isVisible())) await page.getByTestId('problem-counts').click();
  await expect(panel).toBeVisible();
  return (await panel.locator('li .flow-diagnostic').allTextContents()).map((text) => text.trim());
}

/** Line numbers the lint gutter marks, read off the line-number gutter beside each marker. */
async function gutterLines(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const numbers = [...document.querySelectorAll<HTMLElement>('.cm-lineNumbers .cm-gutterElement')];
    return [...document.querySelectorAll<HTMLElement>('.cm-lint-marker')].map((marker) => {
      const top = marker.getBoundingClientRect().top;
      const row = numbers.find((element) => Math.abs(element.getBoundingClientRect().top - top) < 4);
      return Number(row?.textContent);
    });
  });
}

test.describe('live diagnostics', () => {
  test('an error typed in the editor is marked where flowplay check says, and fixing it clears it', async ({ page }, testInfo) => {
    await openPlayground(page);
    await setSource(page, valid);
    await expect(page.getByTestId('problem-counts')).toContainText('✕ 0');

    // Misspell the name read on line 4: "name" → "nmae".
    await page.locator('.cm-content').getByText('name) -> greeting').click();
    await page.keyboard.press('End');
    for (let i = 0; i < ') -> greeting'.length; i++) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('mae');
    const broken = await page.evaluate(() => (document.querySelector('.cm-content') as HTMLElement).innerText);
    expect(broken).toContain('strformat("Hello, %s", nmae) -> greeting');

    const marker = page.locator('.cm-lintRange-error');
    await expect(marker).toHaveText('nmae');

    const source = valid.replace(', name)', ', nmae)');
    const expected = await flowplayCheck(source);
    expect(expected.length).toBeGreaterThan(0);
    const rows = await panelRows(page);
    expect(rows).toEqual(expected.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.code} ${d.message}`));
    expect(await gutterLines(page)).toEqual([...new Set(expected.map((d) => d.range.start.line))]);
    await page.screenshot({ path: testInfo.outputPath('diagnostics-error.png') });

    // Fixing it clears the marker, the gutter and the panel.
    await page.keyboard.press('Control+z');
    await expect(marker).toHaveCount(0);
    await expect(page.locator('.cm-lint-marker')).toHaveCount(0);
    await expect(page.locator('.cm-panel-lint')).toContainText('No diagnostics');
    await expect(page.getByTestId('problem-counts')).toContainText('✕ 0');
  });

  test('a quick fix from the compiler applies', async ({ page }, testInfo) => {
    await openPlayground(page);
    const source = `flow spread {
  in  r: object
  out x: object
  {…r} -> x
}
`;
    await setSource(page, source);
    const expected = await flowplayCheck(source);
    expect(expected[0]?.fixes[0]?.label).toBeTruthy();
    await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
    const tooltip = page.locator('.cm-tooltip-lint');
    // The gateway's check may land meanwhile and redraw the marks (closing a tooltip): hover again.
    await expect(async () => {
      await page.mouse.move(0, 0);
      await page.locator('.cm-lintRange-error').hover();
      await expect(tooltip).toContainText(expected[0]!.message, { timeout: 1500 });
    }).toPass({ timeout: 15_000 });
    await page.screenshot({ path: testInfo.outputPath('diagnostics-quick-fix.png') });
    // A tooltip only reopens when the mouse moves, so hover again if it closed before the click.
    await expect(async () => {
      if (!(await tooltip.isVisible())) {
        await page.mouse.move(0, 0);
        await page.locator('.cm-lintRange-error').hover();
      }
      await tooltip.getByRole('button', { name: expected[0]!.fixes[0]!.label }).click({ timeout: 1500 });
    }).toPass({ timeout: 15_000 });
    await expect(page.locator('.cm-content')).toContainText('{...r} -> x');
    await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
    expect(await flowplayCheck(source.replace('…', '...'))).toEqual([]);
  });
});
