import { Chunk } from './chunk.js';
import { Status, StatusCode, StatusError } from './status.js';

/** How far a writer may run ahead of its slowest reader before `put` waits. */
export const DEFAULT_NODE_CAPACITY = 8;

export interface NodeOptions {
  /** The node id: a port id on the wire (`call1#text`), or a flow-local name. */
  id?: string;
  /** Values a writer may run ahead of the slowest reader. */
  capacity?: number;
}

/** Sees every value written, without slowing the writer (for inspectors and taps). */
export interface NodeObserver {
  value?(chunk: Chunk, seq: number): void;
  end?(status: Status): void;
}

let anonymousNodes = 0;

/**
 * An ordered stream of chunks with one writing side and any number of readers.
 *
 * Every reader sees every value from where it joined (fan-out). The node keeps the values its
 * slowest reader has not read yet; `put` waits while that backlog is at `capacity`, which is the
 * backpressure that bounds memory on an endless stream. Until the first reader joins, values are
 * kept (up to `capacity`) for it; once every reader has left, values are discarded as they come,
 * so an abandoned stream drains instead of stalling its writer.
 *
 * The writer ends the stream with `finalize` (optionally with a last value) or `close`, or fails
 * it with `abort`; readers finish what was written, then end — or throw the abort status.
 */
export class StreamNode {
  readonly id: string;
  readonly capacity: number;

  #items: Chunk[] = [];
  /** Sequence number of `#items[0]`. */
  #base = 0;
  #readers = new Set<NodeReader>();
  #everRead = false;
  #status: Status | undefined;
  #final = false;
  #closedWaiters: ((status: Status) => void)[] = [];
  #spaceWaiters: (() => void)[] = [];
  #observers = new Set<NodeObserver>();

  constructor(options: NodeOptions = {}) {
    this.id = options.id ?? `node-${++anonymousNodes}`;
    this.capacity = Math.max(1, options.capacity ?? DEFAULT_NODE_CAPACITY);
  }

  /** Values written so far (the next value's sequence number). */
  get written(): number {
    return this.#base + this.#items.length;
  }

  /** Undefined while open; the closing status afterwards (OK, or the abort status). */
  get status(): Status | undefined {
    return this.#status;
  }

  get isClosed(): boolean {
    return this.#status !== undefined;
  }

  /** Whether the last value has been written (by `finalize` or a final `put`). */
  get isFinal(): boolean {
    return this.#final;
  }

  /** Values kept for readers that have not read them yet. */
  get backlog(): number {
    return this.written - this.#lowestPosition();
  }

  get readerCount(): number {
    return this.#readers.size;
  }

