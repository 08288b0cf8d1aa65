import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sessionPair, type SessionPair } from '../../test/support/wire.js';
import { AUDIO_BUFFER_MIMETYPE, type AudioBuffer } from './audio-buffer.js';
import { WebSocket } from 'ws';
import { Chunk } from './chunk.js';
import { connectSession as connectBrowserStyle } from './connect.js';
import { deadlineHeaderValue } from './deadline.js';
import { readLogChunk } from './log.js';
import { ActionRegistry } from './registry.js';
import { defineAction, port } from './schema.js';
import { Status, StatusCode, StatusError, fail } from './status.js';
import type { WebSocketConstructor } from './websocket.js';

const upper = defineAction({
  name: 'text_upper',
  description: 'Upper-cases each line as it arrives.',
  inputs: { lines: port.text({ stream: true, required: true }) },
  outputs: { upper: port.text({ stream: true }), count: port.json(z.number()) },
});

const explode = defineAction({
  name: 'explode',
  description: 'Writes one value, then fails.',
  inputs: {},
  outputs: { partial: port.text({ stream: true }), never: port.json() },
});

const forever = defineAction({
  name: 'forever',
  description: 'Ticks until stopped.',
  inputs: {},
  outputs: { ticks: port.json(z.number(), { stream: true }) },
});

const headersSeen = defineAction({
  name: 'headers_seen',
  description: 'Reports the headers it was called with.',
  inputs: {},
  outputs: { headers: port.json() },
});

const nested = defineAction({
  name: 'nested',
  description: 'Calls headers_seen and passes on what it saw.',
  inputs: {},
  outputs: { inner: port.json() },
});

const peerGreeting = defineAction({
  name: 'peer_greeting',
  description: 'Served by the client: greets whoever is named.',
  inputs: { name: port.text({ required: true }) },
  outputs: { greeting: port.text() },
});

const askPeer = defineAction({
  name: 'ask_peer',
  description: 'Served by the server: asks the client to greet someone.',
  inputs: { name: port.text({ required: true }) },
  outputs: { answer: port.text() },
});

const nodeRelay = defineAction({
  name: 'node_relay',
  description: 'Reads the node the caller named and republishes it, doubled, under <id>-flow#out.',
  inputs: { node: port.text({ required: true }) },
  outputs: {},
});

const audioGain = defineAction({
  name: 'audio_gain',
  description: 'Doubles every sample.',
  inputs: { audio: port.msgpack('a11.sdk.AudioBuffer', { stream: true }) },
  outputs: { louder: port.msgpack('a11.sdk.AudioBuffer', { stream: true }) },
});

let ticksStopped = 0;

function serverRegistry(): ActionRegistry {
  return new ActionRegistry()
    .register(upper, async (ctx) => {
      let count = 0;
      for await (const line of ctx.values('lines')) {
        await ctx.write('upper', String(line).toUpperCase());
        count++;
      }
      ctx.log(`upper-cased ${count} lines`, 'info', { channel: 'test' });
      await ctx.output('count').finalize(Chunk.json(count));
    })
    .register(explode, async (ctx) => {
      await ctx.write('partial', 'before the blast');
      fail('DATA_LOSS', 'the disk caught fire');
    })
    .register(forever, async (ctx) => {
      try {
        for (let i = 0; !ctx.signal.aborted; i++) {
          await ctx.write('ticks', i);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      } finally {
        ticksStopped++;
      }
    })
    .register(headersSeen, async (ctx) => {
      await ctx.write('headers', Object.fromEntries(ctx.headers));
    })
    .register(nested, async (ctx) => {
      const call = ctx.dispatcher.invoke(headersSeen, { headers: new Map([['x-a11-shell-id', 'inner-shell']]) });
      const [seen] = await call.output('headers').collect();
      (await call.done).throwIfError();
      await ctx.write('inner', seen!.value);
    })
    .register(peerGreeting) // served by the client: schema only here
    .register(askPeer, async (ctx) => {
      const call = ctx.dispatcher.invoke(peerGreeting);
      await call.input('name').finalize(Chunk.text(String(await ctx.value('name'))));
      const [greeting] = await call.output('greeting').collect();
      (await call.done).throwIfError();
      await ctx.write('answer', `the client said: ${greeting!.value as string}`);
    })
    .register(nodeRelay, async (ctx) => {
      const source = ctx.origin!.node(String(await ctx.value('node')));
      const target = ctx.origin!.publish(`${ctx.id}-flow#out`);
      for await (const chunk of source.reader()) await target.put(Chunk.text(`${chunk.value as string}${chunk.value as string}`));
      target.close();
    })
    .register(audioGain, async (ctx) => {
      for await (const value of ctx.values('audio')) {
        const buffer = value as AudioBuffer;
        await ctx.write('louder', { ...buffer, samples: buffer.samples.map((sample) => sample * 2) });
      }
    });
}

let pair: SessionPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

async function values(node: { reader(): AsyncIterable<Chunk> }): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const chunk of node.reader()) seen.push(chunk.value);
  return seen;
}

