import type { Chunk } from './chunk.js';
import type { StreamNode } from './node.js';
import { Status, StatusCode } from './status.js';
import { isCloseMarker, isStatusChunk, statusOfChunk } from './status-chunk.js';

/** What one value costs a session's buffer: its bytes plus the bookkeeping around them. */
export function bufferCost(chunk: Chunk): number {
  return chunk.bytes.length + 96;
}

/**
 * Feeds one node from the peer's fragments. Fragments carry per-node sequence numbers and may
 * arrive out of order; values are released to the node in order. Null chunks are markers, not
 * values: a final one ends the node, a continued one is skipped. A status chunk aborts the node,
 * or — with the close attribute — closes it once everything before it has arrived.
 *
 * The node is fed with `push` (a socket cannot wait), so what it holds for slow or absent readers
 * is tracked here, value by value, for the session's buffer budget.
 */
export class InboundStream {
  readonly node: StreamNode;
  #next = 0;
  #held = new Map<number, { chunk: Chunk; final: boolean; cost: number }>();
  #heldCost = 0;
  #highest = -1;
  #endAt: number | undefined;
  #closeWhenComplete: Status | undefined;
  #sticky: string | undefined;
  /** Costs of the values pushed to the node, oldest first, from `#costStart`. */
  #costs: number[] = [];
  #costStart = 0;
  #pushedCost = 0;

  constructor(node: StreamNode) {
    this.node = node;
  }

  get isEnded(): boolean {
    return this.node.isClosed;
  }

  /** The media type a fragment without one inherits (writers may leave repeats out). */
  get stickyMimetype(): string | undefined {
    return this.#sticky;
  }

  /**
   * Takes one fragment's chunk. Returns a problem status when the fragment broke the stream's
   * rules (the node is then aborted with it), undefined otherwise.
   */
  accept(chunk: Chunk, seq: number | null, continued: boolean): Status | undefined {
    if (this.node.isClosed) return undefined;
    if (isStatusChunk(chunk)) return this.#acceptStatus(chunk);
    if (chunk.mimetype) this.#sticky = chunk.mimetype;
    const at = seq ?? Math.max(this.#next, this.#highest + 1);
    if (at < this.#next || this.#held.has(at)) return this.fail(invalid(`Value ${at} of node '${this.node.id}' arrived twice.`));
    if (this.#endAt !== undefined && at >= this.#endAt) {
      return this.fail(invalid(`Node '${this.node.id}' got value ${at} after its final value ${this.#endAt - 1}.`));
    }
    if (!continued) {
      if (at < this.#highest) return this.fail(invalid(`Node '${this.node.id}' got final value ${at} after value ${this.#highest}.`));
      this.#endAt = at + 1;
    }
    this.#highest = Math.max(this.#highest, at);
    if (at === this.#next) {
      this.#deliver(chunk, !continued);
      this.#drainHeld();
    } else {
      const cost = bufferCost(chunk);
      this.#held.set(at, { chunk, final: !continued, cost });
      this.#heldCost += cost;
    }
    return undefined;
  }

  /** Ends the node with `status` (OK closes it), dropping anything still out of order. */
  end(status: Status): void {
    this.#dropHeld();
    this.node.close(status);
  }

  /** Aborts the node with `status`, freeing everything it holds. Returns the status. */
  fail(status: Status): Status {
    this.#dropHeld();
    this.node.discard(status);
    this.#costs = [];
    this.#costStart = 0;
    this.#pushedCost = 0;
    return status;
  }

  /** Bytes this stream currently holds: values out of order plus values its readers have not taken. */
  retainedCost(): number {
    const backlog = this.node.backlog;
    const pushed = this.#costs.length - this.#costStart;
    if (pushed > backlog) {
      for (let drop = pushed - backlog; drop > 0; drop--) this.#pushedCost -= this.#costs[this.#costStart++]!;
      if (this.#costStart > 1024 && this.#costStart * 2 > this.#costs.length) {
        this.#costs = this.#costs.slice(this.#costStart);
        this.#costStart = 0;
      }
    }
    return this.#pushedCost + this.#heldCost;
  }

  #acceptStatus(chunk: Chunk): Status | undefined {
    let status: Status;
    try {
      status = statusOfChunk(chunk);
    } catch (error) {
      return this.fail(invalid(`Node '${this.node.id}' got a status chunk that does not decode: ${(error as Error).message}`));
    }
    if (isCloseMarker(chunk)) {
      if (!status.ok) return void this.end(status);
      if (this.#held.size === 0) this.end(Status.OK);
      else this.#closeWhenComplete = Status.OK;
      return undefined;
    }
    if (status.ok) return invalid(`Node '${this.node.id}' got an OK status as an abort; ignored.`);
    this.end(status);
    return undefined;
  }

  #deliver(chunk: Chunk, final: boolean): void {
    this.#next++;
    if (chunk.isNull) {
      if (final) this.end(Status.OK);
      return;
    }
    const cost = bufferCost(chunk);
    this.#costs.push(cost);
    this.#pushedCost += cost;
    this.node.push(chunk, { final });
  }

  #drainHeld(): void {
    for (let entry = this.#held.get(this.#next); entry && !this.node.isClosed; entry = this.#held.get(this.#next)) {
      this.#held.delete(this.#next);
      this.#heldCost -= entry.cost;
      this.#deliver(entry.chunk, entry.final);
    }
    if (this.#closeWhenComplete && this.#held.size === 0 && !this.node.isClosed) this.end(this.#closeWhenComplete);
  }

  #dropHeld(): void {
    this.#held.clear();
    this.#heldCost = 0;
  }
}

function invalid(message: string): Status {
  return new Status(StatusCode.INVALID_ARGUMENT, message);
}
