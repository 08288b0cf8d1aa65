import { expect, test, type Locator } from '@playwright/test';
import { openPlayground, setSource } from './support/page';

async function rightEdge(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not laid out');
  return box.x + box.width;
}

test('a long unbroken line in the result keeps the output cards inside the outputs column', async ({ page }, testInfo) => {
  await openPlayground(page);
  const word = 'x'.repeat(400);
  await setSource(page, `flow wide {\n  out said: string "One long word."\n  "${word}" -> said\n}\n`);
  await page.getByRole('radio', { name: 'In this page' }).check();
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.getByTestId('run-result')).toContainText(word);

  const column = page.getByRole('region', { name: 'Outputs' });
  const card = page.getByRole('article', { name: 'Output said' });
  // The card, and the Copy button in its header, stay within the column (the result scrolls).
  expect(await rightEdge(card)).toBeLessThanOrEqual((await rightEdge(column)) + 1);
  await expect(card.getByRole('button', { name: 'Copy said' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: testInfo.outputPath('long-result.png') });
});

test('in an 800×600 window the editor keeps most of the width and every panel stays on screen', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await openPlayground(page);
  const editor = page.getByRole('region', { name: 'Editor' });
  expect((await editor.boundingBox())!.width).toBeGreaterThanOrEqual(400);
  for (const panel of [page.getByRole('region', { name: 'Actions' }), page.getByRole('form', { name: 'Run' }), page.getByRole('region', { name: 'Outputs' })]) {
    await expect(panel).toBeInViewport();
  }
  await expect(page.getByRole('button', { name: /^Run/ })).toBeInViewport({ ratio: 1 });
  // Nothing spills sideways: the page itself never scrolls horizontally.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
  await page.screenshot({ path: testInfo.outputPath('narrow-window.png') });
});

test('the tooltip of a long diagnostic stays a readable width beside the mark', async ({ page }, testInfo) => {
  await openPlayground(page);
  await setSource(page, 'flow typo {\n  out said: string "x"\n  strformt("%s", "x") -> said\n}\n');
  await page.locator('.cm-lintRange-error').first().hover();
  const tooltip = page.locator('.cm-tooltip-lint');
  await expect(tooltip).toContainText('is not a built-in function');
  const box = (await tooltip.boundingBox())!;
  const editor = (await page.getByRole('region', { name: 'Editor' }).boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(40 * 16);
  // It opens by the editor, not from the window's left edge over the actions panel.
  expect(box.x).toBeGreaterThanOrEqual(editor.x);
  await page.screenshot({ path: testInfo.outputPath('diagnostic-tooltip.png') });
});
