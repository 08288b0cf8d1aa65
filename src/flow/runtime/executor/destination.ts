/**
 * A node several steps may write, closed when the last of them is done.
 *
 * Writers take turns, so a batch one writer appends is not interleaved with another's; between
 * batches, several writers interleave by arrival. `release` is one writer finishing; `end` closes
 * the node whoever was writing (`drain` of a node nothing in the flow writes); `abort` ends it
 * with a failure its readers will see.
 */
import { Status, StatusError } from '../../../wire/status.js';
import type { StreamNode } from '../../../wire/node.js';
import { Condition, orStop, waitUntil, type Monitor } from '../stream/monitor.js';
import { itemToChunk, itemToNodeChunk, type Item } from '../values/chunks.js';

export interface DestinationOptions {
  readonly label: string;
  /** Opens the node (once): a node of the flow's own, an output port, a call's input port. */
  readonly open: () => Promise<StreamNode>;
  readonly writers: number;
  /** A `try` call's input: a refused write is not the flow's problem. */
  readonly tolerant: boolean;
  /** For a call's input port: its media type, which decides how a value is written. */
  readonly portType?: string;
}

export class Destination {
  readonly label: string;
  #writers: number;
  #node: Promise<StreamNode> | undefined;
  #closed = false;
  #finished: boolean;
  #writing = false;
  readonly #turn: Condition;

  constructor(
    readonly monitor: Monitor,
    private readonly options: DestinationOptions,
  ) {
    this.label = options.label;
    this.#writers = options.writers;
    this.#finished = options.writers <= 0;
    this.#turn = new Condition(monitor);
  }

  get writers(): number {
    return this.#writers;
  }

  node(): Promise<StreamNode> {
    this.#node ??= this.options.open();
    return this.#node;
  }

  /** Appends a batch in order, after any other writer's batch; waits while readers are behind. */
  async write(items: readonly Item[], waiter: Monitor): Promise<void> {
    if (items.length === 0) return;
    let node: StreamNode;
    try {
      node = await orStop(waiter, this.node());
    } catch (error) {
      if (this.options.tolerant && !waiter.stopped) return;
      throw error;
    }
    await waitUntil(this.#turn, () => !this.#writing, waiter);
    this.#writing = true;
    try {
      const portType = this.options.portType;
      for (const item of items) {
        const chunk = portType === undefined ? itemToNodeChunk(item) : itemToChunk(item, portType);
        // Without a wait where there is room: `put` would cost a turn of the event loop per value.
        if (node.backlog < node.capacity && !node.isClosed) node.push(chunk);
        else await orStop(waiter, node.put(chunk));
      }
    } catch (error) {
      // A `try` call that already failed has aborted its ports; feeding one is not the flow's problem.
      if (!(this.options.tolerant && error instanceof StatusError && !waiter.stopped)) throw error;
    } finally {
      this.#writing = false;
      this.#turn.notify();
    }
  }

  /** One writer is done; the node closes when it was the last. */
  release(): Promise<void> {
    return this.#finish(false, Status.OK);
  }

  /** Closes the node now, whoever was writing it. */
  end(): Promise<void> {
    return this.#finish(true, Status.OK);
  }

  /** Ends the node with a failure, so its readers see the error rather than an end. */
  abort(reason: Status): Promise<void> {
    return this.#finish(true, reason);
  }

  /** Resolves once the node has been closed (or aborted). */
  async finished(waiter: Monitor): Promise<void> {
    await waitUntil(this.#turn, () => this.#finished, waiter);
  }

  async #finish(forced: boolean, reason: Status): Promise<void> {
    if (this.#closed) return;
    if (forced) this.#writers = 0;
    else this.#writers--;
    if (this.#writers > 0) return;
    this.#closed = true;
    try {
      const node = await this.node();
      if (reason.ok) node.close();
      else node.abort(reason);
    } catch (error) {
      if (!this.options.tolerant) throw error;
    } finally {
      this.#finished = true;
      this.#turn.notify();
    }
  }
}
