import { expect, test } from '@playwright/test';
import { chromiumLaunchOptions } from './support/browser';
import { withToken } from './support/page';
import { speechWav } from './support/speech';

test('the microphone check runs the capture worklet and moves the level meter', async ({ playwright }, testInfo) => {
  const wav = await speechWav('testing the microphone level meter', { silenceSeconds: 2 });
  const browser = await playwright.chromium.launch(chromiumLaunchOptions({ microphoneWav: wav }));
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(withToken('/'));
    const meter = page.getByRole('meter', { name: 'Microphone level' });
    await expect(meter).toHaveAttribute('aria-valuenow', '0');

    await page.getByRole('button', { name: /^Mic/ }).click();
    await expect(page.getByRole('button', { name: /Mic live/ })).toHaveAttribute('aria-pressed', 'true');
    await expect
      .poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 10_000 })
      .toBeGreaterThan(30);
    await page.screenshot({ path: testInfo.outputPath('microphone-live.png') });

    await page.getByRole('button', { name: /Mic live/ }).click();
    await expect(page.getByRole('button', { name: /^Mic$/ })).toHaveAttribute('aria-pressed', 'false');
    await expect(meter).toHaveAttribute('aria-valuenow', '0');
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
});
