import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

export interface ServerOptions {
  host: string;
  port: number;
  /** The built single-page app (Vite's `dist/`). */
  staticDir: string;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Serves the built playground over HTTP. The gateway endpoints are mounted beside it. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (!existsSync(options.staticDir)) {
    throw new Error(`The playground is not built: ${options.staticDir} does not exist. Run \`npm run build\` first.`);
  }
  const serveStatic = sirv(options.staticDir, { single: true, etag: true, gzip: false, brotli: false });
  const server = createServer((request, response) => {
    serveStatic(request, response, () => {
      response.statusCode = 404;
      response.end('Not found');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
