import { test, expect } from '@playwright/test';
import { openPlayground, withToken } from './support/page';

test('the served playground renders its editor without console errors', async ({ page }, testInfo) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  await openPlayground(page);
  await expect(page.getByRole('heading', { name: 'Flow Playground' })).toBeVisible();
  const editor = page.locator('.cm-editor .cm-content');
  await expect(editor).toBeVisible();
  await expect(editor).toContainText('flow hello');
  // The page connects to the gateway that served it and lists what a flow may compose there.
  await expect(page.getByTestId('connection-status')).toHaveText(/^Connected · \d+ actions$/);
  await expect(page.getByRole('region', { name: 'Actions' }).getByRole('article', { name: 'shell_execute' })).toBeVisible();
  for (const region of ['Actions', 'Plan', 'Run', 'Outputs']) {
    await expect(page.getByRole(region === 'Run' ? 'form' : 'region', { name: region, exact: true })).toBeVisible();
  }

  await page.screenshot({ path: testInfo.outputPath('playground.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('the fake microphone plays a spoken WAV into getUserMedia', async ({ playwright }) => {
  const { speechWav } = await import('./support/speech');
  const { chromiumLaunchOptions } = await import('./support/browser');
  const wav = await speechWav('hello world');
  const browser = await playwright.chromium.launch(chromiumLaunchOptions({ microphoneWav: wav }));
  try {
    const page = await browser.newPage();
    await page.goto(withToken('/'));
    const peak = await page.evaluate(async () => {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
      const context = new AudioContext({ sampleRate: 16000 });
      const analyser = context.createAnalyser();
      context.createMediaStreamSource(stream).connect(analyser);
      const samples = new Float32Array(analyser.fftSize);
      let loudest = 0;
      for (let i = 0; i < 40; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        analyser.getFloatTimeDomainData(samples);
        for (const sample of samples) loudest = Math.max(loudest, Math.abs(sample));
      }
      stream.getTracks().forEach((track) => track.stop());
      await context.close();
      return loudest;
    });
    expect(peak).toBeGreaterThan(0.05);
  } finally {
    await browser.close();
  }
});