describe('built-ins', () => {
  it('answers __ping, __list_actions__ (with its filters) and __get_schema__', async () => {
    pair = await sessionPair(serverRegistry());
    const { client } = pair;
    expect(await client.ping('are you there?')).toBe('are you there?');
    const all = await client.listActions();
    expect(all.format).toBe('a11.actions/v1');
    expect(all.actions.map((entry) => entry.name)).toEqual([
      'ask_peer', 'audio_gain', 'explode', 'forever', 'headers_seen', 'nested', 'node_relay', 'peer_greeting', 'text_upper',
    ]);
    expect(all.actions.find((entry) => entry.name === 'peer_greeting')!.runnable).toBe(false);
    expect((await client.listActions({ names: ['text_.*', 'for.*'] })).actions.map((e) => e.name)).toEqual(['forever', 'text_upper']);
    expect((await client.listActions(['ex.*'])).actions.map((e) => e.name)).toEqual(['explode']);
    expect((await client.listActions({ exact: ['__ping', 'nested'] })).actions.map((e) => e.name)).toEqual(['__ping', 'nested']);
    const reserved = await client.listActions({ include_reserved: true, runnable_only: true });
    expect(reserved.actions.map((e) => e.name)).toContain('__list_actions__');
    expect(reserved.actions.map((e) => e.name)).not.toContain('peer_greeting');
    const schema = await client.describe('text_upper');
    expect(schema.inputs).toMatchObject([{ name: 'lines', type: 'text/plain', unary: false, required: true }]);
    expect(schema.outputs.map((p) => p.name)).toEqual(['count', 'upper']);
  });

  it('refuses a bad pattern and an unknown name with clear statuses', async () => {
    pair = await sessionPair(serverRegistry());
    await expect(pair.client.listActions({ names: ['('] })).rejects.toMatchObject({ code: StatusCode.INVALID_ARGUMENT, message: expect.stringMatching(/not a valid name pattern/) });
    await expect(pair.client.describe('no_such_action')).rejects.toMatchObject({ code: StatusCode.NOT_FOUND });
  });
});

