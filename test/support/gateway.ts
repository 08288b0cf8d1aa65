import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortIn } from './ports.js';

/** Ports the wire suites may use for the reference gateway (the reference cannot take port 0). */
const PORT_RANGE = { first: 8500, last: 8549 } as const;

export interface ReferenceGateway {
  /** `ws://127.0.0.1:<port>/a11` */
  url: string;
  /** `http://127.0.0.1:<port>` */
  httpUrl: string;
  port: number;
  process: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Kills its whole process group and removes its conversation store. */
  stop(): Promise<void>;
}

/**
 * Starts `a11 gateway run` on a free loopback port in 8500–8549, with audio capture and speech
 * recognition off and a throwaway conversation store, and resolves once it listens.
 */
export async function startReferenceGateway(a11Bin: string, extraArgs: string[] = []): Promise<ReferenceGateway> {
  const port = await freePortIn(PORT_RANGE.first, PORT_RANGE.last);
  const store = mkdtempSync(join(tmpdir(), 'a11-gateway-'));
  const child = spawn(
    a11Bin,
    ['gateway', 'run', '--host', '127.0.0.1', '--a11-port', String(port), '--no-audio-capture', '--no-speech-recognition', '--conversation-store-root', store, ...extraArgs],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }, 3000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(store, { recursive: true, force: true });
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`a11 gateway did not start listening within 30 s:\n${output}`));
    }, 30_000);
    const check = () => {
      if (/listening on ws:\/\//.test(output)) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`a11 gateway exited with ${code} before listening:\n${output}`));
    });
  });
  return { url: `ws://127.0.0.1:${port}/a11`, httpUrl: `http://127.0.0.1:${port}`, port, process: child, output: () => output, stop };
}

