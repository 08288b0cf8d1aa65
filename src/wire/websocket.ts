import type { BinarySocket, SocketEvents } from './connection.js';
import { StatusCode, StatusError } from './status.js';

/**
 * The WebSocket surface A11 uses: the browser's own WebSocket and the `ws` package both have it,
 * so one adapter serves both (node-ws.ts only constructs `ws` sockets and servers).
 */
export interface WebSocketLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: never) => void): void;
}

const OPEN = 1;
const CLOSED = 3;

interface MessageEventLike {
  data: unknown;
}
interface CloseEventLike {
  code?: number;
  reason?: string;
}
interface ErrorEventLike {
  message?: string;
  error?: unknown;
}

/** Adapts an open (or opening) WebSocket to the packet socket a WireConnection runs on. */
export function webSocketAdapter(socket: WebSocketLike): BinarySocket {
  if (socket.binaryType === 'blob') socket.binaryType = 'arraybuffer';
  let events: SocketEvents | undefined;
  const early: (() => void)[] = [];
  const deliver = (action: (handlers: SocketEvents) => void) => {
    if (events) action(events);
    else early.push(() => action(events!));
  };
  socket.addEventListener('message', (event: MessageEventLike) => {
    const data = event.data;
    if (typeof data === 'string') deliver((handlers) => handlers.text(data));
    // Node buffers become plain views (no copy), so no Buffer semantics leak into decoded values.
    else if (data instanceof Uint8Array) deliver((handlers) => handlers.packet(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
    else if (data instanceof ArrayBuffer) deliver((handlers) => handlers.packet(new Uint8Array(data)));
    else if (ArrayBuffer.isView(data)) deliver((handlers) => handlers.packet(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
    else deliver((handlers) => handlers.error('a WebSocket message arrived in a form that is not bytes (set binaryType to arraybuffer)'));
  });
  socket.addEventListener('close', (event: CloseEventLike) => deliver((handlers) => handlers.closed(event.code ?? 1006, event.reason ?? '')));
  socket.addEventListener('error', (event: ErrorEventLike) =>
    deliver((handlers) => handlers.error(event.message ?? (event.error instanceof Error ? event.error.message : 'WebSocket error'))),
  );
  return {
    send(packet) {
      if (socket.readyState !== OPEN) throw new StatusError(StatusCode.UNAVAILABLE, 'The WebSocket is not open.');
      socket.send(packet);
    },
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    close(code, reason) {
      if (socket.readyState !== CLOSED) socket.close(code, reason);
    },
    listen(handlers) {
      events = handlers;
      for (const replay of early.splice(0)) replay();
    },
  };
}

/** A WebSocket constructor: the browser's, or `ws`'s in Node. */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * Opens a WebSocket (no subprotocol: A11 asks for none) and resolves once it is open;
 * UNAVAILABLE when it cannot be opened, INVALID_ARGUMENT for a URL that is not ws:// or wss://.
 */
export function openWebSocket(url: string, WebSocketClass?: WebSocketConstructor): Promise<BinarySocket> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.reject(new StatusError(StatusCode.INVALID_ARGUMENT, `'${url}' is not a URL; an A11 endpoint looks like ws://127.0.0.1:8011/a11.`));
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    return Promise.reject(new StatusError(StatusCode.INVALID_ARGUMENT, `'${url}' is not a ws:// or wss:// URL.`));
  }
  const Constructor = WebSocketClass ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Constructor) {
    return Promise.reject(new StatusError(StatusCode.UNIMPLEMENTED, 'This runtime has no WebSocket; in Node use connectSession from wire/node-ws.'));
  }
  return new Promise((resolve, reject) => {
    let socket: WebSocketLike;
    try {
      socket = new Constructor(url);
    } catch (error) {
      reject(new StatusError(StatusCode.INVALID_ARGUMENT, `Cannot open '${url}': ${(error as Error).message}`));
      return;
    }
    socket.binaryType = socket.binaryType === 'nodebuffer' ? 'nodebuffer' : 'arraybuffer';
    // Adapted before it opens, so nothing the peer sends early is missed.
    const adapted = webSocketAdapter(socket);
    let settled = false;
    socket.addEventListener('open', () => {
      settled = true;
      resolve(adapted);
    });
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      reject(new StatusError(StatusCode.UNAVAILABLE, `Cannot connect to ${url}: ${why}. Is an A11 gateway listening there?`));
    };
    socket.addEventListener('error', (event: ErrorEventLike) => fail(event.message ?? (event.error instanceof Error ? event.error.message : 'connection failed')));
    socket.addEventListener('close', (event: CloseEventLike) => fail(`closed with code ${event.code ?? 1006}`));
  });
}
