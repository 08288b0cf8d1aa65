import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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
  stop(): Promise<void>;
}

/** Starts `flowplay serve` on a free port and resolves once it prints its URL. */
export function serveFlowplay(args: string[] = []): Promise<ServedFlowplay> {
  assertBuilt();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [FLOWPLAY_BIN, 'serve', '--port', '0', ...args], { cwd: PROJECT_ROOT });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`flowplay serve printed no URL in 15 s:\n${output}`)), 15_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /(http:\/\/\S+)/.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolvePromise({
        url: match[1],
        process: child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    child.on('exit', (code) => reject(new Error(`flowplay serve exited with ${code}:\n${output}`)));
  });
}
