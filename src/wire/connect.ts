import { WireConnection, type ConnectionOptions } from './connection.js';
import { Session, type SessionOptions } from './session.js';
import { openWebSocket, type WebSocketConstructor } from './websocket.js';

export interface ConnectOptions extends SessionOptions {
  connection?: ConnectionOptions;
  /** The WebSocket class to use; the runtime's own (the browser's) by default. */
  WebSocket?: WebSocketConstructor;
}

/**
 * Connects to an A11 endpoint (`ws://127.0.0.1:8011/a11`) and starts a session on it, with the
 * runtime's WebSocket — the browser's. In Node use `connectSession` from node-ws.ts, which brings
 * the `ws` package. Rejects UNAVAILABLE when nothing answers there.
 */
export async function connectSession(url: string, options: ConnectOptions = {}): Promise<Session> {
  const socket = await openWebSocket(url, options.WebSocket);
  return new Session(new WireConnection(socket, options.connection), options);
}
