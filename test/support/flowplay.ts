import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './reference.js';

export const FLOWPLAY_BIN = join(PROJECT_ROOT, 'bin/flowplay.js');

export function assertBuilt(): void {
  if (!existsSync(join(PROJECT_ROOT, 'build/node/main.js'))) {
    throw new Error('flowplay is not built: run `npm run build` before these tests (npm test does).');
  }
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `flowplay …args` to completion. */
export function runFlowplay(args: string[], options: { input?: string; cwd?: string } = {}): Promise<RunResult> {
  assertBuilt();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [FLOWPLAY_BIN, ...args], { cwd: options.cwd ?? PROJECT_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export interface ServedFlowplay {
  url: string;
  process: ChildProcess;
  /** Everything it has printed so far (stdout and stderr). */
  readonly output: string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `flowplay serve` on a free port (with a scratch data directory unless `--data-dir` is
 * given) and resolves once it has printed its banner.
 */
export function serveFlowplay(args: string[] = []): Promise<ServedFlowplay> {
  assertBuilt();
  const scratch = args.includes('--data-dir') ? undefined : mkdtempSync(join(tmpdir(), 'flowplay-serve-'));
  const dataArgs = scratch ? ['--data-dir', scratch] : [];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [FLOWPLAY_BIN, 'serve', '--port', '0', ...dataArgs, ...args], { cwd: PROJECT_ROOT });
    let output = '';
    let stdout = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    void exited.then(() => scratch && rmSync(scratch, { recursive: true, force: true }));
    const timer = setTimeout(() => reject(new Error(`flowplay serve printed no URL in 15 s:\n${output}`)), 15_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      stdout += data.toString();
      const match = /(http:\/\/\S+)/.exec(stdout);
      // The banner ends with a blank line after the list of what was found.
      if (!match?.[1] || !/\n\s*\n/.test(stdout.slice(match.index))) return;
      clearTimeout(timer);
      resolvePromise({
        url: match[1],
        process: child,
        get output() {
          return output;
        },
        stop: () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    child.on('exit', (code) => reject(new Error(`flowplay serve exited with ${code}:\n${output}`)));
  });
}
