import { describe, expect, it } from 'vitest';
import { Chunk } from './chunk.js';
import { StreamNode } from './node.js';
import { Status, StatusCode, StatusError } from './status.js';

const text = (value: string) => Chunk.text(value);
const texts = (chunks: Chunk[]) => chunks.map((chunk) => chunk.value);

describe('StreamNode', () => {
  it('gives every reader every value (fan-out)', async () => {
    const node = new StreamNode();
    const a = node.reader();
    const b = node.reader();
    const writing = (async () => {
      for (const word of ['one', 'two', 'three']) await node.put(text(word));
      node.close();
    })();
    const [seenA, seenB] = await Promise.all([collect(a), collect(b)]);
    await writing;
    expect(seenA).toEqual(['one', 'two', 'three']);
    expect(seenB).toEqual(['one', 'two', 'three']);
  });

  it('hands over what is already written without waiting (poll)', async () => {
    const node = new StreamNode({ capacity: 8 });
    const reader = node.reader();
    expect(reader.poll(4)).toEqual([]);
    for (const word of ['a', 'b', 'c']) await node.put(text(word));
    expect(texts(reader.poll(2)!)).toEqual(['a', 'b']);
    expect(texts(reader.poll(5)!)).toEqual(['c']);
    node.abort(new Status(StatusCode.UNAVAILABLE, 'gone'));
    expect(() => reader.poll(1)).toThrow(/gone/);
    const ended = new StreamNode();
    const late = ended.reader();
    await ended.finalize(text('last'));
    expect(texts(late.poll(3)!)).toEqual(['last']);
    expect(late.poll(3)).toBeUndefined();
  });

  it('keeps values written before the first reader joins', async () => {
    const node = new StreamNode({ capacity: 4 });
    await node.put(text('early'));
    await node.finalize(text('last'));
    expect(texts(await node.collect())).toEqual(['early', 'last']);
  });

  it('makes a writer wait while the slowest reader is `capacity` values behind', async () => {
    const node = new StreamNode({ capacity: 2 });
    const slow = node.reader();
    let written = 0;
    const writer = (async () => {
      for (let i = 0; i < 10; i++) {
        await node.put(text(String(i)));
        written++;
      }
      node.close();
    })();
    await settle();
    expect(written).toBe(2);
    expect(node.backlog).toBe(2);
    await slow.next();
    await settle();
    expect(written).toBe(3);
    const rest = await collect(slow);
    await writer;
    expect(rest).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('drains once every reader has left, so the writer never stalls', async () => {
    const node = new StreamNode({ capacity: 1 });
    const reader = node.reader();
    await node.put(text('read'));
    expect((await reader.next())?.value).toBe('read');
    reader.release();
    for (let i = 0; i < 100; i++) await node.put(text(String(i)));
    expect(node.backlog).toBe(0);
    expect(node.written).toBe(101);
  });

  it('keeps memory flat on a long stream with a steady reader', async () => {
    const node = new StreamNode();
    const reader = node.reader();
    const writer = (async () => {
      for (let i = 0; i < 100_000; i++) await node.put(Chunk.fromValue('application/json', i));
      node.close();
    })();
    let sum = 0;
    let maxBacklog = 0;
    for await (const chunk of reader) {
      sum += chunk.value as number;
      maxBacklog = Math.max(maxBacklog, node.backlog);
    }
    await writer;
    expect(sum).toBe((100_000 * 99_999) / 2);
    expect(maxBacklog).toBeLessThanOrEqual(node.capacity);
  });

  it('ends readers with the abort status after what was written', async () => {
    const node = new StreamNode();
    const reader = node.reader();
    await node.put(text('kept'));
    node.abort(new Status(StatusCode.NOT_FOUND, 'gone'));
    expect((await reader.next())?.value).toBe('kept');
    await expect(reader.next()).rejects.toMatchObject({ status: { code: StatusCode.NOT_FOUND } });
    expect(node.status?.code).toBe(StatusCode.NOT_FOUND);
  });

  it('refuses writes after the end, saying why', async () => {
    const node = new StreamNode({ id: 'call#out' });
    await node.finalize(text('done'));
    await expect(node.put(text('late'))).rejects.toThrow(StatusError);
    await expect(node.put(text('late'))).rejects.toThrow("Cannot write to node 'call#out': it already ended.");
  });

  it('releases a writer blocked on a full node when the node is closed', async () => {
    const node = new StreamNode({ capacity: 1 });
    node.reader();
    await node.put(text('fills it'));
    const blocked = node.put(text('waits'));
    node.abort(new Status(StatusCode.CANCELLED, 'run cancelled'));
    await expect(blocked).rejects.toThrow(/run cancelled/);
  });

  it('tells observers every value and the end without slowing the writer', async () => {
    const node = new StreamNode({ capacity: 1 });
    const seen: [unknown, number][] = [];
    let end: Status | undefined;
    node.observe({ value: (chunk, seq) => seen.push([chunk.value, seq]), end: (status) => (end = status) });
    const reader = node.reader();
    const writer = (async () => {
      await node.put(text('a'));
      await node.finalize(text('b'));
    })();
    expect(await collect(reader)).toEqual(['a', 'b']);
    await writer;
    expect(seen).toEqual([['a', 0], ['b', 1]]);
    expect(end?.ok).toBe(true);
  });

  it('resolves closed() with the closing status', async () => {
    const node = new StreamNode();
    const closed = node.closed();
    node.close();
    expect((await closed).ok).toBe(true);
  });
});

async function collect(reader: AsyncIterable<Chunk>): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const chunk of reader) values.push(chunk.value);
  return values;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
