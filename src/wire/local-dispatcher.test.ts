import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Chunk } from './chunk.js';
import { readLogChunk } from './log.js';
import { LocalDispatcher } from './local-dispatcher.js';
import { ActionRegistry } from './registry.js';
import { defineAction, port } from './schema.js';
import { StatusCode, fail } from './status.js';

const upper = defineAction({
  name: 'text_upper',
  description: 'Upper-cases each line it is given.',
  inputs: { lines: port.text({ stream: true, required: true }) },
  outputs: { upper: port.text({ stream: true }), count: port.json(z.number()) },
});

const repeat = defineAction({
  name: 'repeat',
  description: 'Writes a word n times.',
  inputs: { options: port.json(z.object({ word: z.string(), times: z.number().int().min(0) }), { required: true }) },
  outputs: { words: port.text({ stream: true }) },
});

const forever = defineAction({
  name: 'forever',
  description: 'Counts until stopped.',
  inputs: { unused: port.text() },
  outputs: { ticks: port.json(z.number(), { stream: true }) },
});

function registry(): ActionRegistry {
  return new ActionRegistry()
    .register(upper, async (ctx) => {
      let count = 0;
      for await (const line of ctx.values('lines')) {
        await ctx.write('upper', String(line).toUpperCase());
        count++;
      }
      ctx.log(`upper-cased ${count} lines`);
      await ctx.write('count', count);
    })
    .register(repeat, async (ctx) => {
      const { word, times } = (await ctx.value('options')) as { word: string; times: number };
      if (word === 'boom') fail('DATA_LOSS', 'the word exploded');
      for (let i = 0; i < times; i++) await ctx.write('words', word);
    })
    .register(forever, async (ctx) => {
      for (let i = 0; !ctx.signal.aborted; i++) {
        await ctx.write('ticks', i);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
}

async function values(node: { reader(): AsyncIterable<Chunk> }): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const chunk of node.reader()) seen.push(chunk.value);
  return seen;
}

describe('LocalDispatcher', () => {
  it('streams inputs through a handler to its outputs and closes them', async () => {
    const call = new LocalDispatcher(registry()).invoke(upper);
    const outputs = Promise.all([values(call.output('upper')), values(call.output('count'))]);
    for (const line of ['a', 'b', 'c']) await call.input('lines').put(Chunk.text(line));
    call.input('lines').close();
    expect(await outputs).toEqual([['A', 'B', 'C'], [3]]);
    expect((await call.done).ok).toBe(true);
    const log = (await call.log.collect()).map(readLogChunk);
    expect(log.map((record) => [record.level, record.message])).toEqual([['info', 'upper-cased 3 lines']]);
  });

  it('ends with the handler status and aborts the outputs with it', async () => {
    const call = new LocalDispatcher(registry()).invoke(repeat);
    const words = call.output('words').reader();
    await call.input('options').finalize(Chunk.json({ word: 'boom', times: 2 }));
    const status = await call.done;
    expect(status.code).toBe(StatusCode.DATA_LOSS);
    await expect(words.next()).rejects.toMatchObject({ status: { code: StatusCode.DATA_LOSS } });
  });

  it('validates inputs against their declared schema', async () => {
    const call = new LocalDispatcher(registry()).invoke(repeat);
    await call.input('options').finalize(Chunk.json({ word: 'hi', times: -1 }));
    const status = await call.done;
    expect(status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(status.message).toContain("Input 'options' of 'repeat' is invalid: times:");
  });

  it('stops a handler on cancel and reports CANCELLED', async () => {
    const call = new LocalDispatcher(registry()).invoke(forever);
    const ticks = call.output('ticks').reader();
    await ticks.next();
    call.cancel();
    expect((await call.done).code).toBe(StatusCode.CANCELLED);
  });

  it('cancels at the x-a11-deadline', async () => {
    const headers = new Map([['x-a11-deadline', String(Date.now() + 30)]]);
    const call = new LocalDispatcher(registry()).invoke(forever, { headers });
    call.output('ticks').reader().release();
    const status = await call.done;
    expect(status.code).toBe(StatusCode.DEADLINE_EXCEEDED);
  });

  it('drains inputs the handler never read, so their writer finishes', async () => {
    const ignoring = defineAction({ name: 'ignoring', description: 'Reads nothing.', inputs: { lines: port.text({ stream: true }) } });
    const call = new LocalDispatcher(new ActionRegistry().register(ignoring, async () => {})).invoke(ignoring);
    expect((await call.done).ok).toBe(true);
    for (let i = 0; i < 50; i++) await call.input('lines').put(Chunk.text('ignored'));
    expect(call.input('lines').backlog).toBe(0);
  });

  it('fails the caller\'s further writes once the call is cancelled', async () => {
    const call = new LocalDispatcher(registry()).invoke(forever);
    call.output('ticks').reader().release();
    call.cancel();
    await call.done;
    await expect(call.input('unused').put(Chunk.text('late'))).rejects.toThrow(/cancelled/);
  });

  it('refuses to run a schema-only registration, advising call', async () => {
    const schemaOnly = new ActionRegistry().register(upper);
    const status = await new LocalDispatcher(schemaOnly).invoke(upper).done;
    expect(status.code).toBe(StatusCode.FAILED_PRECONDITION);
    expect(status.message).toContain("Say 'call text_upper(…)'");
  });

  it('reports NOT_FOUND for an action nobody registered', async () => {
    const status = await new LocalDispatcher(new ActionRegistry()).invoke(upper).done;
    expect(status.code).toBe(StatusCode.NOT_FOUND);
  });

  it('rejects a port the schema does not declare, listing the real ones', () => {
    const call = new LocalDispatcher(registry()).invoke(upper);
    expect(() => call.input('line')).toThrow("Action 'text_upper' has no input port 'line' (its inputs: lines).");
    call.cancel();
  });
});
