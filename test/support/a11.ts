import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { A11_BIN, PROJECT_ROOT } from './reference.js';

export interface A11Result {
  exit: number;
  stdout: string;
  stderr: string;
}

interface Pending {
  resolve(result: A11Result): void;
}

let server: { child: ChildProcess; pending: Map<number, Pending>; next: number } | undefined | null;

/**
 * The fork server (test/support/a11-fork-server.py) under the Python beside `a11`, started once:
 * each command then costs a fork rather than Python's start-up. Null where it cannot run.
 */
function forkServer(): typeof server {
  if (server !== undefined) return server;
  const python = A11_BIN ? join(dirname(A11_BIN), 'python') : '';
  if (!A11_BIN || !existsSync(python)) return (server = null);
  const child = spawn(python, [join(PROJECT_ROOT, 'test/support/a11-fork-server.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map<number, Pending>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const answer = JSON.parse(line) as A11Result & { id: number };
    pending.get(answer.id)?.resolve({ exit: answer.exit, stdout: answer.stdout, stderr: answer.stderr });
    pending.delete(answer.id);
  });
  child.unref();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  server = { child, pending, next: 0 };
  return server;
}

/** Runs the reference's `a11 …args` in `cwd` with `stdin`; resolves with what it did. */
export function runA11(args: string[], options: { cwd: string; stdin?: string; timeoutMs?: number }): Promise<A11Result> {
  if (!A11_BIN) throw new Error('a11-kit is not installed');
  const forked = forkServer();
  if (forked) {
    const id = forked.next++;
    return new Promise((resolve) => {
      forked.pending.set(id, { resolve });
      forked.child.stdin!.write(`${JSON.stringify({ id, argv: args, cwd: options.cwd, stdin: options.stdin ?? '' })}\n`);
    });
  }
  return new Promise((resolve) => {
    const child = execFile(A11_BIN!, args, { cwd: options.cwd, timeout: options.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ exit: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end(options.stdin ?? '');
  });
}

/** Stops the fork server (for a suite that wants a clean exit). */
export function stopA11(): void {
  if (server) server.child.kill();
  server = undefined;
}
