/**
 * How a stream is read and written inside one run.
 *
 * A {@link Reader} is one reader's view of a stream; a {@link Sink} is where a producer publishes.
 * Both move batches — whatever is already there, up to a limit — and answer synchronously when
 * they can, so a pipeline that is moving pays one await per batch rather than one per value, yet
 * a live stream still yields each value as it arrives.
 */
import type { Item } from '../values/chunks.js';

/** How many values a pipe may run ahead of its reader. */
export const QUEUE_DEPTH = 8;

export type Maybe<T> = T | Promise<T>;

export interface Reader {
  /**
   * Up to `limit` items (at least one), waiting only when none is there; null at the end of the
   * stream. Throws (or rejects with) a StatusError when the producer failed.
   */
  read(limit: number): Maybe<Item[] | null>;
  /**
   * The same, failing with DEADLINE_EXCEEDED when nothing arrives before `deadline` (ms since the
   * epoch). Only `| timeout` asks; a reader that holds its values already answers at once.
   */
  readUntil(limit: number, deadline: number): Maybe<Item[] | null>;
  /**
   * Stops reading. The producer is not cancelled: it carries on into nothing, because what it
   * reads may be feeding an action that would stall if nobody drained it.
   */
  stop(): void;
}

export interface Sink {
  /** Publishes `items` in order (the array is not kept); waits when the reader has no room. */
  write(items: readonly Item[]): Maybe<void>;
}

export function isPromise<T>(value: Maybe<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** A reader over items already in hand: a preset, a replayed value, a buffer's copy. */
export class ListReader implements Reader {
  #at = 0;

  constructor(private readonly items: readonly Item[]) {}

  read(limit: number): Item[] | null {
    if (this.#at >= this.items.length) return null;
    const end = Math.min(this.items.length, this.#at + limit);
    const batch = this.items.slice(this.#at, end);
    this.#at = end;
    return batch;
  }

  readUntil(limit: number): Item[] | null {
    return this.read(limit);
  }

  stop(): void {
    this.#at = this.items.length;
  }
}

/** A sink that gathers everything, for tests and for reductions. */
export class CollectingSink implements Sink {
  readonly items: Item[] = [];

  write(items: readonly Item[]): void {
    for (const item of items) this.items.push(item);
  }
}
