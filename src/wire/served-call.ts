import type { ActionDispatcher, CallOrigin, Headers } from './action.js';
import { decodeText } from './codecs.js';
import { deadlineFromHeaders } from './deadline.js';
import { runHandler } from './handler-run.js';
import { LOG_PORT } from './log.js';
import { portNodeId } from './names.js';
import { StreamNode } from './node.js';
import { WIRE_NODE_CAPACITY, type NodeMirror } from './outbound.js';
import { DISPATCH_STATUS_PORT, STATUS_PORT } from './peer-call.js';
import type { ActionMessageRecord, NodeFragmentRecord, PortRecord } from './records.js';
import type { RegisteredAction } from './registry.js';
import type { ActionSchema } from './schema.js';
import type { SessionNodes } from './session-nodes.js';
import { Status, StatusCode, StatusError } from './status.js';
import { statusChunk } from './status-chunk.js';
import { chunkToRecord } from './wire-chunk.js';

/** What a call from the peer needs from its session. */
export interface ServeHost {
  readonly nodes: SessionNodes;
  sendFragments(fragments: NodeFragmentRecord[]): void;
  /** The dispatcher the handler's nested calls go through, given the call's headers. */
  nestedDispatcher(headers: Headers): ActionDispatcher;
  readonly origin: CallOrigin;
  /** The call is running (before its handler starts). */
  track(call: ServedCall): void;
  /** The call has ended and sent its status. */
  finished(call: ServedCall): void;
}

/** Tells the peer its call `id` was refused: the status on the dispatch node, the status node and every output it named. */
export function refuseCall(host: Pick<ServeHost, 'sendFragments'>, message: Pick<ActionMessageRecord, 'id' | 'outputs'>, status: Status): void {
  const chunk = chunkToRecord(statusChunk(status));
  const fragment = (id: string): NodeFragmentRecord => ({ id, payload: { chunk }, seq: 0, continued: false });
  try {
    host.sendFragments([
      fragment(portNodeId(message.id, DISPATCH_STATUS_PORT)),
      ...message.outputs.filter((port) => port.id || port.name).map((port) => fragment(port.id || portNodeId(message.id, port.name))),
      fragment(portNodeId(message.id, STATUS_PORT)),
    ]);
  } catch {
    // The connection is gone: nobody is waiting for the answer.
  }
}

/**
 * One call the peer made to an action this side serves: ports mapped onto session nodes (inputs
 * from the peer's fragments, outputs and the log mirrored back), the handler run to its end, then
 * the completion status — after every output has been closed, or failed with that status.
 */
export class ServedCall {
  readonly id: string;
  readonly schema: ActionSchema;
  readonly done: Promise<Status>;
  readonly controller = new AbortController();
  /** When the call was accepted (milliseconds since the epoch). */
  readonly startedAt = Date.now();
  #host: ServeHost;
  #inputIds: string[] = [];
  #resolve!: (status: Status) => void;

