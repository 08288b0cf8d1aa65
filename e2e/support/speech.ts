import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Speaks `text` with espeak-ng into a WAV file for Chromium's fake microphone.
 * `silenceSeconds` of silence is appended so a recogniser sees the utterance end.
 */
export async function speechWav(text: string, options: { silenceSeconds?: number } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'flowplay-speech-'));
  const spoken = join(dir, 'spoken.wav');
  await run('espeak-ng', ['-w', spoken, text]);
  const silence = options.silenceSeconds ?? 1;
  if (silence <= 0) return spoken;
  const padded = join(dir, 'speech.wav');
  await run('sox', [spoken, padded, 'pad', '0', String(silence)]);
  return padded;
}
