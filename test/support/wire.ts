import { WebSocket } from 'ws';
import type { Chunk } from '../../src/wire/chunk.js';
import { PacketReassembler, splitIntoPackets } from '../../src/wire/packets.js';
import { decodeWireMessage, encodeWireMessage, type DecodedWireMessage, type WireMessageRecord } from '../../src/wire/records.js';
import { chunkFromRecord } from '../../src/wire/wire-chunk.js';
import { connectSession, startWireServer, type ConnectOptions, type WireServer } from '../../src/wire/node-ws.js';
import type { ActionRegistry } from '../../src/wire/registry.js';
import type { Session } from '../../src/wire/session.js';
import { Status, StatusCode } from '../../src/wire/status.js';

/** Our own A11 server on a free loopback port and a client session connected to it. */
export interface SessionPair {
  server: WireServer;
  client: Session;
  /** The server's side of the client's session. */
  served: Session;
  /** Drops the server's TCP connection without a word, as a crashed peer would. */
  vanish(): void;
  close(): Promise<void>;
}

export async function sessionPair(
  serverRegistry: ActionRegistry,
  options: { client?: ConnectOptions; server?: ConnectOptions } = {},
): Promise<SessionPair> {
  let resolveServed!: (session: Session) => void;
  const servedPromise = new Promise<Session>((resolve) => (resolveServed = resolve));
  let socket: WebSocket | undefined;
  const server = await startWireServer(serverRegistry, {
    ...options.server,
    onSession: (session, ws) => {
      socket = ws;
      resolveServed(session);
    },
  });
  const client = await connectSession(server.url, options.client);
  const served = await servedPromise;
  return {
    server,
    client,
    served,
    vanish: () => socket?.terminate(),
    async close() {
      if (!client.status) client.abort(new Status(StatusCode.CANCELLED, 'The test is over.'));
      await server.close();
    },
  };
}

/**
 * A bare WebSocket client that sends whatever bytes it is given and decodes what comes back:
 * for feeding a session malformed or hostile input.
 */
export interface RawClient {
  /** Sends one WebSocket message as is. */
  send(data: Uint8Array | string): void;
  /** Sends a WireMessage record as packets. */
  sendMessage(message: WireMessageRecord): void;
  /** Every message received so far. */
  readonly received: DecodedWireMessage[];
  /** Waits until a received fragment for `nodeId` satisfies `test`, and returns its chunk. */
  waitForFragment(nodeId: string, test?: (chunk: Chunk) => boolean, timeoutMs?: number): Promise<Chunk>;
  readonly closed: Promise<{ code: number; reason: string }>;
  terminate(): void;
  close(): void;
}

export async function rawClient(url: string): Promise<RawClient> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.binaryType = 'nodebuffer';
  const received: DecodedWireMessage[] = [];
  const reassembler = new PacketReassembler();
  const waiters = new Set<() => void>();
  let nextId = 0n;
  socket.on('message', (data: Buffer) => {
    const result = reassembler.feed(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    if (result.kind === 'message') received.push(decodeWireMessage(result.bytes));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const findFragment = (nodeId: string, test: (chunk: Chunk) => boolean) => {
    for (const message of received) {
      for (const fragment of message.fragments) {
        if (fragment.id !== nodeId || !fragment.payload.chunk) continue;
        const chunk = chunkFromRecord(fragment.payload.chunk);
        if (test(chunk)) return chunk;
      }
    }
    return undefined;
  };
  return {
    send: (data) => socket.send(data),
    sendMessage(message) {
      for (const packet of splitIntoPackets(encodeWireMessage(message), nextId++)) socket.send(packet);
    },
    received,
    async waitForFragment(nodeId, test = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = findFragment(nodeId, test);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching fragment for '${nodeId}' within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 20);
        });
      }
    },
    closed,
    terminate: () => socket.terminate(),
    close: () => socket.close(1000),
  };
}
