import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { Chunk } from './chunk.js';
import { connectSession } from './node-ws.js';
import { PacketReassembler, splitIntoPackets } from './packets.js';
import { decodeWireMessage, encodeWireMessage, type NodeFragmentRecord } from './records.js';
import { defineAction, port } from './schema.js';
import type { Session } from './session.js';
import { Status } from './status.js';
import { statusChunk } from './status-chunk.js';
import { chunkToRecord } from './wire-chunk.js';

/**
 * A peer may send a call's `__status__` before the last fragments of its outputs: the reference
 * gateway does under concurrent calls, because it writes them from different tasks. The call must
 * still deliver those values, and end only once they are in.
 */

const lookup = defineAction({ name: 'lookup', description: 'Answers with one value.', outputs: { answer: port.json() } });

const fragment = (id: string, chunk: Chunk, continued = false): NodeFragmentRecord => ({
  id,
  payload: { chunk: chunkToRecord(chunk) },
  seq: 0,
  continued,
});

let server: WebSocketServer | undefined;
let client: Session | undefined;

afterEach(async () => {
  await client?.close({ timeoutMs: 100 }).catch(() => {});
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = client = undefined;
});

/** A peer that answers every call OK at once and sends its output `delayMs` later. */
async function statusFirstPeer(delayMs: number | null): Promise<string> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
  server.on('connection', (socket: WebSocket) => {
    const reassembler = new PacketReassembler();
    let transient = 0n;
    const send = (fragments: NodeFragmentRecord[]) => {
      for (const packet of splitIntoPackets(encodeWireMessage({ fragments, actions: [], headers: new Map() }), transient++)) socket.send(packet);
    };
    socket.on('message', (data: Buffer) => {
      const result = reassembler.feed(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      if (result.kind !== 'message') return;
      for (const call of decodeWireMessage(result.bytes).actions) {
        send([fragment(`${call.id}#__dispatch_status__`, statusChunk(Status.OK))]);
        send([fragment(`${call.id}#__log__`, statusChunk(Status.OK, { close: true }))]);
        send([fragment(`${call.id}#__status__`, statusChunk(Status.OK))]);
        if (delayMs !== null) setTimeout(() => send([fragment(`${call.id}#answer`, Chunk.json({ answer: 42 }))]), delayMs);
      }
    });
  });
  const address = server.address() as { port: number };
  return `ws://127.0.0.1:${address.port}/a11`;
}

describe('a call whose status overtakes its outputs', () => {
  it('still delivers the output value, and ends after it', async () => {
    client = await connectSession(await statusFirstPeer(150));
    const call = client.invoke(lookup);
    const started = Date.now();
    const status = await call.done;
    expect(status.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    const values = (await call.output('answer').collect()).map((chunk) => chunk.value);
    expect(values).toEqual([{ answer: 42 }]);
  });

  it('ends anyway when the output never comes, so no reader waits for ever', async () => {
    client = await connectSession(await statusFirstPeer(null));
    const call = client.invoke(lookup);
    const reader = call.output('answer').reader();
    expect((await call.done).ok).toBe(true);
    expect(await reader.next()).toBeUndefined();
  }, 15_000);
});
