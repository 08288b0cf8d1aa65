import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '../../test/support/wire.js';
import { Chunk } from './chunk.js';
import { startWireServer, type WireServer } from './node-ws.js';
import { PacketReassembler, parsePacket, splitIntoPackets } from './packets.js';
import { decodeWireMessage, encodeWireMessage, type ActionMessageRecord, type NodeFragmentRecord, type WireMessageRecord } from './records.js';
import { ActionRegistry } from './registry.js';
import { defineAction, port } from './schema.js';
import type { Session } from './session.js';
import { StatusError } from './status.js';
import { isCloseMarker, isStatusChunk, statusChunk, statusOfChunk } from './status-chunk.js';
import { Status, StatusCode } from './status.js';
import { chunkToRecord } from './wire-chunk.js';

/** A small, seeded generator: the same seed gives the same run, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return {
    int,
    pick: <T>(items: readonly T[]) => items[int(items.length)]!,
    bytes: (length: number) => Uint8Array.from({ length }, () => int(256)),
  };
}

const SEED = Number(process.env.WIRE_FUZZ_SEED ?? 20_251_130);
const FRAMES = 4000;
const LIMITS = { maxNodes: 256, maxNodeBufferedBytes: 64 * 1024, maxBufferedBytes: 512 * 1024, maxServedCalls: 64 };

const collect = defineAction({ name: 'collect', description: '', inputs: { lines: port.text({ stream: true }) }, outputs: { count: port.json() } });

function sampleMessage(rng: ReturnType<typeof random>, index: number): WireMessageRecord {
  const fragments: NodeFragmentRecord[] = [];
  const actions: ActionMessageRecord[] = [];
  const nodeIds = ['a', 'b#c', `n${rng.int(300)}`, `call${rng.int(50)}#lines`, `call${rng.int(50)}#__status__`];
  for (let i = rng.int(4); i > 0; i--) {
    const chunk = rng.pick([
      Chunk.text('x'.repeat(rng.int(2000))),
      Chunk.json({ n: rng.int(1000), list: [1, 2, 3] }),
      Chunk.bytes(rng.bytes(rng.int(500))),
      Chunk.null(),
      statusChunk(new Status(rng.int(17), 'fuzz')),
      statusChunk(Status.OK, { close: true }),
    ]);
    fragments.push({ id: rng.pick(nodeIds), payload: { chunk: chunkToRecord(chunk) }, seq: rng.pick([null, rng.int(20)]), continued: rng.int(2) === 0 });
  }
  for (let i = rng.int(2); i > 0; i--) {
    const id = `call${rng.int(50)}`;
    actions.push({
      id,
      name: rng.pick(['collect', '__ping', '__list_actions__', 'missing', '__cancel__']),
      inputs: rng.int(2) ? [{ name: 'lines', id: `${id}#lines` }] : [],
      outputs: rng.int(2) ? [{ name: 'count', id: `${id}#count` }] : [],
      headers: new Map(rng.int(3) === 0 ? [['x-a11-deadline', new TextEncoder().encode(rng.pick(['soon', String(Date.now() + 50), '12ns']))]] : []),
    });
  }
  if (fragments.length === 0 && actions.length === 0) fragments.push({ id: `filler${index}`, payload: { chunk: chunkToRecord(Chunk.text('f')) }, seq: 0, continued: false });
  return { fragments, actions, headers: new Map() };
}

function mutate(rng: ReturnType<typeof random>, bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes);
  switch (rng.int(5)) {
    case 0:
      for (let i = 1 + rng.int(4); i > 0 && copy.length > 0; i--) copy[rng.int(copy.length)]! ^= 1 << rng.int(8);
      return copy;
    case 1:
      for (let i = 1 + rng.int(3); i > 0 && copy.length > 0; i--) copy[rng.int(copy.length)] = rng.pick([0x00, 0xc1, 0xff, 0xdd, 0xc6, 0x7f]);
      return copy;
    case 2:
      return copy.subarray(0, rng.int(copy.length + 1));
    case 3: {
      const at = rng.int(copy.length + 1);
      const extra = rng.bytes(1 + rng.int(16));
      const result = new Uint8Array(copy.length + extra.length);
      result.set(copy.subarray(0, at));
      result.set(extra, at);
      result.set(copy.subarray(at), at + extra.length);
      return result;
    }
    default:
      return rng.bytes(rng.int(64));
  }
}

describe(`fuzzing a live session (seed ${SEED}; set WIRE_FUZZ_SEED to replay another)`, () => {
  let server: WireServer;
  let session: Session;
  let client: RawClient;

  beforeAll(async () => {
    let resolveSession!: (value: Session) => void;
    const ready = new Promise<Session>((resolve) => (resolveSession = resolve));
    const registry = new ActionRegistry().register(collect, async (ctx) => {
      let count = 0;
      for await (const _line of ctx.values('lines')) count++;
      await ctx.write('count', count);
    });
    server = await startWireServer(registry, { limits: LIMITS, onSession: resolveSession });
    client = await rawClient(server.url);
    session = await ready;
  });

  afterAll(async () => {
    client.terminate();
    await server.close();
  });

  it('survives random and mutated frames, keeps its limits, and still answers', async () => {
    const rng = random(SEED);
    let transientId = 1_000_000n;
    for (let frame = 0; frame < FRAMES; frame++) {
      const encoded = encodeWireMessage(sampleMessage(rng, frame));
      const kind = rng.int(10);
      if (kind < 3) {
        client.send(splitIntoPackets(encoded, transientId++)[0]!);
      } else if (kind < 6) {
        client.send(mutate(rng, splitIntoPackets(mutate(rng, encoded), transientId++)[0]!));
      } else if (kind < 8) {
        // A split message, its packets shuffled, sometimes one lost or corrupted.
        const packets = splitIntoPackets(encoded, transientId++, 64 + rng.int(200));
        for (let i = packets.length - 1; i > 0; i--) {
          const j = rng.int(i + 1);
          [packets[i], packets[j]] = [packets[j]!, packets[i]!];
        }
        if (rng.int(3) === 0) packets.splice(rng.int(packets.length), 1);
        if (rng.int(3) === 0 && packets.length > 0) packets[0] = mutate(rng, packets[0]!);
        for (const packet of packets) client.send(packet);
      } else {
        client.send(rng.bytes(rng.int(100)));
      }
      if (frame % 500 === 499) await pingWorks(client, `probe${frame}`);
    }
    await pingWorks(client, 'final-probe');
    expect(session.status).toBeUndefined();
    expect(session.nodeStats.nodes).toBeLessThanOrEqual(LIMITS.maxNodes + 2 * LIMITS.maxServedCalls);
    expect(session.nodeStats.bufferedBytes).toBeLessThanOrEqual(LIMITS.maxBufferedBytes);
    expect(session.servedCalls).toBeLessThanOrEqual(LIMITS.maxServedCalls);
    expect(session.problems.length).toBeGreaterThan(0);
    expect(session.problems.every((problem) => problem.status.code !== StatusCode.INTERNAL)).toBe(true);
  }, 60_000);
});

describe(`fuzzing the decoders directly (seed ${SEED})`, () => {
  it('answers every input with a message or a StatusError, never anything else', () => {
    const rng = random(SEED + 1);
    const reassembler = new PacketReassembler({ maxMessageSize: 1 << 20, maxPendingBytes: 4 << 20 });
    for (let i = 0; i < 20_000; i++) {
      const sample = rng.int(2) ? mutate(rng, encodeWireMessage(sampleMessage(rng, i))) : rng.bytes(rng.int(300));
      for (const attempt of [() => decodeWireMessage(sample), () => parsePacket(sample)]) {
        try {
          attempt();
        } catch (error) {
          expect(error).toBeInstanceOf(StatusError);
        }
      }
      const result = reassembler.feed(sample);
      expect(['message', 'pending', 'rejected']).toContain(result.kind);
    }
    expect(reassembler.pendingBytes).toBeLessThanOrEqual(4 << 20);
  });
});

async function pingWorks(client: RawClient, id: string): Promise<void> {
  client.sendMessage({
    fragments: [{ id: `${id}#input`, payload: { chunk: chunkToRecord(Chunk.text(id)) }, seq: 0, continued: false }],
    actions: [{ id, name: '__ping', inputs: [{ name: 'input', id: `${id}#input` }], outputs: [{ name: 'output', id: `${id}#output` }], headers: new Map() }],
    headers: new Map(),
  });
  expect((await client.waitForFragment(`${id}#output`, (chunk) => !isStatusChunk(chunk), 10_000)).value).toBe(id);
  const status = await client.waitForFragment(`${id}#__status__`, (chunk) => !isCloseMarker(chunk), 10_000);
  expect(statusOfChunk(status).ok).toBe(true);
}
