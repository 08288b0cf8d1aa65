import type { Chunk } from './chunk.js';
import { InboundStream } from './inbound.js';
import { Media } from './media.js';
import { StreamNode } from './node.js';
import { NodeMirror, type FragmentSink, type MirrorOptions } from './outbound.js';
import type { NodeFragmentRecord } from './records.js';
import { Status, StatusCode, StatusError } from './status.js';
import { statusChunk } from './status-chunk.js';
import { chunkFromRecord, chunkToRecord } from './wire-chunk.js';

export interface NodeLimits {
  /** Bytes all of a session's incoming nodes may hold for readers that have not taken them. */
  maxBufferedBytes: number;
  /** Bytes one incoming node may hold so. */
  maxNodeBufferedBytes: number;
  /** Incoming nodes a session keeps track of. */
  maxNodes: number;
}

export const DEFAULT_NODE_LIMITS: NodeLimits = {
  maxBufferedBytes: 64 * 1024 * 1024,
  maxNodeBufferedBytes: 16 * 1024 * 1024,
  maxNodes: 4096,
};

/** Ids of finished nodes remembered so late fragments for them are dropped, not resurrected. */
const RETIRED_MEMORY = 8192;

type Entry = { kind: 'in'; stream: InboundStream; cost: number } | { kind: 'out'; mirror: NodeMirror };

/**
 * A session's nodes by id: those the peer writes (fed from fragments; a fragment for an unknown
 * id creates its node) and those this side writes (mirrored to the peer). What incoming nodes
 * hold for readers is budgeted: a node over its share, or the largest one when the session is
 * over its total, is failed with RESOURCE_EXHAUSTED on both sides, and the rest carry on.
 */
export class SessionNodes {
  readonly limits: NodeLimits;
  #entries = new Map<string, Entry>();
  #retired = new Set<string>();
  #total = 0;
  #relieving = false;
  /** New nodes to refuse before sweeping again after a sweep that freed nothing. */
  #skipSweeps = 0;
  #sink: FragmentSink;
  #problem: (status: Status, target: string) => void;

