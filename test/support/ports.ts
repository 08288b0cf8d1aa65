import { createServer } from 'node:net';

/** A loopback port nothing listens on right now, chosen by the system (for a server that cannot be given 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A free loopback port in `first`–`last` (a suite's own range), tried from a random one onwards
 * so suites running side by side rarely reach for the same port.
 */
export async function freePortIn(first: number, last: number): Promise<number> {
  const size = last - first + 1;
  const start = Math.floor(Math.random() * size);
  for (let offset = 0; offset < size; offset++) {
    const port = first + ((start + offset) % size);
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port in ${first}–${last}: stop whatever holds them, or give this suite another range.`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
