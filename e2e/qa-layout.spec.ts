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
