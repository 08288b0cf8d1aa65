import { encode } from '@msgpack/msgpack';
import { afterEach, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '../../test/support/wire.js';
import { Chunk } from './chunk.js';
import { SESSION_STATUS_HEADER } from './connection.js';
import { concatBytes } from './msgpack-fields.js';
import { startWireServer, type WireServer } from './node-ws.js';
import { splitIntoPackets } from './packets.js';
import { encodeNodeFragment, type ActionMessageRecord, type NodeFragmentRecord } from './records.js';
import { ActionRegistry } from './registry.js';
import { defineAction, port } from './schema.js';
import type { Session, SessionLimits } from './session.js';
import { Status, StatusCode } from './status.js';
import { isCloseMarker, isStatusChunk, statusChunk, statusOfChunk } from './status-chunk.js';
import { packStatus } from './status-codec.js';
import { chunkToRecord } from './wire-chunk.js';

const collect = defineAction({
  name: 'collect',
  description: 'Counts the lines it is given.',
  inputs: { lines: port.text({ stream: true }) },
  outputs: { count: port.json() },
});

const forever = defineAction({ name: 'forever', description: 'Waits until cancelled.', inputs: {}, outputs: { out: port.text({ stream: true }) } });

function registry(): ActionRegistry {
  return new ActionRegistry()
    .register(collect, async (ctx) => {
      let count = 0;
      for await (const _line of ctx.values('lines')) count++;
      await ctx.write('count', count);
    })
    .register(forever, (ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))));
}

let server: WireServer | undefined;
let session: Session | undefined;
let raw: RawClient | undefined;

async function start(limits: Partial<SessionLimits> = {}): Promise<RawClient> {
  let resolveSession!: (value: Session) => void;
  const sessionReady = new Promise<Session>((resolve) => (resolveSession = resolve));
  server = await startWireServer(registry(), { limits, onSession: resolveSession });
  raw = await rawClient(server.url);
  session = await sessionReady;
  return raw;
}

afterEach(async () => {
  raw?.terminate();
  await server?.close();
  server = session = raw = undefined;
});

const text = (value: string) => chunkToRecord(Chunk.text(value));
function fragment(id: string, chunk: Chunk, seq: number | null, continued: boolean): NodeFragmentRecord {
  return { id, payload: { chunk: chunkToRecord(chunk) }, seq, continued };
}
function action(id: string, name: string, inputs: string[], outputs: string[]): ActionMessageRecord {
  return {
    id,
    name,
    inputs: inputs.map((portName) => ({ name: portName, id: `${id}#${portName}` })),
    outputs: outputs.map((portName) => ({ name: portName, id: `${id}#${portName}` })),
    headers: new Map(),
  };
}
const message = (fragments: NodeFragmentRecord[], actions: ActionMessageRecord[] = []) => ({ fragments, actions, headers: new Map() });

/** Pings over the raw client: proof the session still works after whatever came before. */
async function pingStillWorks(client: RawClient, id: string): Promise<void> {
  client.sendMessage(message([fragment(`${id}#input`, Chunk.text('still here'), 0, false)], [action(id, '__ping', ['input'], ['output'])]));
  const reply = await client.waitForFragment(`${id}#output`, (chunk) => !isStatusChunk(chunk));
  expect(reply.value).toBe('still here');
  const status = await client.waitForFragment(`${id}#__status__`, (chunk) => !isCloseMarker(chunk));
  expect(statusOfChunk(status).ok).toBe(true);
}

async function statusOn(client: RawClient, nodeId: string): Promise<Status> {
  return statusOfChunk(await client.waitForFragment(nodeId, (chunk) => isStatusChunk(chunk) && !isCloseMarker(chunk)));
}

describe('malformed transport data', () => {
  it('drops malformed packets and text frames, reports them, and carries on', async () => {
    const client = await start();
    client.send(new Uint8Array([1, 2, 3]));
    client.send(new Uint8Array([...new Uint8Array(20), 0x09]));
    client.send('hello?');
    client.send(concatBytes([new Uint8Array([0xc1, 0xc1]), new Uint8Array(8), new Uint8Array([0])]));
    await pingStillWorks(client, 'p1');
    const messages = session!.problems.map((problem) => problem.status.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/shorter than any packet suffix/),
        expect.stringMatching(/unknown packet kind 0x09/),
        expect.stringMatching(/text frame/),
        expect.stringMatching(/WireMessage is not valid msgpack/),
      ]),
    );
    expect(session!.problems.every((problem) => problem.status.code === StatusCode.INVALID_ARGUMENT)).toBe(true);
  });

  it('refuses an unsupported version', async () => {
    const client = await start();
    const bytes = concatBytes([encode(2), encode([]), encode([]), encode({})]);
    client.send(splitIntoPackets(bytes, 0n)[0]!);
    await pingStillWorks(client, 'p2');
    expect(session!.problems.at(-1)?.status.message).toMatch(/version 2 is not supported/);
  });
});

