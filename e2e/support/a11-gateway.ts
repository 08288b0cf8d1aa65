import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { A11_BIN } from '../../test/support/reference';

export interface RunningA11Gateway {
  /** ws://127.0.0.1:PORT/a11 */
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the reference gateway cannot be given port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts the reference's `a11 gateway run` (a11-kit 0.4.4) and resolves once it listens. */
export async function startA11Gateway(extraArgs: string[] = []): Promise<RunningA11Gateway> {
  if (!A11_BIN) throw new Error('A11_BIN is not set and .tools/a11-kit is not installed');
  const port = await freePort();
  const child = spawn(A11_BIN, ['gateway', 'run', '--a11-port', String(port), '--plain', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`a11 gateway run did not start in 30 s:\n${output}`)), 30_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      if (output.includes(`listening on ws://127.0.0.1:${port}/a11`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`a11 gateway run exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `ws://127.0.0.1:${port}/a11`,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
