import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sirv from 'sirv';
import { WebSocketServer, type WebSocket } from 'ws';
import { Status, StatusCode } from '../wire/status.js';
import { answerStatus } from './activity/http.js';
import { STATUS_PATH } from './activity/status-schema.js';
import type { GatewayLimits } from './limits.js';
import { silentLogger, type Logger } from './logger.js';
import { ClosableScope } from './scope.js';
import { checkConnection, hostAllowed, isLoopback, ownHosts, ownOrigins, TOKEN_PARAMETER, type AccessPolicy } from './security.js';

/** Where the A11 WebSocket endpoint is mounted. */
export const A11_PATH = '/a11';

/** An HTTP answer computed without touching the response (discovery is one). */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One accepted A11 connection, for whatever serves the protocol on it. */
export interface AcceptedConnection {
  id: string;
  socket: WebSocket;
  scope: ClosableScope;
  logger: Logger;
  /** Whether it came from a browser page (sent Origin and the token). */
  browser: boolean;
  /** Whether the client is on this machine. */
  remote: 'loopback' | 'remote';
}

/** A running connection, as the server tracks it. */
export interface ServedConnection {
  /** Resolves with how the connection ended. */
  readonly ended: Promise<Status>;
  /** Ends it now: every running call is cancelled with `status`. */
  shutdown(status: Status): void;
}

export interface ServerOptions {
  host: string;
  port: number;
  /** The built single-page app (Vite's `dist/`). */
  staticDir: string;
  /** The per-launch token; browsers present it as `?token=` on `/a11`. */
  token: string;
  /** Origins allowed besides the server's own (a dev server, say). */
  extraOrigins?: readonly string[];
  /** Accept connections from other machines (they must present the token). */
  allowRemote?: boolean;
  limits: GatewayLimits;
  /** Serves the A11 protocol on an accepted WebSocket. */
  serveConnection: (connection: AcceptedConnection) => ServedConnection;
  /** `GET /actions[/<name>]`; undefined for paths it does not handle. */
  discovery?: (method: string, url: string) => HttpAnswer | undefined;
  /** `GET /status`: what the gateway is running (absent: not served). */
  status?: () => Promise<unknown>;
  logger?: Logger;
}

export interface RunningServer {
  /** The page to open: `http://host:port/?token=…`. */
  url: string;
  /** The A11 endpoint, token included: `ws://host:port/a11?token=…`. */
  a11Url: string;
  port: number;
  server: Server;
  /** Connections currently open. */
  readonly connections: number;
  /** Stops accepting, ends every connection (and so every run), then closes. */
  close(): Promise<void>;
}

let connectionCounter = 0;

