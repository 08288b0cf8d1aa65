import type { LaunchOptions } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this
// machine's closed network refuses many times a second.
const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launch options for Debian's Chromium, optionally with a fake microphone playing `wavPath` once. */
export function chromiumLaunchOptions(options: { microphoneWav?: string } = {}): LaunchOptions {
  const args = [...QUIET_FLAGS];
  if (options.microphoneWav) {
    args.push(
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${options.microphoneWav}%noloop`,
    );
  }
  return { executablePath: CHROMIUM_PATH, headless: true, args };
}