describe('bad elements end only what they concern', () => {
  it('fails the node of a fragment with an unknown variant, which ends the call reading it', async () => {
    const client = await start();
    client.sendMessage(message([], [action('c1', 'collect', ['lines'], ['count'])]));
    const bad = concatBytes([encode('c1#lines'), encode(5), encode(new Uint8Array(3)), encode(0), encode(true)]);
    client.send(splitIntoPackets(concatBytes([encode(1), encode([bad]), encode([]), encode({})]), 100n)[0]!);
    const status = await statusOn(client, 'c1#__status__');
    expect(status).toMatchObject({ code: StatusCode.INVALID_ARGUMENT, message: expect.stringMatching(/unknown data variant 5/) });
    // The writer on the other side is told its node was refused.
    expect((await statusOn(client, 'c1#lines')).code).toBe(StatusCode.INVALID_ARGUMENT);
    await pingStillWorks(client, 'p3');
  });

  it('refuses a call with a bad name by its id, and one naming an unknown action NOT_FOUND', async () => {
    const client = await start();
    const badName = concatBytes([encode('c2'), encode('not a name!'), encode([]), encode([]), encode({})]);
    client.send(splitIntoPackets(concatBytes([encode(1), encode([]), encode([badName]), encode({})]), 0n)[0]!);
    expect(await statusOn(client, 'c2#__dispatch_status__')).toMatchObject({ code: StatusCode.INVALID_ARGUMENT, message: expect.stringMatching(/Invalid action name/) });
    client.sendMessage(message([], [action('c3', 'no_such_action', [], ['out'])]));
    expect((await statusOn(client, 'c3#__dispatch_status__')).code).toBe(StatusCode.NOT_FOUND);
    expect((await statusOn(client, 'c3#out')).code).toBe(StatusCode.NOT_FOUND);
    expect((await statusOn(client, 'c3#__status__')).code).toBe(StatusCode.NOT_FOUND);
    await pingStillWorks(client, 'p4');
  });

  it('fails a node that gets the same value twice, or a value after its final one', async () => {
    const client = await start();
    client.sendMessage(message([fragment('c4#lines', Chunk.text('a'), 0, true)], [action('c4', 'collect', ['lines'], ['count'])]));
    client.sendMessage(message([fragment('c4#lines', Chunk.text('a again'), 0, true)]));
    expect(await statusOn(client, 'c4#__status__')).toMatchObject({ code: StatusCode.INVALID_ARGUMENT, message: expect.stringMatching(/arrived twice/) });
    // The final value arrives early (held for order), then one claiming to come after it.
    client.sendMessage(message([fragment('c5#lines', Chunk.text('last'), 1, false), fragment('c5#lines', Chunk.text('late'), 2, true)], [action('c5', 'collect', ['lines'], ['count'])]));
    expect((await statusOn(client, 'c5#__status__')).message).toMatch(/after its final value/);
  });

  it('puts out-of-order values back in order', async () => {
    const client = await start();
    client.sendMessage(
      message(
        [
          fragment('c6#lines', Chunk.text('c'), 2, true),
          fragment('c6#lines', Chunk.null(), 3, false),
          fragment('c6#lines', Chunk.text('a'), 0, true),
          fragment('c6#lines', Chunk.text('b'), 1, true),
        ],
        [action('c6', 'collect', ['lines'], ['count'])],
      ),
    );
    expect((await client.waitForFragment('c6#count', (chunk) => !isStatusChunk(chunk))).value).toBe(3);
  });
});

