/**
 * Coalesces values arriving at any rate into at most one hand-over per animation frame.
 *
 * A stream can deliver thousands of values a second; painting each one would freeze the page, and
 * skipping some would lose them. Values are queued in arrival order and `flush` receives all of
 * them at the next frame, so the DOM is touched once per frame and never misses a value.
 */
export type FrameScheduler = (callback: () => void) => unknown;

const nextFrame: FrameScheduler = (callback) =>
  typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => callback()) : setTimeout(callback, 16);

export class FrameBatcher<T> {
  #pending: T[] = [];
  #scheduled = false;
  #closed = false;

  constructor(
    private readonly flush: (batch: T[]) => void,
    private readonly schedule: FrameScheduler = nextFrame,
  ) {}

  /** Queues a value for the next frame. */
  push(value: T): void {
    if (this.#closed) return;
    this.#pending.push(value);
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.schedule(() => this.#deliver());
  }

  /** Values queued and not yet handed over. */
  get pending(): number {
    return this.#pending.length;
  }

  /** Hands over what is queued now, without waiting for the frame (at the end of a stream). */
  flushNow(): void {
    this.#deliver();
  }

  /** Stops accepting values; what was queued is dropped (the view it fed is gone). */
  close(): void {
    this.#closed = true;
    this.#pending = [];
  }

  #deliver(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.flush(batch);
  }
}
