import { describe, expect, it } from 'vitest';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import type { Item } from '../values/chunks.js';
import { ReplayBuffer } from './buffer.js';
import { Bus } from './bus.js';
import { LazyValue } from './lazy.js';
import { Condition, Monitor, orStop, sleep } from './monitor.js';
import { isPromise, QUEUE_DEPTH, type Reader } from './reader.js';

async function readAll(reader: Reader): Promise<Item[]> {
  const items: Item[] = [];
  for (;;) {
    let batch = reader.read(3);
    if (isPromise(batch)) batch = await batch;
    if (batch === null) return items;
    items.push(...batch);
  }
}

function counting(count: number, written: { value: number }) {
  return async (sink: { write(items: readonly Item[]): void | Promise<void> }) => {
    for (let at = 0; at < count; at++) {
      await sink.write([at]);
      written.value = at + 1;
    }
  };
}

describe('a bus', () => {
  it('gives every reader every value, however late it starts reading', async () => {
    const bus = new Bus(new Monitor(), 'n', 2);
    const first = bus.take();
    const second = bus.take();
    const pumped = bus.pump(counting(5, { value: 0 }));
    expect(await readAll(first)).toEqual([0, 1, 2, 3, 4]);
    expect(await readAll(second)).toEqual([0, 1, 2, 3, 4]);
    await pumped;
  });

  it('refuses a reader the plan did not account for', () => {
    const bus = new Bus(new Monitor(), 'words', 1);
    bus.take();
    expect(() => bus.take()).toThrow(/words has more readers than the plan accounted for/);
  });

  it('does not produce until something reads', async () => {
    const bus = new Bus(new Monitor(), 'n', 1);
    const written = { value: 0 };
    void bus.pump(counting(3, written));
    await sleep(new Monitor(), 10);
    expect(written.value).toBe(0);
    expect(await readAll(bus.take())).toEqual([0, 1, 2]);
  });

  it('holds the producer within the queue depth of its slowest reader', async () => {
    const bus = new Bus(new Monitor(), 'n', 2);
    const fast = bus.take();
    const slow = bus.take();
    const written = { value: 0 };
    void bus.pump(counting(100, written));
    const fastRead = readAll(fast);
    await sleep(new Monitor(), 20);
    expect(written.value).toBe(QUEUE_DEPTH);
    slow.read(1);
    await sleep(new Monitor(), 5);
    expect(written.value).toBe(QUEUE_DEPTH + 1);
    slow.stop();
    expect(await fastRead).toHaveLength(100);
    expect(written.value).toBe(100);
  });

  it('lets a stream nobody wants any more drain', async () => {
    const bus = new Bus(new Monitor(), 'n', 1);
    const reader = bus.take();
    const written = { value: 0 };
    const pumped = bus.pump(counting(1000, written));
    const batch = reader.read(1);
    expect(isPromise(batch) ? await batch : batch).toEqual([0]);
    reader.stop();
    await pumped;
    expect(written.value).toBe(1000);
  });

  it('releases slots nobody took when their body is over', async () => {
    const bus = new Bus(new Monitor(), 'n', 2);
    const reader = bus.take();
    const written = { value: 0 };
    const pumped = bus.pump(counting(50, written));
    const read = readAll(reader);
    await sleep(new Monitor(), 10);
    expect(written.value).toBeLessThan(50);
    bus.releaseUntaken();
    await pumped;
    expect(await read).toHaveLength(50);
  });

  it('hands the producer’s failure to every reader after what was written', async () => {
    const bus = new Bus(new Monitor(), 'n', 2);
    const one = bus.take();
    const two = bus.take();
    void bus.pump(async (sink) => {
      await sink.write(['a']);
      throw new StatusError(StatusCode.UNAVAILABLE, 'gone');
    });
    for (const reader of [one, two]) {
      const first = reader.read(5);
      expect(isPromise(first) ? await first : first).toEqual(['a']);
      await expect(Promise.resolve().then(() => reader.read(5))).rejects.toThrow(/gone/);
    }
  });

  it('ends every wait when the run stops', async () => {
    const monitor = new Monitor();
    const bus = new Bus(monitor, 'n', 1);
    const reader = bus.take();
    void bus.pump(async () => new Promise(() => {}));
    const waiting = reader.read(1);
    monitor.stop(new Status(StatusCode.DEADLINE_EXCEEDED, 'too late'));
    await expect(waiting).rejects.toThrow(/too late/);
    await expect(new Condition(monitor).wait()).rejects.toThrow(/too late/);
    await expect(sleep(monitor, 10_000)).rejects.toThrow(/too late/);
  });
});

describe('a replay buffer', () => {
  it('replays the whole stream to each reader, as it grows', async () => {
    const monitor = new Monitor();
    const bus = new Bus(monitor, 'n', 1);
    const buffer = new ReplayBuffer(monitor, bus.take());
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    void bus.pump(async (sink) => {
      await sink.write(['a']);
      await gate;
      await sink.write(['b']);
    });
    void buffer.fill();
    const early = buffer.replay(monitor);
    const first = early.read(5);
    expect(isPromise(first) ? await first : first).toEqual(['a']);
    release();
    expect(await readAll(early)).toEqual(['b']);
    expect(await readAll(buffer.replay(monitor))).toEqual(['a', 'b']);
  });
});

describe('a lazy value', () => {
  it('is computed once, however many ask', async () => {
    let made = 0;
    const lazy = new LazyValue(async () => ++made);
    expect(await readAll(await lazy.replay())).toEqual([1]);
    expect(await readAll(await lazy.replay())).toEqual([1]);
    expect(made).toBe(1);
  });
});

describe('orStop', () => {
  it('on a monitor already stopped rejects with the stop, and observes the promise so its later failure is not unhandled', async () => {
    const monitor = new Monitor();
    monitor.stop(new Status(StatusCode.CANCELLED, 'stopped first'));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let fail!: (error: Error) => void;
      const put = new Promise<void>((_, reject) => (fail = reject));
      await expect(orStop(monitor, put)).rejects.toThrow('stopped first');
      fail(new StatusError(StatusCode.FAILED_PRECONDITION, 'Cannot write to node: it failed'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
