/**
 * A stream read once and replayed to every reader: what a loop or a branch reads of a stream from
 * outside it. Every pass sees the same values from the first, and a pass waits for the value it is
 * up to rather than for the whole stream, so a loop reading a stream that is still open is not
 * held up by it. The buffer keeps the stream for as long as the body that owns it runs — the one
 * place the language trades streaming for repeatability.
 */
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { Item } from '../values/chunks.js';
import { asStatusError } from './bus.js';
import { Condition, type Monitor } from './monitor.js';
import { isPromise, QUEUE_DEPTH, type Maybe, type Reader } from './reader.js';

export class ReplayBuffer {
  readonly #items: Item[] = [];
  #ended = false;
  #error: StatusError | undefined;
  readonly #grew: Condition;

  constructor(
    monitor: Monitor,
    private readonly source: Reader,
  ) {
    this.#grew = new Condition(monitor);
  }

  /** Reads the source to its end, publishing each batch as it arrives. */
  async fill(): Promise<void> {
    try {
      for (;;) {
        let batch = this.source.read(QUEUE_DEPTH);
        if (isPromise(batch)) batch = await batch;
        if (batch === null) break;
        for (const item of batch) this.#items.push(item);
        this.#grew.notify();
      }
    } catch (error) {
      this.#error = asStatusError(error);
    }
    this.#ended = true;
    this.#grew.notify();
  }

  /** A reader of its own, from the first value, whose waits end when `waiter` stops. */
  replay(waiter: Monitor): Reader {
    return new ReplayReader(this, waiter);
  }

  /** @internal Up to `limit` items from `at`; null at the end; undefined when it must wait. */
  slice(at: number, limit: number): Item[] | null | undefined {
    if (at < this.#items.length) return this.#items.slice(at, Math.min(this.#items.length, at + limit));
    if (this.#ended) {
      if (this.#error) throw this.#error;
      return null;
    }
    return undefined;
  }

  /** @internal */
  waitGrowth(waiter: Monitor): Promise<void> {
    return this.#grew.wait(waiter);
  }

  /** @internal */
  waitGrowthFor(ms: number, waiter: Monitor): Promise<boolean> {
    return this.#grew.waitFor(ms, waiter);
  }
}

class ReplayReader implements Reader {
  #at = 0;
  #stopped = false;

  constructor(
    private readonly buffer: ReplayBuffer,
    private readonly waiter: Monitor,
  ) {}

  read(limit: number): Maybe<Item[] | null> {
    if (this.#stopped) return null;
    const batch = this.buffer.slice(this.#at, limit);
    if (batch === undefined) return this.#readLater(limit);
    if (batch) this.#at += batch.length;
    return batch;
  }

  async #readLater(limit: number): Promise<Item[] | null> {
    for (;;) {
      await this.buffer.waitGrowth(this.waiter);
      if (this.#stopped) return null;
      const batch = this.buffer.slice(this.#at, limit);
      if (batch === undefined) continue;
      if (batch) this.#at += batch.length;
      return batch;
    }
  }

  async readUntil(limit: number, deadline: number): Promise<Item[] | null> {
    for (;;) {
      if (this.#stopped) return null;
      const batch = this.buffer.slice(this.#at, limit);
      if (batch !== undefined) {
        if (batch) this.#at += batch.length;
        return batch;
      }
      if (!(await this.buffer.waitGrowthFor(deadline - Date.now(), this.waiter))) {
        const late = this.buffer.slice(this.#at, limit);
        if (late !== undefined) {
          if (late) this.#at += late.length;
          return late;
        }
        throw new StatusError(StatusCode.DEADLINE_EXCEEDED, 'The wait timed out.');
      }
    }
  }

  stop(): void {
    this.#stopped = true;
  }
}