describe('calls to the peer', () => {
  it('streams inputs and outputs while the call runs, then narrates and ends OK', async () => {
    pair = await sessionPair(serverRegistry());
    const call = pair.client.invoke(upper);
    const lines = call.input('lines');
    const upperReader = call.output('upper').reader();
    await lines.put(Chunk.text('one'));
    // The first output arrives while the input is still open.
    expect((await upperReader.next())?.value).toBe('ONE');
    await lines.put(Chunk.text('two'));
    lines.close();
    expect((await upperReader.next())?.value).toBe('TWO');
    expect(await upperReader.next()).toBeUndefined();
    expect(await values(call.output('count'))).toEqual([2]);
    const [record] = (await call.log.collect()).map(readLogChunk);
    expect(record).toMatchObject({ level: 'info', message: 'upper-cased 2 lines', channel: 'test', internal: false });
    expect((await call.done).ok).toBe(true);
    expect(await call.dispatched).toEqual(Status.OK);
  });

  it('fails every output and the log with the handler failure, after what was already written', async () => {
    pair = await sessionPair(serverRegistry());
    const call = pair.client.invoke(explode);
    const partial = call.output('partial').reader();
    expect((await partial.next())?.value).toBe('before the blast');
    await expect(partial.next()).rejects.toMatchObject({ code: StatusCode.DATA_LOSS });
    await expect(call.output('never').collect()).rejects.toMatchObject({ status: { code: StatusCode.DATA_LOSS, message: 'the disk caught fire' } });
    await expect(call.log.collect()).rejects.toMatchObject({ code: StatusCode.DATA_LOSS });
    expect(await call.done).toMatchObject({ code: StatusCode.DATA_LOSS, message: 'the disk caught fire' });
  });

  it('ends NOT_FOUND for an unknown action and FAILED_PRECONDITION for a schema-only one', async () => {
    pair = await sessionPair(serverRegistry());
    const missing = pair.client.invoke(defineAction({ name: 'nope', description: '', outputs: { out: port.text() } }));
    expect(await missing.done).toMatchObject({ code: StatusCode.NOT_FOUND });
    expect(await missing.dispatched).toMatchObject({ code: StatusCode.NOT_FOUND });
    await expect(missing.output('out').collect()).rejects.toMatchObject({ code: StatusCode.NOT_FOUND });
    const schemaOnly = pair.client.invoke(peerGreeting);
    expect(await schemaOnly.done).toMatchObject({ code: StatusCode.FAILED_PRECONDITION, message: expect.stringMatching(/other side/) });
  });

  it('refuses a call naming a port the action does not have', async () => {
    pair = await sessionPair(serverRegistry());
    const wrong = defineAction({ name: 'text_upper', description: '', inputs: { lines: port.text({ stream: true }), extra: port.text() }, outputs: {} });
    const call = pair.client.invoke(wrong);
    expect(await call.done).toMatchObject({ code: StatusCode.FAILED_PRECONDITION, message: expect.stringMatching(/no input port 'extra'/) });
  });

  it('cancels: the call ends CANCELLED here and the handler stops there', async () => {
    pair = await sessionPair(serverRegistry());
    const stoppedBefore = ticksStopped;
    const call = pair.client.invoke(forever);
    const ticks = call.output('ticks').reader();
    expect((await ticks.next())?.value).toBe(0);
    call.cancel();
    expect(await call.done).toMatchObject({ code: StatusCode.CANCELLED });
    await expect(async () => {
      while (await ticks.next());
    }).rejects.toMatchObject({ code: StatusCode.CANCELLED });
    await waitFor(() => ticksStopped > stoppedBefore && pair!.served.servedCalls === 0);
  });

  it('enforces x-a11-deadline, and refuses a malformed one', async () => {
    pair = await sessionPair(serverRegistry());
    const late = pair.client.invoke(forever, { headers: new Map([['x-a11-deadline', deadlineHeaderValue(Date.now() + 80)]]) });
    expect(await late.done).toMatchObject({ code: StatusCode.DEADLINE_EXCEEDED });
    await waitFor(() => pair!.served.servedCalls === 0);
    const malformed = pair.client.invoke(forever, { headers: new Map([['x-a11-deadline', 'tomorrow']]) });
    expect(await malformed.done).toMatchObject({ code: StatusCode.INVALID_ARGUMENT, message: expect.stringMatching(/x-a11-deadline/) });
  });

  it('passes x-a11-* headers on to nested calls, and only those', async () => {
    pair = await sessionPair(serverRegistry());
    const call = pair.client.invoke(nested, {
      headers: new Map([
        ['x-a11-llm-model', 'tiny'],
        ['x-a11-shell-id', 'outer-shell'],
        ['authorization', 'secret'],
      ]),
    });
    const [inner] = await values(call.output('inner'));
    expect(inner).toEqual({ 'x-a11-llm-model': 'tiny', 'x-a11-shell-id': 'inner-shell' });
    expect((await call.done).ok).toBe(true);
  });

  it('carries AudioBuffers both ways', async () => {
    pair = await sessionPair(serverRegistry());
    const call = pair.client.invoke(audioGain);
    const buffer: AudioBuffer = { samples: new Float32Array([0.25, -0.5]), channels: 1, frames: 2, sampleRate: 48000, endTime: 1_764_000_000_000_000_001n };
    await call.input('audio').finalize(Chunk.fromValue(AUDIO_BUFFER_MIMETYPE, buffer));
    const [doubled] = (await values(call.output('louder'))) as AudioBuffer[];
    expect([...doubled!.samples]).toEqual([0.5, -1]);
    expect(doubled).toMatchObject({ channels: 1, frames: 2, sampleRate: 48000, endTime: 1_764_000_000_000_000_001n });
  });

  it('moves a value larger than a packet, and refuses one over 32 MiB on the writer’s side only', async () => {
    pair = await sessionPair(serverRegistry());
    const big = 'x'.repeat(1_000_000);
    const call = pair.client.invoke(upper);
    await call.input('lines').put(Chunk.text(big));
    call.input('lines').close();
    const [result] = await values(call.output('upper'));
    expect((result as string).length).toBe(1_000_000);
    const huge = pair.client.invoke(upper);
    const input = huge.input('lines');
    await input.put(Chunk.bytes(new Uint8Array(33 * 1024 * 1024)));
    await waitFor(() => input.isClosed);
    expect(input.status).toMatchObject({ code: StatusCode.RESOURCE_EXHAUSTED, message: expect.stringMatching(/32 MiB/) });
    // The peer learns the input failed, so the call ends with the same reason.
    expect(await huge.done).toMatchObject({ code: StatusCode.RESOURCE_EXHAUSTED });
    expect(await pair.client.ping('still fine')).toBe('still fine');
  });
});

