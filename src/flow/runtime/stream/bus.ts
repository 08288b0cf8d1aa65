/**
 * A stream with a known number of readers, fed by one producer.
 *
 * The plan says how many readers each stream of a body has, so every one of them gets a slot up
 * front and sees the stream from its first value, however late it starts reading. The producer
 * runs at most {@link QUEUE_DEPTH} values ahead of the slowest live slot (a batch, once admitted,
 * may overshoot by its size); a slot whose reader stopped holds nothing and holds nobody back.
 *
 * Production starts on the first read, not when the body starts, so a stage with an effect (a
 * `| log`, say) respects the `after` of whatever reads it.
 */
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import type { Item } from '../values/chunks.js';
import { Condition, waitUntil, type Monitor } from './monitor.js';
import { QUEUE_DEPTH, type Maybe, type Reader, type Sink } from './reader.js';

interface Slot {
  position: number;
  taken: boolean;
  dropped: boolean;
}

/** The failure a thrown value stands for, as a StatusError (a bug in a stage is INTERNAL). */
export function asStatusError(error: unknown): StatusError {
  if (error instanceof StatusError) return error;
  const status = Status.fromError(error);
  if (status.code === StatusCode.CANCELLED) return new StatusError(status);
  const message = error instanceof Error ? error.message : String(error);
  return new StatusError(StatusCode.INTERNAL, `Internal flow error: ${message}`);
}

export class Bus {
  #items: Item[] = [];
  /** Sequence number of `#items[0]`. */
  #base = 0;
  readonly #slots: Slot[];
  #handedOut = 0;
  #wanted = false;
  #abandoned = false;
  #ended = false;
  #error: StatusError | undefined;
  readonly #readable: Condition;
  readonly #writable: Condition;
  readonly #wantedCondition: Condition;
  readonly sink: Sink;