describe('resource limits', () => {
  it('refuses a message over 32 MiB, failing the node it was for', async () => {
    const client = await start();
    const huge = encodeNodeFragment({ id: 'big#in', payload: { chunk: text('x'.repeat(33 * 1024 * 1024)) }, seq: 0, continued: true });
    const bytes = concatBytes([encode(1), encode([huge]), encode([]), encode({})]);
    for (const packet of splitIntoPackets(bytes, 7n)) client.send(packet);
    expect(await statusOn(client, 'big#in')).toMatchObject({ code: StatusCode.RESOURCE_EXHAUSTED, message: expect.stringMatching(/message limit/) });
    expect(session!.problems.at(-1)).toMatchObject({ target: 'big#in' });
    await pingStillWorks(client, 'p5');
  }, 30_000);

  it('fails a node flooded with values nobody reads, and keeps the session’s memory bounded', async () => {
    const client = await start({ maxNodeBufferedBytes: 256 * 1024, maxBufferedBytes: 1024 * 1024 });
    const value = Chunk.text('y'.repeat(8 * 1024));
    for (let seq = 0; seq < 100; seq++) client.sendMessage(message([fragment('flood', value, seq, true)]));
    const status = await statusOn(client, 'flood');
    expect(status).toMatchObject({ code: StatusCode.RESOURCE_EXHAUSTED, message: expect.stringMatching(/nobody has read/) });
    expect(session!.nodeStats.bufferedBytes).toBeLessThanOrEqual(256 * 1024);
    // Spread over many nodes, the session total holds: the largest holders are failed.
    for (let node = 0; node < 12; node++) {
      for (let seq = 0; seq < 15; seq++) client.sendMessage(message([fragment(`spread${node}`, value, seq, true)]));
    }
    await pingStillWorks(client, 'p6');
    expect(session!.nodeStats.bufferedBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(session!.problems.some((problem) => /session's incoming nodes hold more than/.test(problem.status.message))).toBe(true);
  });

  it('refuses nodes beyond the session’s node limit', async () => {
    const client = await start({ maxNodes: 20 });
    for (let node = 0; node < 40; node++) client.sendMessage(message([fragment(`n${node}`, Chunk.text('v'), 0, true)]));
    expect((await statusOn(client, 'n39')).code).toBe(StatusCode.RESOURCE_EXHAUSTED);
    expect(session!.nodeStats.nodes).toBeLessThanOrEqual(20);
    // Ended, fully read nodes make room again.
    const reader = session!.node('n0').reader();
    expect((await reader.next())?.value).toBe('v');
  });

  it('refuses calls beyond the concurrency limit', async () => {
    const client = await start({ maxServedCalls: 2 });
    for (const id of ['f1', 'f2', 'f3']) client.sendMessage(message([], [action(id, 'forever', [], ['out'])]));
    expect(await statusOn(client, 'f3#__dispatch_status__')).toMatchObject({ code: StatusCode.RESOURCE_EXHAUSTED });
    expect(session!.servedCalls).toBe(2);
  });
});

describe('a peer that vanishes', () => {
  it('cancels the calls it made with UNAVAILABLE', async () => {
    const client = await start();
    client.sendMessage(message([], [action('v1', 'forever', [], ['out']), action('v2', 'collect', ['lines'], ['count'])]));
    await statusOn(client, 'v2#__dispatch_status__');
    expect(session!.servedCalls).toBe(2);
    client.terminate();
    expect(await session!.ended()).toMatchObject({ code: StatusCode.UNAVAILABLE });
    const deadline = Date.now() + 5000;
    while (session!.servedCalls > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(session!.servedCalls).toBe(0);
  });

  it('finishes the calls a peer made before it ended its side, then ends its own', async () => {
    const client = await start();
    client.sendMessage(message([fragment('e1#input', Chunk.text('last words'), 0, false)], [action('e1', '__ping', ['input'], ['output'])]));
    client.sendMessage({ fragments: [], actions: [], headers: new Map([[SESSION_STATUS_HEADER, packStatus(Status.OK)]]) });
    expect((await client.waitForFragment('e1#output', (chunk) => !isStatusChunk(chunk))).value).toBe('last words');
    expect((await statusOn(client, 'e1#__status__')).ok).toBe(true);
    expect(await client.closed).toMatchObject({ code: 1000 });
    expect(await session!.ended()).toEqual(Status.OK);
  });

  it('treats a status chunk written to a node by the peer as that node’s abort', async () => {
    const client = await start();
    client.sendMessage(message([], [action('a1', 'collect', ['lines'], ['count'])]));
    client.sendMessage(message([fragment('a1#lines', statusChunk(new Status(StatusCode.ABORTED, 'writer gave up')), 0, false)]));
    expect(await statusOn(client, 'a1#__status__')).toMatchObject({ code: StatusCode.ABORTED, message: 'writer gave up' });
  });
});
