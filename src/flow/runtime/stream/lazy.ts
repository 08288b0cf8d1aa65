/**
 * A single value computed the first time anyone asks, then shared: what a status or the winner of
 * a race is. Reading one waits for its subject (and may end a node), so it happens when a step
 * asks — and once, however many steps ask.
 */
import type { Item } from '../values/chunks.js';
import { ListReader, type Reader } from './reader.js';

export class LazyValue {
  #result: Promise<Item | null> | undefined;

  constructor(private readonly produce: () => Promise<Item | null>) {}

  get(): Promise<Item | null> {
    this.#result ??= this.produce();
    return this.#result;
  }

  async replay(): Promise<Reader> {
    const item = await this.get();
    return new ListReader(item === null ? [] : [item]);
  }
}