  constructor(sink: FragmentSink, problem: (status: Status, target: string) => void, limits: Partial<NodeLimits> = {}) {
    this.#sink = sink;
    this.#problem = problem;
    this.limits = { ...DEFAULT_NODE_LIMITS, ...limits };
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Bytes incoming nodes hold for readers (as of the last fragment each received). */
  get bufferedBytes(): number {
    return this.#total;
  }

  /** The incoming node `id`, created if needed; FAILED_PRECONDITION when this side writes `id`. */
  inbound(id: string, capacity?: number): InboundStream {
    const entry = this.#entries.get(id);
    if (entry?.kind === 'in') return entry.stream;
    if (entry) throw new StatusError(StatusCode.FAILED_PRECONDITION, `Node '${id}' is written by this side; it cannot also be read from the peer.`);
    this.#retired.delete(id);
    const stream = new InboundStream(new StreamNode({ id, ...(capacity ? { capacity } : {}) }));
    this.#entries.set(id, { kind: 'in', stream, cost: 0 });
    return stream;
  }

  /**
   * Makes `node` the incoming node `id` (a call's outputs are created before they are announced).
   * ALREADY_EXISTS when `id` is already tracked.
   */
  adopt(id: string, node: StreamNode): InboundStream {
    if (this.#entries.has(id)) throw new StatusError(StatusCode.ALREADY_EXISTS, `Node '${id}' already exists in this session; call ids must be unique.`);
    this.#retired.delete(id);
    const stream = new InboundStream(node);
    this.#entries.set(id, { kind: 'in', stream, cost: 0 });
    return stream;
  }

  /** Sends what is written to `node` to the peer under `id`; FAILED_PRECONDITION if `id` is taken. */
  publish(node: StreamNode, options: MirrorOptions = {}): NodeMirror {
    const id = options.id ?? node.id;
    const entry = this.#entries.get(id);
    if (entry) {
      const why = entry.kind === 'in' ? 'the peer writes it' : 'it is already being sent';
      throw new StatusError(StatusCode.FAILED_PRECONDITION, `Node '${id}' cannot be sent to the peer: ${why}.`);
    }
    const mirror = new NodeMirror(node, this.#sink, { ...options, id });
    this.#entries.set(id, { kind: 'out', mirror });
    this.#retired.delete(id);
    void mirror.done.then(() => {
      if (this.#entries.get(id)?.kind === 'out') this.forget(id);
    });
    return mirror;
  }

  /** Stops tracking `id`; fragments arriving for it later are dropped. */
  forget(id: string): void {
    const entry = this.#entries.get(id);
    if (entry?.kind === 'in') this.#total -= entry.cost;
    this.#entries.delete(id);
    this.#retired.add(id);
    if (this.#retired.size > RETIRED_MEMORY) this.#retired.delete(this.#retired.values().next().value as string);
  }

  /** Routes one fragment from the peer. */
  deliver(fragment: NodeFragmentRecord): void {
    const id = fragment.id;
    if (id === '') return this.#problem(new Status(StatusCode.INVALID_ARGUMENT, 'A fragment without a node id was dropped.'), '');
    if (this.#retired.has(id)) return;
    const entry = this.#entries.get(id);
    if (entry?.kind === 'out') {
      return this.#problem(new Status(StatusCode.FAILED_PRECONDITION, `The peer wrote to node '${id}', which this side writes; dropped.`), id);
    }
    let chunk: Chunk;
    try {
      if (fragment.payload.nodeRef) {
        throw new StatusError(StatusCode.UNIMPLEMENTED, `Node '${id}' got a reference to node '${fragment.payload.nodeRef.id}'; this side only takes inline values.`);
      }
      chunk = chunkFromRecord(fragment.payload.chunk!, entry?.stream.stickyMimetype);
    } catch (error) {
      return this.failNode(id, error instanceof StatusError ? error.status : Status.fromError(error));
    }
    let current: Entry | undefined = entry;
    if (!current) {
      // Markers and aborts do not create nodes: a node nobody knows about has nothing to end.
      if (chunk.mimetype === Media.status) return;
      if (!this.#roomForNode()) {
        return this.failNode(id, new Status(StatusCode.RESOURCE_EXHAUSTED, `This session already tracks ${this.limits.maxNodes} nodes; node '${id}' was refused.`));
      }
      this.inbound(id);
      current = this.#entries.get(id)!;
    }
    if (current?.kind !== 'in') return;
    const problem = current.stream.accept(chunk, fragment.seq, fragment.continued);
    if (problem) {
      this.#problem(problem, id);
      if (current.stream.node.isClosed) this.#tellPeer(id, problem);
    }
    this.#account(id, current);
  }

  /** Fails node `id` here (if tracked) and tells the peer, which ends its writer with `status`. */
  failNode(id: string, status: Status): void {
    const entry = this.#entries.get(id);
    if (entry?.kind === 'in') {
      entry.stream.fail(status);
      this.#account(id, entry);
    } else if (!entry) {
      this.forget(id);
    }
    this.#problem(status, id);
    this.#tellPeer(id, status);
  }

  /** The peer sends nothing more: incoming nodes it left open end with `status`. */
  endInbound(status: Status): void {
    for (const entry of this.#entries.values()) {
      if (entry.kind === 'in' && !entry.stream.isEnded) entry.stream.end(status);
    }
  }

  /** The connection is over: incoming nodes still open end with `status`; mirrors stop. */
  endAll(status: Status): void {
    for (const entry of this.#entries.values()) {
      if (entry.kind === 'in') {
        if (!entry.stream.isEnded) entry.stream.end(status.ok ? new Status(StatusCode.UNAVAILABLE, 'The session ended before this node was closed.') : status);
      } else {
        entry.mirror.stop();
        if (!entry.mirror.node.isClosed) entry.mirror.node.abort(status.ok ? new Status(StatusCode.UNAVAILABLE, 'The session ended.') : status);
      }
    }
  }

  #account(id: string, entry: Extract<Entry, { kind: 'in' }>): void {
    const cost = entry.stream.retainedCost();
    this.#total += cost - entry.cost;
    entry.cost = cost;
    if (cost > this.limits.maxNodeBufferedBytes) {
      this.failNode(
        id,
        new Status(
          StatusCode.RESOURCE_EXHAUSTED,
          `Node '${id}' holds more than ${this.limits.maxNodeBufferedBytes} bytes nobody has read; it was dropped. Read it as it arrives, or send less.`,
        ),
      );
      return;
    }
    if (this.#total > this.limits.maxBufferedBytes && !this.#relieving) {
      this.#relieving = true;
      try {
        this.#relieve();
      } finally {
        this.#relieving = false;
      }
    }
  }

  /** Over the session budget: recount (readers may have caught up), then fail the largest holders. */
  #relieve(): void {
    let total = 0;
    for (const entry of this.#entries.values()) {
      if (entry.kind !== 'in') continue;
      entry.cost = entry.stream.retainedCost();
      total += entry.cost;
    }
    this.#total = total;
    while (this.#total > this.limits.maxBufferedBytes) {
      let largest: [string, Extract<Entry, { kind: 'in' }>] | undefined;
      for (const [id, entry] of this.#entries) {
        if (entry.kind === 'in' && (!largest || entry.cost > largest[1].cost)) largest = [id, entry];
      }
      if (!largest || largest[1].cost === 0) return;
      this.failNode(
        largest[0],
        new Status(
          StatusCode.RESOURCE_EXHAUSTED,
          `This session's incoming nodes hold more than ${this.limits.maxBufferedBytes} unread bytes; the largest, '${largest[0]}', was dropped.`,
        ),
      );
    }
  }

  /** Makes room for one more node by forgetting ended ones nobody is reading; false if none can go. */
  #roomForNode(): boolean {
    if (this.#entries.size < this.limits.maxNodes) return true;
    // A sweep walks every node; when one frees nothing, a flood of new ids is refused for a while
    // without walking again.
    if (this.#skipSweeps > 0) {
      this.#skipSweeps--;
      return false;
    }
    for (const [id, entry] of this.#entries) {
      if (entry.kind === 'in' && entry.stream.isEnded && entry.stream.node.readerCount === 0 && entry.stream.retainedCost() === 0) this.forget(id);
    }
    if (this.#entries.size < this.limits.maxNodes) return true;
    this.#skipSweeps = 64;
    return false;
  }

  #tellPeer(id: string, status: Status): void {
    if (status.ok) return;
    try {
      this.#sink.send([{ id, payload: { chunk: chunkToRecord(statusChunk(status)) }, seq: 0, continued: false }]);
    } catch {
      // The connection is gone; there is nobody left to tell.
    }
  }
}
