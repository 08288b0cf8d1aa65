import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/browser';

const port = Number(process.env.FLOWPLAY_E2E_PORT ?? 8311);
// The launch token the served page must present; fixed per run so tests can open the page with it
// (workers read it from the environment this sets, see e2e/support/page.ts).
const token = (process.env.FLOWPLAY_E2E_TOKEN ??= randomBytes(12).toString('base64url'));

// The suite drives Debian's Chromium (Playwright's own browser download does not work here)
// against `flowplay serve`, the same server `npm start` runs.
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/e2e',
  timeout: 60_000,
  workers: 1,
  retries: 0,
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    launchOptions: chromiumLaunchOptions(),
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: {
    // `--token=…` in one word: a random token can begin with '-', which read as a separate
    // argument is taken for an option (about one run in 64 failed to start the server so).
    command: `node bin/flowplay.js serve --port ${port} --token=${token}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'pipe',
  },
});
