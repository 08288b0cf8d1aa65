import { Chunk } from './chunk.js';
import type { NodeReader, StreamNode } from './node.js';
import type { NodeFragmentRecord } from './records.js';
import { Status, StatusCode, StatusError } from './status.js';
import { statusChunk } from './status-chunk.js';
import { nextTurn } from './turn.js';
import { chunkToRecord } from './wire-chunk.js';

/** Where a mirror sends its fragments, and how it waits for room to send more. */
export interface FragmentSink {
  send(fragments: NodeFragmentRecord[]): void;
  writable(): Promise<void>;
}

export interface MirrorOptions {
  /** The id the peer knows the node by (the node's own id by default). */
  id?: string;
  /**
   * End a stream whose last value went out as continued with a null final value before the close
   * marker, as readers of unary values expect. The log port ends with the marker alone.
   */
  nullFinal?: boolean;
}

/**
 * How far a writer may run ahead of the socket on a node sent to the peer: enough for a mirror to
 * batch many values into one message, still a small bound on memory.
 */
export const WIRE_NODE_CAPACITY = 64;

/** Fragments per message, and bytes, before a mirror starts a new message. */
const BATCH_VALUES = 256;
const BATCH_BYTES = 256 * 1024;

/**
 * Sends everything written to a local node to the peer: each value as a fragment with the node's
 * next sequence number, the end as a close marker (after a null final value where needed), an
 * abort as the failure status. It reads the node like any other reader, so a writer waits while
 * the socket is congested. Values already written when it starts are sent too.
 */
export class NodeMirror {
  readonly id: string;
  readonly done: Promise<void>;
  #reader: NodeReader;
  #stopped = false;

  constructor(
    readonly node: StreamNode,
    sink: FragmentSink,
    options: MirrorOptions = {},
  ) {
    this.id = options.id ?? node.id;
    this.#reader = node.reader();
    this.done = this.#run(sink, options.nullFinal ?? true);
  }

  /** Stops sending (the peer went away, or nobody needs the rest); the node drains freely. */
  stop(): void {
    this.#stopped = true;
    this.#reader.release();
  }

  async #run(sink: FragmentSink, nullFinal: boolean): Promise<void> {
    let seq = 0;
    let sentFinal = false;
    try {
      for (;;) {
        await sink.writable();
        let first: Chunk | undefined;
        try {
          first = await this.#reader.next();
        } catch (error) {
          if (this.#stopped) return;
          const status = error instanceof StatusError ? error.status : Status.fromError(error);
          sink.send([this.#fragment(statusChunk(status), 0, false)]);
          return;
        }
        if (this.#stopped) return;
        if (first !== undefined && !this.#reader.atEnd && this.node.backlog < this.node.capacity) {
          // One value is ready and the writer is still going: let it write what it has, so the
          // values go out together rather than one message each.
          await nextTurn();
        }
        if (first === undefined) {
          const end: NodeFragmentRecord[] = [];
          if (nullFinal && !sentFinal) end.push(this.#fragment(Chunk.null(), seq++, false));
          end.push(this.#fragment(statusChunk(Status.OK, { close: true }), 0, false));
          sink.send(end);
          return;
        }
        for (let pending: Chunk | undefined = first; pending; ) {
          const batch: NodeFragmentRecord[] = [];
          let bytes = 0;
          while (pending) {
            const size = pending.bytes.length;
            if (batch.length > 0 && (bytes + size > BATCH_BYTES || batch.length >= BATCH_VALUES)) break;
            batch.push(this.#fragment(pending, seq++, true));
            bytes += size;
            pending = this.#reader.tryNext();
          }
          if (!pending && this.#reader.atEnd && this.node.status?.ok) {
            batch[batch.length - 1]!.continued = false;
            sentFinal = true;
          }
          sink.send(batch);
          if (pending) await sink.writable();
        }
      }
    } catch (error) {
      // A value that cannot be encoded or sent ends this node, on both sides, with the reason.
      const status = error instanceof StatusError ? error.status : new Status(StatusCode.INTERNAL, String(error));
      this.#reader.release();
      this.node.discard(status);
      try {
        sink.send([this.#fragment(statusChunk(status), 0, false)]);
      } catch {
        // The connection is gone as well; the local node already carries the failure.
      }
    }
  }

  #fragment(chunk: Chunk, seq: number, continued: boolean): NodeFragmentRecord {
    return { id: this.id, payload: { chunk: chunkToRecord(chunk) }, seq, continued };
  }
}
