import type { Headers, Invocation, InvokeOptions } from './action.js';
import { CANCEL, CANCEL_TARGET_HEADER } from './builtins.js';
import type { Chunk } from './chunk.js';
import { encodeText } from './codecs.js';
import { headerBytes } from './connection.js';
import { deadlineFromHeaders } from './deadline.js';
import { newCallId } from './ids.js';
import type { InboundStream } from './inbound.js';
import { LOG_PORT } from './log.js';
import { portNodeId } from './names.js';
import { StreamNode } from './node.js';
import { WIRE_NODE_CAPACITY, type NodeMirror } from './outbound.js';
import type { WireMessageRecord } from './records.js';
import { requirePort, type ActionSchema } from './schema.js';
import type { SessionNodes } from './session-nodes.js';
import { Status, StatusCode, StatusError } from './status.js';
import { statusOfChunk } from './status-chunk.js';

/** How long an OK call waits, after its `__status__`, for outputs whose ends are still in flight. */
const OUTPUT_SETTLE_MS = 5000;

export const STATUS_PORT = '__status__';
export const DISPATCH_STATUS_PORT = '__dispatch_status__';

/** What a call to the peer needs from its session. */
export interface CallHost {
  readonly nodes: SessionNodes;
  /** Sends a message now; throws (UNAVAILABLE, FAILED_PRECONDITION) when it cannot. */
  send(message: WireMessageRecord): void;
  /** The call has ended; its status nodes can be forgotten. */
  finished(call: PeerCall): void;
}

/**
 * One call to an action the peer serves, seen from the caller: an ActionMessage out, inputs
 * streamed as fragments, outputs and narration in as they come, then the dispatch and completion
 * statuses. Ends with the peer's status; CANCELLED (telling the peer) when cancelled;
 * DEADLINE_EXCEEDED past its `x-a11-deadline`; the connection's failure when the peer goes away.
 */
export class PeerCall implements Invocation {
  readonly id: string;
  readonly schema: ActionSchema;
  readonly log: StreamNode;
  readonly done: Promise<Status>;
  /** Settles with the peer's verdict on starting the call (OK, or why it refused). */
  readonly dispatched: Promise<Status>;
  readonly headers: Headers;
  #host: CallHost;
  #inputs = new Map<string, StreamNode>();
  #mirrors: NodeMirror[] = [];
  #outputs = new Map<string, StreamNode>();
  #streams: InboundStream[] = [];
  #status: Status | undefined;
  #dispatchStatus: Status | undefined;
  #resolveDone!: (status: Status) => void;
  #resolveDispatched!: (status: Status) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #settleTimer: ReturnType<typeof setTimeout> | undefined;
  #started = false;