/**
 * One port for everything: the built playground at `/`, the A11 WebSocket endpoint at `/a11`,
 * discovery at `/actions`. Every request must name this server in its Host header (so a page on
 * another site that rebinds its DNS to 127.0.0.1 gets nothing), and `/a11` admits a browser only
 * from an allowed origin with the launch token; see security.ts.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (!existsSync(options.staticDir)) {
    throw new Error(`The playground is not built: ${options.staticDir} does not exist. Run \`npm run build\` first.`);
  }
  const logger = options.logger ?? silentLogger;
  const serveStatic = sirv(options.staticDir, { single: true, etag: true, gzip: false, brotli: false });
  const allowedOrigins = new Set<string>();
  const allowedHosts = new Set<string>();
  const policy: AccessPolicy = { token: options.token, allowedOrigins, allowedHosts };
  const served = new Map<string, ServedConnection>();
  const sockets = new Set<Socket>();
  let closing = false;

  const server = createServer((request, response) => {
    if (!hostAllowed(request, policy)) return refuseHttp(response, 403, `Host '${request.headers.host ?? ''}' is not this server.`);
    const answer = options.discovery?.(request.method ?? 'GET', request.url ?? '/');
    if (answer) {
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
      return;
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === A11_PATH) {
      return refuseHttp(response, 426, 'This is the A11 WebSocket endpoint: connect with a WebSocket client.');
    }
    if (path === STATUS_PATH && options.status) {
      const report = options.status;
      void answerStatus(request, policy, report).then(
        (status) => {
          response.writeHead(status.status, status.headers);
          response.end(status.body);
        },
        (error: unknown) => {
          logger.error('status report failed', { error });
          refuseHttp(response, 500, 'The status report could not be made; the gateway log says why.');
        },
      );
      return;
    }
    serveStatic(request, response, () => refuseHttp(response, 404, 'Not found'));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const webSockets = new WebSocketServer({
    noServer: true,
    maxPayload: options.limits.maxPacketBytes,
    perMessageDeflate: false,
    // A11 asks for no subprotocol; answering none is what the reference does.
    handleProtocols: () => false,
  });

  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== A11_PATH) return refuseUpgrade(socket, 404, `Nothing to connect to at ${path}; the A11 endpoint is ${A11_PATH}.`);
    if (closing) return refuseUpgrade(socket, 503, 'The gateway is shutting down.');
    const decision = checkConnection(request, policy);
    const remote = request.socket.remoteAddress;
    if (!decision.ok) {
      logger.warn('connection refused', { remote, origin: request.headers.origin, reason: decision.reason });
      return refuseUpgrade(socket, decision.status, decision.reason);
    }
    if (served.size >= options.limits.maxConnections) {
      logger.warn('connection refused', { remote, reason: 'too many connections' });
      return refuseUpgrade(socket, 503, `The gateway already has ${options.limits.maxConnections} connections open.`);
    }
    webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      const id = `conn-${++connectionCounter}`;
      const connectionLogger = logger.child({ connection: id });
      const scope = new ClosableScope(id);
      connectionLogger.info('connection accepted', { remote, origin: request.headers.origin, browser: decision.browser });
      let connection: ServedConnection;
      try {
        connection = options.serveConnection({
          id,
          socket: webSocket,
          scope,
          logger: connectionLogger,
          browser: decision.browser,
          remote: isLoopback(remote ?? '') ? 'loopback' : 'remote',
        });
      } catch (error) {
        connectionLogger.error('connection could not be served', { error });
        webSocket.close(1011, 'The gateway could not serve this connection.');
        void scope.close();
        return;
      }
      served.set(id, connection);
      void connection.ended.then(async (status) => {
        served.delete(id);
        await scope.close((error) => connectionLogger.error('cleanup failed', { error }));
        connectionLogger.info('connection closed', { status: status.toString() });
      });
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
  const port = address.port;
  for (const origin of [...ownOrigins(options.host, port), ...(options.extraOrigins ?? [])]) {
    allowedOrigins.add(origin.toLowerCase().replace(/\/+$/, ''));
  }
  if (!options.allowRemote) for (const host of ownHosts(options.host, port)) allowedHosts.add(host);

  const urlHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  const token = encodeURIComponent(options.token);
  return {
    url: `http://${urlHost}:${port}/?${TOKEN_PARAMETER}=${token}`,
    a11Url: `ws://${urlHost}:${port}${A11_PATH}?${TOKEN_PARAMETER}=${token}`,
    port,
    server,
    get connections() {
      return served.size;
    },
    async close() {
      if (closing) return;
      closing = true;
      const shutdown = new Status(StatusCode.UNAVAILABLE, 'The gateway is shutting down.');
      const endings = [...served.values()].map((connection) => {
        connection.shutdown(shutdown);
        return connection.ended;
      });
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(endings), new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
      // Left running, the timer would hold the process open for the rest of those 5 s.
      clearTimeout(timer);
      for (const client of webSockets.clients) client.terminate();
      webSockets.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

function refuseHttp(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  response.end(message);
}

/** Answers an upgrade request with an HTTP error and closes it, before any WebSocket traffic. */
function refuseUpgrade(socket: Socket, status: number, message: string): void {
  const reason = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status] ?? 'Error';
  const body = Buffer.from(message, 'utf8');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${message}`,
  );
}
