import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { FLOWPLAY_BIN } from '../test/support/flowplay';
import { freePort } from '../test/support/ports';
import { connectTo, openPlayground } from './support/page';

/**
 * A second `flowplay serve` on a fixed port, so it can be stopped and started again there; it
 * lets the test page's origin in (a gateway admits pages from its own origin only by default).
 */
function serveOn(port: number, token: string): Promise<ChildProcess> {
  const origin = new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1/').origin;
  const args = [FLOWPLAY_BIN, 'serve', '--port', String(port), '--token', token, '--no-audio', '--allow-origin', origin];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('Flow Playground:')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`flowplay serve exited with ${code}: ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

test('a page opened without the launch token says why the gateway refuses it', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.getByTestId('connection-status')).toHaveText('Refused');
  await page.getByRole('button', { name: /^Gateway:/ }).click();
  await expect(page.getByRole('alert')).toContainText('opened without the launch token');
  await page.screenshot({ path: testInfo.outputPath('connection-refused.png') });
});

test('the page reconnects by itself when its gateway comes back', async ({ page }, testInfo) => {
  const port = await freePort();
  const token = 'reconnect-test-token';
  let gateway = await serveOn(port, token);
  try {
    await openPlayground(page);
    await connectTo(page, `ws://127.0.0.1:${port}/a11?token=${token}`);
    await stop(gateway);
    await expect(page.getByTestId('connection-status')).toHaveText(/^Reconnecting/);
    await expect(page.getByRole('region', { name: 'Actions' })).toContainText('Connect to a gateway');
    await page.screenshot({ path: testInfo.outputPath('connection-reconnecting.png') });
    gateway = await serveOn(port, token);
    await expect(page.getByTestId('connection-status')).toHaveText(/^Connected · \d+ actions$/, { timeout: 40_000 });
    await expect(page.getByRole('region', { name: 'Actions' }).getByRole('article', { name: 'shell_execute' })).toBeVisible();
  } finally {
    await stop(gateway);
  }
});

test('an address that is not a gateway is refused with an explanation', async ({ page }) => {
  await openPlayground(page);
  await page.getByRole('button', { name: /^Gateway:/ }).click();
  await page.getByLabel('Gateway (A11 WebSocket)').fill('http://127.0.0.1:1/a11');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('starts with ws:// or wss://');
});

test('a gateway that does not answer is explained without showing its token', async ({ page }) => {
  const port = await freePort();
  const token = 'never-shown-token-123';
  await openPlayground(page);
  await page.getByRole('button', { name: /^Gateway:/ }).click();
  await page.getByLabel('Gateway (A11 WebSocket)').fill(`ws://127.0.0.1:${port}/a11?token=${token}`);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByTestId('connection-status')).toHaveText(/^Reconnecting/);
  await expect(page.getByRole('alert')).toContainText(`Nothing answers at ws://127.0.0.1:${port}/a11?token=…`);
  await expect(page.locator('body')).not.toContainText(token);
});