  constructor(host: CallHost, schema: ActionSchema, options: InvokeOptions = {}) {
    this.#host = host;
    this.schema = schema;
    this.id = options.id ?? newCallId(schema.name.replace(/[^A-Za-z0-9_]/g, '_'));
    this.headers = options.headers ?? new Map();
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.dispatched = new Promise((resolve) => (this.#resolveDispatched = resolve));
    for (const port of schema.inputs) this.#inputs.set(port.name, new StreamNode({ id: portNodeId(this.id, port.name), capacity: WIRE_NODE_CAPACITY }));
    for (const port of schema.outputs) this.#outputs.set(port.name, new StreamNode({ id: portNodeId(this.id, port.name) }));
    this.log = new StreamNode({ id: portNodeId(this.id, LOG_PORT), capacity: 1024 });
    if (options.signal) {
      if (options.signal.aborted) this.cancel();
      else options.signal.addEventListener('abort', () => this.cancel(), { once: true });
    }
  }

  get status(): Status | undefined {
    return this.#status;
  }

  /** Sends the call. Failures end it (they are never thrown). */
  start(): void {
    if (this.#started || this.#status) return;
    this.#started = true;
    let deadline: number | undefined;
    try {
      deadline = deadlineFromHeaders(this.headers);
      for (const node of [...this.#outputs.values(), this.log]) this.#streams.push(this.#host.nodes.adopt(node.id, node));
      this.#host.send({
        fragments: [],
        actions: [
          {
            id: this.id,
            name: this.schema.name,
            inputs: this.schema.inputs.map((port) => ({ name: port.name, id: portNodeId(this.id, port.name) })),
            outputs: this.schema.outputs.map((port) => ({ name: port.name, id: portNodeId(this.id, port.name) })),
            headers: headerBytes(this.headers),
          },
        ],
        headers: new Map(),
      });
    } catch (error) {
      this.#complete(error instanceof StatusError ? error.status : Status.fromError(error));
      return;
    }
    for (const [name, node] of this.#inputs) {
      try {
        this.#mirrors.push(this.#host.nodes.publish(node, { id: portNodeId(this.id, name) }));
      } catch (error) {
        node.abort(error instanceof StatusError ? error.status : Status.fromError(error));
      }
    }
    if (deadline !== undefined) {
      const remaining = deadline - Date.now();
      const expire = () => this.cancel(new Status(StatusCode.DEADLINE_EXCEEDED, `Call '${this.id}' to '${this.schema.name}' ran past its deadline.`));
      if (remaining <= 0) expire();
      else this.#timer = setTimeout(expire, Math.min(remaining, 2 ** 31 - 1));
    }
  }

  input(port: string): StreamNode {
    return this.#inputs.get(requirePort(this.schema, 'input', port).name)!;
  }

  output(port: string): StreamNode {
    return this.#outputs.get(requirePort(this.schema, 'output', port).name)!;
  }

  /** Stops the call: the peer is asked to cancel it, and it ends here at once with `status`. */
  cancel(status?: Status): void {
    if (this.#status) return;
    const reason = status ?? new Status(StatusCode.CANCELLED, `Call '${this.id}' to '${this.schema.name}' was cancelled.`);
    if (this.#started) {
      try {
        this.#host.send({
          fragments: [],
          actions: [{ id: newCallId('cancel'), name: CANCEL, inputs: [], outputs: [], headers: new Map([[CANCEL_TARGET_HEADER, encodeText(this.id)]]) }],
          headers: new Map(),
        });
      } catch {
        // The connection is gone, and the call with it.
      }
    }
    this.#complete(reason);
  }

  /** A value arrived on this call's `__dispatch_status__` or `__status__` node. */
  onStatusFragment(port: typeof STATUS_PORT | typeof DISPATCH_STATUS_PORT, chunk: Chunk): Status | undefined {
    let status: Status;
    try {
      status = statusOfChunk(chunk);
    } catch (error) {
      status = new Status(StatusCode.INVALID_ARGUMENT, `Call '${this.id}' got an unreadable ${port}: ${(error as Error).message}`);
      this.#complete(status);
      return status;
    }
    if (port === DISPATCH_STATUS_PORT) {
      this.#settleDispatch(status);
      if (!status.ok) this.#complete(status);
    } else if (status.ok) {
      this.#completeOnceOutputsEnd(status);
    } else {
      this.#complete(status);
    }
    return undefined;
  }

  /**
   * A peer sends `__status__` after closing its outputs, but its outputs' last fragments can still
   * reach us after the status when the peer writes them from other tasks (the reference gateway
   * does, under concurrent calls). Ending the call at once would close those outputs empty and
   * drop their values, so an OK call waits for its open outputs to end — briefly, since a reader
   * must never wait for ever.
   */
  #completeOnceOutputsEnd(status: Status): void {
    const open = [...this.#outputs.values(), this.log].filter((node) => !node.isClosed);
    if (open.length === 0) return this.#complete(status);
    if (this.#settleTimer !== undefined) return;
    const finish = () => this.#complete(status);
    this.#settleTimer = setTimeout(finish, OUTPUT_SETTLE_MS);
    void Promise.all(open.map((node) => node.closed())).then(finish);
  }

  /** Ends the call from outside (the connection ended, the session is closing). */
  fail(status: Status): void {
    this.#complete(status);
  }

  #settleDispatch(status: Status): void {
    if (this.#dispatchStatus) return;
    this.#dispatchStatus = status;
    this.#resolveDispatched(status);
  }

  #complete(status: Status): void {
    if (this.#status) return;
    this.#status = status;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#settleTimer !== undefined) clearTimeout(this.#settleTimer);
    this.#settleDispatch(status.ok ? Status.OK : status);
    // Whatever the peer did not close, the call's end closes: readers must never wait forever.
    for (const node of [...this.#outputs.values(), this.log]) if (!node.isClosed) node.close(status);
    for (const mirror of this.#mirrors) mirror.stop();
    for (const node of this.#inputs.values()) if (!node.isClosed && !status.ok) node.abort(status);
    for (const stream of this.#streams) this.#host.nodes.forget(stream.node.id);
    this.#host.finished(this);
    this.#resolveDone(status);
  }
}