  constructor(
    readonly monitor: Monitor,
    readonly label: string,
    slots: number,
  ) {
    this.#slots = Array.from({ length: Math.max(slots, 0) }, () => ({ position: 0, taken: false, dropped: false }));
    this.#readable = new Condition(monitor);
    this.#writable = new Condition(monitor);
    this.#wantedCondition = new Condition(monitor);
    this.sink = { write: (items) => this.#write(items) };
  }

  get written(): number {
    return this.#base + this.#items.length;
  }

  get slotsLeft(): number {
    return this.#slots.length - this.#handedOut;
  }

  /**
   * One reader's view; INTERNAL when the plan accounted for fewer readers. Its waits end when
   * `waiter` (the reading body's monitor) stops.
   */
  take(waiter: Monitor = this.monitor): Reader {
    const slot = this.#slots[this.#handedOut];
    if (!slot) {
      throw new StatusError(
        StatusCode.INTERNAL,
        `Internal flow error: ${this.label} has more readers than the plan accounted for.`,
      );
    }
    this.#handedOut++;
    slot.taken = true;
    return new BusReader(this, slot, waiter);
  }

  /** Runs the producer once the stream is wanted; its failure goes to the readers, not here. */
  async pump(produce: (sink: Sink) => Promise<void>): Promise<void> {
    await waitUntil(this.#wantedCondition, () => this.#wanted || this.#abandoned);
    if (!this.#wanted) {
      this.#ended = true;
      return;
    }
    try {
      await produce(this.sink);
    } catch (error) {
      this.#error = asStatusError(error);
    }
    this.#ended = true;
    this.#readable.notify();
  }

  /**
   * Gives up the slots nobody took: the body they were planned for is over, so nothing will read
   * them and the producer must not wait for them.
   */
  releaseUntaken(): void {
    for (const slot of this.#slots) if (!slot.taken) slot.dropped = true;
    this.#handedOut = this.#slots.length;
    this.#trim();
    this.#writable.notify();
    // A stream nobody ever read has produced nothing and never will: its producer need not start.
    this.#abandoned = true;
    this.#wantedCondition.notify();
  }

  /** @internal */
  want(): void {
    if (this.#wanted) return;
    this.#wanted = true;
    this.#wantedCondition.notify();
  }

  /** @internal */
  takeFrom(slot: Slot, limit: number): Item[] | null | undefined {
    if (slot.dropped) return null;
    const available = this.written - slot.position;
    if (available > 0) {
      const start = slot.position - this.#base;
      const count = Math.min(available, limit);
      const batch = this.#items.slice(start, start + count);
      slot.position += count;
      this.#trim();
      if (this.#writable.waiting && this.#hasRoom()) this.#writable.notify();
      return batch;
    }
    if (this.#ended) {
      if (this.#error) throw this.#error;
      return null;
    }
    return undefined;
  }

  /** @internal */
  waitReadable(waiter: Monitor): Promise<void> {
    return this.#readable.wait(waiter);
  }

  /** @internal */
  waitReadableFor(ms: number, waiter: Monitor): Promise<boolean> {
    return this.#readable.waitFor(ms, waiter);
  }

  /** @internal */
  drop(slot: Slot): void {
    if (slot.dropped) return;
    slot.dropped = true;
    this.#trim();
    this.#writable.notify();
  }

  #hasRoom(): boolean {
    const written = this.written;
    for (const slot of this.#slots) {
      if (!slot.dropped && written - slot.position >= QUEUE_DEPTH) return false;
    }
    return true;
  }

  #live(): boolean {
    for (const slot of this.#slots) if (!slot.dropped) return true;
    return false;
  }

  #write(items: readonly Item[]): Maybe<void> {
    if (items.length === 0) return;
    if (this.#hasRoom()) {
      this.#append(items);
      return;
    }
    return this.#writeWhenRoom(items);
  }

  async #writeWhenRoom(items: readonly Item[]): Promise<void> {
    await waitUntil(this.#writable, () => this.#hasRoom());
    this.#append(items);
  }

  #append(items: readonly Item[]): void {
    if (this.#live()) {
      for (const item of items) this.#items.push(item);
    } else {
      this.#base += items.length;
    }
    this.#readable.notify();
  }

  #trim(): void {
    let lowest = this.written;
    for (const slot of this.#slots) if (!slot.dropped && slot.position < lowest) lowest = slot.position;
    const drop = lowest - this.#base;
    if (drop <= 0) return;
    // In batches: removing one value per read would make a long stream quadratic.
    if (drop === this.#items.length) this.#items = [];
    else if (drop >= 64 || drop * 2 >= this.#items.length) this.#items = this.#items.slice(drop);
    else return;
    this.#base += drop;
  }
}

class BusReader implements Reader {
  constructor(
    private readonly bus: Bus,
    private readonly slot: Slot,
    private readonly waiter: Monitor,
  ) {}

  read(limit: number): Maybe<Item[] | null> {
    this.bus.want();
    const batch = this.bus.takeFrom(this.slot, limit);
    return batch === undefined ? this.#readLater(limit) : batch;
  }

  async #readLater(limit: number): Promise<Item[] | null> {
    for (;;) {
      await this.bus.waitReadable(this.waiter);
      const batch = this.bus.takeFrom(this.slot, limit);
      if (batch !== undefined) return batch;
    }
  }

  async readUntil(limit: number, deadline: number): Promise<Item[] | null> {
    this.bus.want();
    for (;;) {
      const batch = this.bus.takeFrom(this.slot, limit);
      if (batch !== undefined) return batch;
      const woken = await this.bus.waitReadableFor(deadline - Date.now(), this.waiter);
      if (!woken) {
        const late = this.bus.takeFrom(this.slot, limit);
        if (late !== undefined) return late;
        throw new StatusError(StatusCode.DEADLINE_EXCEEDED, 'The wait timed out.');
      }
    }
  }

  stop(): void {
    this.bus.drop(this.slot);
  }
}
