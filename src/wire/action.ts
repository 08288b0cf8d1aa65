import type { Chunk } from './chunk.js';
import type { LogLevel, LogRecordOptions } from './log.js';
import type { NodeReader, StreamNode } from './node.js';
import type { ActionSchema } from './schema.js';
import type { Status } from './status.js';

/** Header names are lower-case; values are text. */
export type Headers = ReadonlyMap<string, string>;

/** Headers every nested action inherits from the action that started it. */
export const INHERITED_HEADER_PREFIX = 'x-a11-';
/** Absolute deadline: decimal milliseconds since the epoch, or nanoseconds with an `ns` suffix. */
export const DEADLINE_HEADER = 'x-a11-deadline';

/** What a running action handler sees: its ports, headers, cancellation and log. */
export interface ActionContext {
  readonly id: string;
  readonly name: string;
  readonly schema: ActionSchema;
  readonly headers: Headers;
  /** Aborted when the call is cancelled, its deadline passes, or its caller goes away. */
  readonly signal: AbortSignal;
  /** Milliseconds since the epoch, from `x-a11-deadline`. */
  readonly deadline: number | undefined;
  /** Starts nested actions (with this action's inheritable headers). */
  readonly dispatcher: ActionDispatcher;
  /** The session the call arrived on, when it came over the wire. */
  readonly origin?: CallOrigin;

  /** The stream of an input port. Each call returns the same reader. */
  input(port: string): NodeReader;
  /** The single value of an input port, or undefined when the caller sent none. */
  value(port: string): Promise<unknown>;
  /** Every value of an input port, decoded. */
  values(port: string): AsyncIterable<unknown>;
  /** The node behind an output port, to write chunks to directly. */
  output(port: string): StreamNode;
  /** Writes `value` to an output, encoded as that port's media type; waits under backpressure. */
  write(port: string, value: unknown): Promise<void>;
  /** Writes a ready-made chunk to an output. */
  writeChunk(port: string, chunk: Chunk): Promise<void>;
  /** Narrates on the action log (never on an output port). */
  log(message: unknown, level?: LogLevel, options?: Omit<LogRecordOptions, 'level'>): void;
}

/**
 * The wire session a call arrived on, for handlers that work with the peer's nodes by id rather
 * than through ports (a flow run reads nodes the client wrote and publishes its outputs live).
 */
export interface CallOrigin {
  /** The session's id, for logs. */
  readonly id: string;
  /** The node the peer writes under `id`, created if nothing has arrived for it yet. */
  node(id: string): StreamNode;
  /** A new node whose values are sent to the peer under `id` as they are written. */
  publish(id: string): StreamNode;
  /** Sends what is written to an existing node to the peer as well, under `id`. */
  mirror(node: StreamNode, id: string): void;
  /** Starts actions on the peer (a flow's `call` steps). */
  readonly peer: ActionDispatcher;
}

/**
 * An action's implementation. Returning ends the action OK (open outputs are closed); throwing a
 * StatusError ends it with that status (outputs are aborted with it).
 */
export type ActionHandler = (context: ActionContext) => Promise<void>;

/** The caller's side of one running action. */
export interface Invocation {
  readonly id: string;
  readonly schema: ActionSchema;
  /** The node the caller writes an input port to; close it (or finalize) when done. */
  input(port: string): StreamNode;
  /** The node an output port arrives on; read it with `.reader()`. */
  output(port: string): StreamNode;
  /** The action's narration (`__log__`). */
  readonly log: StreamNode;
  /** Settles with the completion status (never rejects) once the action has ended. */
  readonly done: Promise<Status>;
  /** Asks the action to stop; it ends CANCELLED (or with `status`). */
  cancel(status?: Status): void;
}

export interface InvokeOptions {
  /** The call id; port nodes are `<id>#<port>`. Generated when absent. */
  id?: string;
  headers?: Headers;
  signal?: AbortSignal;
}

/** Starts actions: locally against a registry, or on a peer over the wire. */
export interface ActionDispatcher {
  /** Starts `schema.name` with the given ports; failures arrive on `done`, never thrown. */
  invoke(schema: ActionSchema, options?: InvokeOptions): Invocation;
}
