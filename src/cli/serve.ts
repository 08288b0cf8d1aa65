import { fileURLToPath } from 'node:url';
import { startServer } from '../gateway/server.js';
import { UsageError, type Command } from './command.js';

const DEFAULT_PORT = 8011;

/** The built app sits in `dist/` at the project root, two levels above `build/node/`. */
function defaultStaticDir(): string {
  return fileURLToPath(new URL('../../dist/', import.meta.url));
}

export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got '${text}'.`);
  }
  return port;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the playground (and its gateway) on http://127.0.0.1:8011/.',
  usage: 'flowplay serve [--host 127.0.0.1] [--port 8011] [--static DIR]',
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: String(DEFAULT_PORT) },
    static: { type: 'string' },
  },
  async run({ values }) {
    const running = await startServer({
      host: String(values.host),
      port: parsePort(String(values.port)),
      staticDir: typeof values.static === 'string' ? values.static : defaultStaticDir(),
    });
    process.stdout.write(`Flow Playground: ${running.url}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await running.close();
    return 0;
  },
};