  /** Resolves with the closing status once the node is closed. */
  closed(): Promise<Status> {
    if (this.#status) return Promise.resolve(this.#status);
    return new Promise((resolve) => this.#closedWaiters.push(resolve));
  }

  /**
   * Appends a value, waiting first while the slowest reader is `capacity` values behind.
   * `final: true` makes it the last value (the node then closes OK).
   */
  async put(chunk: Chunk, options: { final?: boolean } = {}): Promise<void> {
    while (this.#mustWait()) await new Promise<void>((resolve) => this.#spaceWaiters.push(resolve));
    this.#append(chunk, options.final ?? false);
  }

  /**
   * Appends a value without waiting, however far behind readers are. For producers that cannot
   * be paused (a socket); they bound the backlog themselves by watching `backlog`.
   */
  push(chunk: Chunk, options: { final?: boolean } = {}): void {
    this.#append(chunk, options.final ?? false);
  }

  /** Writes `chunk` (if given) as the last value and closes the node with OK. */
  async finalize(chunk?: Chunk): Promise<void> {
    if (chunk) await this.put(chunk, { final: true });
    else this.close();
  }

  /** Ends the stream with `status` (OK unless given). Closing a closed node does nothing. */
  close(status: Status = Status.OK): void {
    if (this.#status) return;
    this.#status = status;
    this.#final = true;
    for (const resolve of this.#closedWaiters.splice(0)) resolve(status);
    for (const observer of this.#observers) observer.end?.(status);
    this.#wakeWriters();
    for (const reader of this.#readers) reader.wake();
  }

  /** Fails the stream: readers get `status` (non-OK) after what was already written. */
  abort(status: Status): void {
    this.close(status.ok ? new Status(StatusCode.ABORTED, 'The stream was aborted.') : status);
  }

  /**
   * Fails the stream at once: values not read yet are dropped (freeing their memory) and every
   * reader gets `status` on its next read. For streams that must stop holding data now, such as
   * one that outgrew its buffer limit.
   */
  discard(status: Status): void {
    const failure = status.ok ? new Status(StatusCode.ABORTED, `The values of node '${this.id}' were discarded.`) : status;
    this.#base += this.#items.length;
    this.#items = [];
    // A stream that already ended OK but still held unread values did not deliver them: say so.
    if (this.#status?.ok) this.#status = failure;
    else this.abort(failure);
    for (const reader of this.#readers) reader.wake();
  }

  /**
   * A new reader, starting at the oldest value still kept. Readers that join before the first
   * value see the whole stream.
   */
  reader(): NodeReader {
    const reader = new NodeReader(this, this.#base);
    this.#readers.add(reader);
    this.#everRead = true;
    return reader;
  }

  /** Every value written from now on, and the end, without any backpressure. */
  observe(observer: NodeObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Reads the whole stream with a fresh reader. */
  async collect(): Promise<Chunk[]> {
    const values: Chunk[] = [];
    for await (const chunk of this.reader()) values.push(chunk);
    return values;
  }

  /** @internal The value at `seq`, or undefined when it is not written yet. */
  itemAt(seq: number): Chunk | undefined {
    return this.#items[seq - this.#base];
  }

  /** @internal */
  detach(reader: NodeReader): void {
    if (!this.#readers.delete(reader)) return;
    this.#trim();
  }

  /** @internal A reader moved on: values nobody needs any more can go. */
  advanced(): void {
    this.#trim();
  }

  #append(chunk: Chunk, final: boolean): void {
    if (this.#status || this.#final) {
      const why = this.#status && !this.#status.ok ? `it failed (${this.#status})` : 'it already ended';
      throw new StatusError(StatusCode.FAILED_PRECONDITION, `Cannot write to node '${this.id}': ${why}.`);
    }
    const seq = this.written;
    if (this.#readers.size > 0 || !this.#everRead) this.#items.push(chunk);
    else this.#base++;
    for (const observer of this.#observers) observer.value?.(chunk, seq);
    for (const reader of this.#readers) reader.wake();
    if (final) this.close();
  }

  #mustWait(): boolean {
    return !this.#status && (this.#readers.size > 0 || !this.#everRead) && this.backlog >= this.capacity;
  }

  #lowestPosition(): number {
    let lowest = this.written;
    if (this.#readers.size === 0) return this.#everRead ? lowest : this.#base;
    for (const reader of this.#readers) lowest = Math.min(lowest, reader.position);
    return lowest;
  }

  #trim(): void {
    const drop = this.#lowestPosition() - this.#base;
    if (drop <= 0) return;
    // Shift in batches: splicing one element per read would make long streams quadratic.
    if (drop === this.#items.length) this.#items = [];
    else if (drop >= 64 || drop * 2 >= this.#items.length) this.#items = this.#items.slice(drop);
    else return this.#wakeWritersIfRoom();
    this.#base += drop;
    this.#wakeWritersIfRoom();
  }

  #wakeWritersIfRoom(): void {
    if (!this.#mustWait()) this.#wakeWriters();
  }

  #wakeWriters(): void {
    for (const resolve of this.#spaceWaiters.splice(0)) resolve();
  }
}

/** One reader's cursor over a {@link StreamNode}. */
export class NodeReader implements AsyncIterable<Chunk> {
  #node: StreamNode;
  #position: number;
  #waiter: (() => void) | undefined;
  #released = false;

  /** @internal use {@link StreamNode.reader} */
  constructor(node: StreamNode, position: number) {
    this.#node = node;
    this.#position = position;
  }

  get node(): StreamNode {
    return this.#node;
  }

  /** Sequence number of the next value this reader will get. */
  get position(): number {
    return this.#position;
  }

  /** The next value, or undefined at the end of the stream; throws the status of an aborted one. */
  async next(): Promise<Chunk | undefined> {
    for (;;) {
      if (this.#released) return undefined;
      const chunk = this.#node.itemAt(this.#position);
      if (chunk) {
        this.#position++;
        this.#node.advanced();
        return chunk;
      }
      const status = this.#node.status;
      if (status) {
        if (!status.ok) throw new StatusError(status);
        return undefined;
      }
      if (this.#node.isFinal) return undefined;
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    }
  }

  /**
   * The next value if it is already written, else undefined — without waiting. Lets a consumer
   * that batches (the wire) take everything available in one go, then `await next()` for more.
   */
  tryNext(): Chunk | undefined {
    if (this.#released) return undefined;
    const chunk = this.#node.itemAt(this.#position);
    if (chunk) {
      this.#position++;
      this.#node.advanced();
    }
    return chunk;
  }

  /** Whether this reader has read every value and the stream has ended (OK or not). */
  get atEnd(): boolean {
    return this.#released || (this.#position >= this.#node.written && (this.#node.isClosed || this.#node.isFinal));
  }

  /**
   * Up to `limit` values already written, without waiting: an empty array when none has arrived
   * yet, undefined at the end of the stream; throws the status of an aborted one once the values
   * before the failure have been taken. For readers that move values in batches and wait (with
   * `next`) only when there is nothing to take.
   */
  poll(limit: number): Chunk[] | undefined {
    if (this.#released) return undefined;
    const taken: Chunk[] = [];
    while (taken.length < limit) {
      const chunk = this.#node.itemAt(this.#position);
      if (!chunk) break;
      taken.push(chunk);
      this.#position++;
    }
    if (taken.length > 0) {
      this.#node.advanced();
      return taken;
    }
    const status = this.#node.status;
    if (status) {
      if (!status.ok) throw new StatusError(status);
      return undefined;
    }
    return this.#node.isFinal ? undefined : taken;
  }

  /** Stops reading: the node no longer keeps values for this reader. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#node.detach(this);
    this.wake();
  }

  /** @internal */
  wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Chunk> {
    try {
      for (;;) {
        const chunk = await this.next();
        if (chunk === undefined) return;
        yield chunk;
      }
    } finally {
      this.release();
    }
  }
}