describe('calls from the peer, and nodes by id', () => {
  it('answers a call the server makes back to the client from the client’s registry', async () => {
    const clientRegistry = new ActionRegistry().register(peerGreeting, async (ctx) => {
      await ctx.write('greeting', `hello, ${String(await ctx.value('name'))}`);
    });
    pair = await sessionPair(serverRegistry(), { client: { registry: clientRegistry } });
    const call = pair.client.invoke(askPeer);
    await call.input('name').finalize(Chunk.text('Ada'));
    expect(await values(call.output('answer'))).toEqual(['the client said: hello, Ada']);
    expect((await call.done).ok).toBe(true);
  });

  it('lets a handler read a node the client wrote by id and publish one the client reads by id', async () => {
    pair = await sessionPair(serverRegistry());
    const history = pair.client.publish('history');
    await history.put(Chunk.text('a'));
    await history.put(Chunk.text('b'));
    history.close();
    const call = pair.client.invoke(nodeRelay, { id: 'relay1' });
    await call.input('node').finalize(Chunk.text('history'));
    expect(await values(pair.client.node('relay1-flow#out'))).toEqual(['aa', 'bb']);
    expect((await call.done).ok).toBe(true);
  });
});

describe('ending a session', () => {
  it('closes cleanly on both sides', async () => {
    pair = await sessionPair(serverRegistry());
    expect(await pair.client.ping()).toBe('ping');
    expect(await pair.client.close()).toEqual(Status.OK);
    expect(await pair.served.ended()).toEqual(Status.OK);
  });

  it('cancels what is still running when closing takes too long', async () => {
    pair = await sessionPair(serverRegistry());
    const call = pair.client.invoke(forever);
    await call.output('ticks').reader().next();
    expect(await pair.client.close({ timeoutMs: 50 })).toEqual(Status.OK);
    expect(await call.done).toMatchObject({ code: StatusCode.CANCELLED });
    await waitFor(() => pair!.served.servedCalls === 0);
  });

  it('works over a browser-style WebSocket that delivers ArrayBuffers', async () => {
    pair = await sessionPair(serverRegistry());
    class BrowserLikeWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        this.binaryType = 'arraybuffer';
      }
    }
    const browser = await connectBrowserStyle(pair.server.url, { WebSocket: BrowserLikeWebSocket as unknown as WebSocketConstructor });
    expect(await browser.ping('from a browser')).toBe('from a browser');
    const call = browser.invoke(upper);
    await call.input('lines').finalize(Chunk.text('x'.repeat(200_000)));
    expect(((await values(call.output('upper')))[0] as string).length).toBe(200_000);
    expect((await browser.close()).ok).toBe(true);
  });

  it('ends every pending call and open node UNAVAILABLE when the peer vanishes', async () => {
    pair = await sessionPair(serverRegistry());
    const call = pair.client.invoke(forever);
    const ticks = call.output('ticks').reader();
    await ticks.next();
    const orphan = pair.client.node('never-written');
    pair.vanish();
    expect(await call.done).toMatchObject({ code: StatusCode.UNAVAILABLE });
    await expect(async () => {
      while (await ticks.next());
    }).rejects.toMatchObject({ code: StatusCode.UNAVAILABLE });
    await expect(orphan.collect()).rejects.toMatchObject({ code: StatusCode.UNAVAILABLE });
    expect(await pair.client.ended()).toMatchObject({ code: StatusCode.UNAVAILABLE });
    expect(await pair.served.ended()).toMatchObject({ code: StatusCode.UNAVAILABLE });
    await waitFor(() => pair!.served.servedCalls === 0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new StatusError(StatusCode.DEADLINE_EXCEEDED, 'condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