  private constructor(host: ServeHost, id: string, schema: ActionSchema) {
    this.#host = host;
    this.id = id;
    this.schema = schema;
    this.done = new Promise((resolve) => (this.#resolve = resolve));
  }

  /**
   * Checks and starts a call; returns undefined after refusing it (the peer has been told why).
   * Refusals: a port the action does not have (FAILED_PRECONDITION) or named twice
   * (INVALID_ARGUMENT), a malformed deadline (INVALID_ARGUMENT), no handler here
   * (FAILED_PRECONDITION).
   */
  static start(host: ServeHost, message: ActionMessageRecord, action: RegisteredAction): ServedCall | undefined {
    const { schema, handler } = action;
    let headers: Headers;
    try {
      if (!handler) {
        throw new StatusError(StatusCode.FAILED_PRECONDITION, `Action '${schema.name}' is known here only by its schema; its handler lives on the other side.`);
      }
      checkPorts(schema, 'input', message.inputs);
      checkPorts(schema, 'output', message.outputs);
      headers = new Map([...message.headers].map(([name, value]) => [name.toLowerCase(), decodeText(value)]));
      deadlineFromHeaders(headers);
    } catch (error) {
      refuseCall(host, message, error instanceof StatusError ? error.status : Status.fromError(error));
      return undefined;
    }
    const call = new ServedCall(host, message.id, schema);
    host.track(call);
    call.#run(message, handler, headers);
    return call;
  }

  /** Asks the handler to stop; the call ends with `status` (CANCELLED by default). */
  cancel(status = new Status(StatusCode.CANCELLED, 'The caller cancelled the call.')): void {
    this.controller.abort(new StatusError(status));
  }

  #run(message: ActionMessageRecord, handler: NonNullable<RegisteredAction['handler']>, headers: Headers): void {
    const host = this.#host;
    const idOf = (ports: PortRecord[], name: string) => ports.find((port) => port.name === name)?.id || portNodeId(this.id, name);
    const inputs = new Map<string, StreamNode>();
    const outputs = new Map<string, StreamNode>();
    const mirrors: NodeMirror[] = [];
    const log = new StreamNode({ id: portNodeId(this.id, LOG_PORT), capacity: 1024 });
    try {
      for (const port of this.schema.inputs) {
        const id = idOf(message.inputs, port.name);
        inputs.set(port.name, host.nodes.inbound(id).node);
        this.#inputIds.push(id);
      }
      for (const port of this.schema.outputs) {
        const id = idOf(message.outputs, port.name);
        const node = new StreamNode({ id, capacity: WIRE_NODE_CAPACITY });
        outputs.set(port.name, node);
        mirrors.push(host.nodes.publish(node, { id }));
      }
      mirrors.push(host.nodes.publish(log, { nullFinal: false }));
    } catch (error) {
      const status = error instanceof StatusError ? error.status : Status.fromError(error);
      for (const mirror of mirrors) mirror.stop();
      refuseCall(host, message, status);
      host.finished(this);
      this.#resolve(status);
      return;
    }
    this.#sendStatus(DISPATCH_STATUS_PORT, Status.OK, false);
    void runHandler({
      id: this.id,
      schema: this.schema,
      handler,
      headers,
      inputs,
      outputs,
      log,
      controller: this.controller,
      dispatcher: host.nestedDispatcher(headers),
      origin: host.origin,
    })
      .then(async (status) => {
        await Promise.all(mirrors.map((mirror) => mirror.done));
        this.#sendStatus(STATUS_PORT, status, true);
        return status;
      })
      .catch((error: unknown) => new Status(StatusCode.INTERNAL, `Finishing call '${this.id}' failed: ${String(error)}`))
      .then((status) => {
        for (const id of this.#inputIds) host.nodes.forget(id);
        this.#resolve(status);
        host.finished(this);
      });
  }

  #sendStatus(port: string, status: Status, closing: boolean): void {
    const id = portNodeId(this.id, port);
    const fragments: NodeFragmentRecord[] = [{ id, payload: { chunk: chunkToRecord(statusChunk(status)) }, seq: 0, continued: false }];
    if (closing) fragments.push({ id, payload: { chunk: chunkToRecord(statusChunk(Status.OK, { close: true })) }, seq: 0, continued: false });
    try {
      this.#host.sendFragments(fragments);
    } catch {
      // The peer is gone; the call still ends here.
    }
  }
}

function checkPorts(schema: ActionSchema, direction: 'input' | 'output', ports: readonly PortRecord[]): void {
  const declared = direction === 'input' ? schema.inputs : schema.outputs;
  const seen = new Set<string>();
  for (const port of ports) {
    if (!declared.some((candidate) => candidate.name === port.name)) {
      const known = declared.map((candidate) => candidate.name).join(', ') || 'none';
      throw new StatusError(StatusCode.FAILED_PRECONDITION, `Action '${schema.name}' has no ${direction} port '${port.name}' (its ${direction}s: ${known}).`);
    }
    if (seen.has(port.name)) throw new StatusError(StatusCode.INVALID_ARGUMENT, `The call names ${direction} port '${port.name}' twice.`);
    seen.add(port.name);
  }
}
