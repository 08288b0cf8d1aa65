/**
 * The Node adapter: A11 sessions over the `ws` package, and a small server for them. This is the
 * one file in src/wire that uses Node APIs; everything else runs in the browser as well.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { connectSession as connectWith, type ConnectOptions as BrowserConnectOptions } from './connect.js';
import { WireConnection } from './connection.js';
import { answerDiscovery, type HttpAnswer } from './discovery-http.js';
import type { ActionRegistry } from './registry.js';
import { Session } from './session.js';
import { Status, StatusCode } from './status.js';
import { webSocketAdapter, type WebSocketConstructor, type WebSocketLike } from './websocket.js';

/** The default A11 endpoint path. */
export const A11_PATH = '/a11';

export type ConnectOptions = Omit<BrowserConnectOptions, 'WebSocket'>;

/** `ws` sockets as A11 wants them: binary as Node buffers (no copies), no compression. */
class NodeWebSocket extends WebSocket {
  constructor(url: string) {
    super(url, { perMessageDeflate: false });
    this.binaryType = 'nodebuffer';
  }
}

/** Connects to an A11 endpoint (`ws://127.0.0.1:8011/a11`) and starts a session on it. */
export function connectSession(url: string, options: ConnectOptions = {}): Promise<Session> {
  return connectWith(url, { ...options, WebSocket: NodeWebSocket as unknown as WebSocketConstructor });
}

/** Starts a session on a socket a `ws` server accepted. */
export function acceptSession(socket: WebSocket, options: ConnectOptions = {}): Session {
  socket.binaryType = 'nodebuffer';
  return new Session(new WireConnection(webSocketAdapter(socket as unknown as WebSocketLike), options.connection), options);
}

export interface WireEndpointOptions extends ConnectOptions {
  /** Path the WebSocket endpoint answers on (`/a11`). */
  path?: string;
  /** Called with each new session (for bookkeeping, or to call the client back) and its socket. */
  onSession?: (session: Session, socket: WebSocket) => void;
}

export interface WireEndpoint {
  /** Sessions currently connected. */
  readonly sessions: ReadonlySet<Session>;
  /** Closes every session (aborting those that do not finish) and stops accepting. */
  close(): Promise<void>;
}

/**
 * Serves A11 on an existing HTTP server: WebSocket upgrades on `path` become sessions answering
 * from `options.registry`; other upgrades are left to other listeners (or refused if none).
 */
export function attachWireEndpoint(server: Server, options: WireEndpointOptions = {}): WireEndpoint {
  const path = options.path ?? A11_PATH;
  const sessions = new Set<Session>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname !== path) {
      if (server.listeners('upgrade').length === 1) socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const session = acceptSession(ws, options);
      sessions.add(session);
      void session.ended().then(() => sessions.delete(session));
      options.onSession?.(session, ws);
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    sessions,
    async close() {
      server.off('upgrade', onUpgrade);
      const ending = [...sessions].map(async (session) => {
        const timer = setTimeout(() => session.abort(new Status(StatusCode.UNAVAILABLE, 'The server is shutting down.')), 2000);
        await Promise.race([session.close(), session.ended()]);
        clearTimeout(timer);
      });
      await Promise.all(ending);
      wss.close();
    },
  };
}

/** Writes a discovery answer (or any HttpAnswer) to a Node response. */
export function writeHttpAnswer(response: ServerResponse, answer: HttpAnswer): void {
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

export interface WireServer extends WireEndpoint {
  /** `ws://host:port/a11` */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
}

/**
 * A standalone A11 server: the WebSocket endpoint plus `GET /actions` discovery, answering from
 * `registry`. Port 0 picks a free port.
 */
export async function startWireServer(
  registry: ActionRegistry,
  options: WireEndpointOptions & { host?: string; port?: number } = {},
): Promise<WireServer> {
  const server = createServer((request, response) => {
    const answer = answerDiscovery(request.method ?? 'GET', request.url ?? '/', registry);
    if (answer) writeHttpAnswer(response, answer);
    else writeHttpAnswer(response, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found: A11 is at /a11, discovery at /actions.' });
  });
  const endpoint = attachWireEndpoint(server, { ...options, registry });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `ws://${host}:${address.port}${options.path ?? A11_PATH}`,
    port: address.port,
    server,
    sessions: endpoint.sessions,
    async close() {
      await endpoint.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
