import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FLOWPLAY_BIN } from '../../test/support/flowplay';

const run = promisify(execFile);

export interface CheckedDiagnostic {
  code: string;
  severity: string;
  message: string;
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
  fixes: { label: string }[];
}

/** `flowplay check --format json` on `source`: what the command line says about it. */
export async function flowplayCheck(source: string): Promise<CheckedDiagnostic[]> {
  const dir = await mkdtemp(join(tmpdir(), 'flowplay-check-'));
  const file = join(dir, 'checked.flow');
  await writeFile(file, source);
  const { stdout } = await run(process.execPath, [FLOWPLAY_BIN, 'check', '--format', 'json', file]).catch(
    // Exit status 1 means "found errors"; the envelope is still on stdout.
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  return (JSON.parse(stdout) as { diagnostics: CheckedDiagnostic[] }).diagnostics;
}
