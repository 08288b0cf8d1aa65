import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { chromiumLaunchOptions } from './browser';
import { openPlayground } from './page';

const run = promisify(execFile);

/**
 * Speaks `text` with espeak-ng into a WAV file for Chromium's fake microphone.
 * `silenceSeconds` of silence is appended so a recogniser sees the utterance end;
 * `leadingSilenceSeconds` is put before it, for a page that takes a moment to start listening
 * (the fake device starts playing when the microphone is opened). `voice` picks an espeak-ng
 * voice: pocketsphinx's US English model hears `en-us` far better than the default.
 */
export async function speechWav(
  text: string,
  options: { silenceSeconds?: number; leadingSilenceSeconds?: number; voice?: string } = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'flowplay-speech-'));
  const spoken = join(dir, 'spoken.wav');
  await run('espeak-ng', [...(options.voice ? ['-v', options.voice] : []), '-w', spoken, text]);
  const silence = options.silenceSeconds ?? 1;
  const leading = options.leadingSilenceSeconds ?? 0;
  if (silence <= 0 && leading <= 0) return spoken;
  const padded = join(dir, 'speech.wav');
  await run('sox', [spoken, padded, 'pad', String(Math.max(0, leading)), String(Math.max(0, silence))]);
  return padded;
}

/**
 * Runs `use` on a page of its own Chromium, whose microphone says `sentence` once: in US English,
 * after two seconds of silence (the page opens the microphone and loads its worklet, the
 * recogniser calibrates, as a person waits for the mic to go live) and followed by two (so the
 * recogniser hears it end). The page starts with a clean workspace, connected to the gateway.
 */
export async function withSpeakingMicrophone(
  playwright: PlaywrightWorkerArgs['playwright'],
  sentence: string,
  use: (page: Page) => Promise<void>,
): Promise<void> {
  const wav = await speechWav(sentence, { leadingSilenceSeconds: 2, silenceSeconds: 2, voice: 'en-us' });
  const browser = await playwright.chromium.launch(chromiumLaunchOptions({ microphoneWav: wav }));
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openPlayground(page);
    await expect(page.getByTestId('connection-status')).toHaveText(/^Connected/);
    await use(page);
  } finally {
    await browser.close();
  }
}
