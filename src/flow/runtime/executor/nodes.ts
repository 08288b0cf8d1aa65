/**
 * Nodes as the runtime uses them: where they live (a node map: ids to nodes, shared with whoever
 * else holds the map — the session a flow runs on, or a `nodes` block's private one), and how a
 * node is read into a stream of items.
 */
import type { Chunk } from '../../../wire/chunk.js';
import { StatusError } from '../../../wire/status.js';
import { StreamNode, type NodeReader } from '../../../wire/node.js';
import { orStop, type Monitor } from '../stream/monitor.js';
import { isPromise, QUEUE_DEPTH, type Sink } from '../stream/reader.js';

/** Ids to nodes: `get` finds the node of an id, making it the first time it is asked for. */
export interface NodeMap {
  get(id: string): StreamNode;
  /**
   * Makes a node made elsewhere findable under `id`: a `run … tee` step's ports, which a host on
   * a wire session publishes so a watching client sees them. A map that cannot share leaves it out.
   */
  expose?(id: string, node: StreamNode): void;
}

/** A node map of its own, for a run nobody else shares nodes with (and for `nodes` blocks). */
export class LocalNodeMap implements NodeMap {
  readonly #nodes = new Map<string, StreamNode>();

  get(id: string): StreamNode {
    let node = this.#nodes.get(id);
    if (!node) {
      node = new StreamNode({ id });
      this.#nodes.set(id, node);
    }
    return node;
  }

  /** Keeps `node` under `id`, unless the id already names a node (the first one stays). */
  expose(id: string, node: StreamNode): void {
    if (!this.#nodes.has(id)) this.#nodes.set(id, node);
  }

  has(id: string): boolean {
    return this.#nodes.has(id);
  }

  ids(): string[] {
    return [...this.#nodes.keys()];
  }
}

/**
 * Reads a node to its end into `sink`, moving what is already there in batches and waiting only
 * when there is nothing. A null chunk is a marker, not a value: it is skipped. Throws the node's
 * abort status — unless `tolerant`, when an aborted node simply ends.
 */
export async function readNode(reader: NodeReader, sink: Sink, monitor: Monitor, tolerant: boolean): Promise<void> {
  try {
    for (;;) {
      let batch = reader.poll(QUEUE_DEPTH);
      if (batch === undefined) return;
      if (batch.length === 0) {
        const one = await orStop(monitor, reader.next());
        if (one === undefined) return;
        batch = [one, ...(reader.poll(QUEUE_DEPTH - 1) ?? [])];
      }
      const items = batch.some((chunk) => chunk.isNull) ? batch.filter((chunk: Chunk) => !chunk.isNull) : batch;
      if (items.length === 0) continue;
      const written = sink.write(items);
      if (isPromise(written)) await written;
    }
  } catch (error) {
    if (tolerant && error instanceof StatusError && !monitor.stopped) return;
    throw error;
  } finally {
    reader.release();
  }
}

/** Reads a node to its end, keeping nothing; the status it ended with. */
export async function drainNode(node: StreamNode, monitor: Monitor): Promise<void> {
  const reader = node.reader();
  try {
    for (;;) {
      const batch = reader.poll(64);
      if (batch === undefined) return;
      if (batch.length === 0 && (await orStop(monitor, reader.next())) === undefined) return;
    }
  } finally {
    reader.release();
  }
}
