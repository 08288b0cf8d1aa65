/**
 * One view of a stream for every expression that reads a value of it.
 *
 * Two reads of a stream are two values: the reads of one ref take turns on one cursor. A ref that
 * carries one value (a port without `stream`, a header, `| first 1`…) is read once and its value
 * shared, and a second value arriving on it is an error the language names.
 */
import { StatusCode, StatusError } from '../../../wire/status.js';
import { isPromise, type Reader } from '../stream/reader.js';
import type { Item } from '../values/chunks.js';
import type { Value } from '../values/value.js';

export class ValueCursor {
  #turn: Promise<unknown> = Promise.resolve();
  #held: Value | undefined;
  #read = false;

  constructor(
    private readonly reader: Reader,
    private readonly unary: boolean,
    private readonly label: string,
    private readonly decode: (item: Item) => Value,
  ) {}

  /** The next value (null at the end of the stream), or the one value of a unary stream. */
  next(): Promise<Value> {
    if (this.unary && this.#read) return Promise.resolve(this.#held ?? null);
    const turn = this.#turn.then(() => this.#readOne());
    this.#turn = turn.catch(() => {});
    return turn;
  }

  /** Stops reading: what is left of the stream is nobody's. */
  stop(): void {
    this.reader.stop();
  }

  async #one(): Promise<Item | null> {
    let batch = this.reader.read(1);
    if (isPromise(batch)) batch = await batch;
    return batch === null ? null : batch[0]!;
  }

  async #readOne(): Promise<Value> {
    if (this.unary && this.#read) return this.#held ?? null;
    const item = await this.#one();
    const value = item === null ? null : this.decode(item);
    if (this.unary) {
      this.#held = value;
      this.#read = true;
      if (item !== null) {
        const extra = await this.#one();
        if (extra !== null) {
          throw new StatusError(
            StatusCode.INVALID_ARGUMENT,
            `${this.label} carries one value, and a second arrived. Say 'stream' where it may carry several, ` +
              `or reduce it with '| collect', '| count' or '| first 1'.`,
          );
        }
      }
    }
    return value;
  }
}
