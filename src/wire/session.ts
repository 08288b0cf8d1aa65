import type { ActionDispatcher, CallOrigin, Headers, Invocation, InvokeOptions } from './action.js';
import './audio-buffer.js';
import { CANCEL, CANCEL_TARGET_HEADER, getSchemaSchema, listActionsSchema, pingSchema, resolveAction } from './builtins.js';
import { Chunk } from './chunk.js';
import { decodeText } from './codecs.js';
import { headerBytes, WireConnection, type WireProblem } from './connection.js';
import { newCallId } from './ids.js';
import { InheritingDispatcher, RoutingDispatcher } from './inherit.js';
import { LocalDispatcher } from './local-dispatcher.js';
import { StreamNode } from './node.js';
import { WIRE_NODE_CAPACITY } from './outbound.js';
import { DISPATCH_STATUS_PORT, PeerCall, STATUS_PORT, type CallHost } from './peer-call.js';
import type { DecodedWireMessage, NodeFragmentRecord } from './records.js';
import { ActionRegistry } from './registry.js';
import type { ActionSchema } from './schema.js';
import { documentEntries, schemaFromEntry, type SchemaDocument } from './schema-document.js';
import { refuseCall, ServedCall, type ServeHost } from './served-call.js';
import { SessionNodes, type NodeLimits } from './session-nodes.js';
import { Status, StatusCode, StatusError } from './status.js';
import { isCloseMarker, isStatusChunk } from './status-chunk.js';
import { chunkFromRecord } from './wire-chunk.js';

export interface SessionLimits extends NodeLimits {
  /** Calls from the peer running at once; more are refused with RESOURCE_EXHAUSTED. */
  maxServedCalls: number;
}

export interface SessionOptions {
  /** The actions this side serves to the peer. The built-ins are answered in any case. */
  registry?: ActionRegistry;
  id?: string;
  /** Sent to the peer with this side's final status when the session ends. */
  headers?: Headers;
  limits?: Partial<SessionLimits>;
  /** Hears about incoming data that was refused or dropped (each also ended what it concerned). */
  onProblem?: (problem: WireProblem) => void;
}

const RECENT_PROBLEMS = 64;
const STATUS_SUFFIX = `#${STATUS_PORT}`;
const DISPATCH_SUFFIX = `#${DISPATCH_STATUS_PORT}`;

/**
 * One A11 session over a wire connection: both sides may call each other. As a dispatcher it
 * starts actions on the peer (`invoke`); it answers the peer's calls from its registry (plus the
 * built-ins), and holds the nodes both sides write by id.
 *
 * Everything the peer does wrong ends only what it concerned, with a status saying what and why:
 * a malformed fragment fails its node, a bad call is refused, a node holding too much unread data
 * fails with RESOURCE_EXHAUSTED. When the peer goes away, every pending call and open node ends
 * UNAVAILABLE.
 */
export class Session implements ActionDispatcher {
  readonly id: string;
  readonly registry: ActionRegistry;
  readonly connection: WireConnection;
  readonly limits: SessionLimits;
  readonly #nodes: SessionNodes;
  readonly #calls = new Map<string, PeerCall>();
  readonly #served = new Map<string, ServedCall>();
  readonly #headers: Headers;
  readonly #onProblem: ((problem: WireProblem) => void) | undefined;
  readonly #problems: WireProblem[] = [];
  readonly #callHost: CallHost;
  readonly #serveHost: ServeHost;
  readonly #local: LocalDispatcher;
  #closing = false;

  constructor(connection: WireConnection, options: SessionOptions = {}) {
    this.id = options.id ?? newCallId('session');
    this.connection = connection;
    this.registry = options.registry ?? new ActionRegistry();
    this.#headers = options.headers ?? new Map();
    this.#onProblem = options.onProblem;
    this.#local = new LocalDispatcher(this.registry);
    const { maxServedCalls = 256, ...nodeLimits } = options.limits ?? {};
    const sendFragments = (fragments: NodeFragmentRecord[]) => connection.send({ fragments, actions: [], headers: new Map() });
    this.#nodes = new SessionNodes(
      { send: sendFragments, writable: () => connection.writable() },
      (status, target) => this.#report({ status, ...(target ? { target } : {}) }),
      nodeLimits,
    );
    this.limits = { ...this.#nodes.limits, maxServedCalls };
    this.#callHost = {
      nodes: this.#nodes,
      send: (message) => connection.send(message),
      finished: (call) => {
        if (this.#calls.get(call.id) === call) this.#calls.delete(call.id);
      },
    };
    const origin: CallOrigin = {
      id: this.id,
      node: (id) => this.node(id),
      publish: (id) => this.publish(id),
      mirror: (node, id) => this.mirror(node, id),
      peer: this,
    };
    this.#serveHost = {
      nodes: this.#nodes,
      sendFragments,
      nestedDispatcher: (headers) => new InheritingDispatcher(new RoutingDispatcher(this.registry, this.#local, this), headers),
      origin,
      track: (call) => this.#served.set(call.id, call),
      finished: (call) => {
        if (this.#served.get(call.id) === call) this.#served.delete(call.id);
        this.#finishIfDone();
      },
    };
    connection.start({
      message: (message) => this.#onMessage(message),
      problem: (problem) => this.#onTransportProblem(problem),
      peerFinished: () => this.#onPeerFinished(),
      ended: (status) => this.#onEnded(status),
    });
  }

  /** Calls on the peer that have not ended yet. */
  get pendingCalls(): number {
    return this.#calls.size;
  }

  /** Calls from the peer still running here. */
  get servedCalls(): number {
    return this.#served.size;
  }

  /** Each call from the peer still running here: its id, action and when it was accepted. */
  runningCalls(): { id: string; action: string; startedAt: number }[] {
    return [...this.#served.values()].map((call) => ({ id: call.id, action: call.schema.name, startedAt: call.startedAt }));
  }

  /** Nodes tracked, and bytes incoming nodes hold for readers. */
  get nodeStats(): { nodes: number; bufferedBytes: number } {
    return { nodes: this.#nodes.size, bufferedBytes: this.#nodes.bufferedBytes };
  }

  /** The most recent problems with incoming data (oldest first). */
  get problems(): readonly WireProblem[] {
    return this.#problems;
  }

  /** Undefined while the session runs; how it ended afterwards. */
  get status(): Status | undefined {
    return this.connection.status;
  }

  ended(): Promise<Status> {
    return this.connection.ended();
  }

  /** Starts `schema.name` on the peer. Failures (refusal, the peer going away) arrive on `done`. */
  invoke(schema: ActionSchema, options: InvokeOptions = {}): PeerCall {
    const call = new PeerCall(this.#callHost, schema, options);
    if (this.#calls.has(call.id)) {
      call.fail(new Status(StatusCode.ALREADY_EXISTS, `A call with id '${call.id}' is already running in this session.`));
      return call;
    }
    if (this.#closing || !this.connection.isOpen) {
      call.fail(new Status(this.connection.status ? StatusCode.UNAVAILABLE : StatusCode.FAILED_PRECONDITION, 'The session is closing; it starts no new calls.'));
      return call;
    }
    if (call.status) return call;
    this.#calls.set(call.id, call);
    call.start();
    return call;
  }

  /** The node the peer writes under `id` (created if nothing has arrived for it yet). */
  node(id: string): StreamNode {
    return this.#nodes.inbound(id).node;
  }

  /** A new node whose values go to the peer under `id` as they are written; close it when done. */
  publish(id: string, options: { capacity?: number } = {}): StreamNode {
    const node = new StreamNode({ id, capacity: WIRE_NODE_CAPACITY, ...options });
    this.#nodes.publish(node, { id });
    return node;
  }

  /** Sends what is written to an existing node to the peer, under `id` (the node's own id by default). */
  mirror(node: StreamNode, id = node.id): void {
    this.#nodes.publish(node, { id });
  }

  /** Stops tracking node `id` (its late fragments are dropped). */
  forget(id: string): void {
    this.#nodes.forget(id);
  }

  /** The peer's actions, as its `__list_actions__` describes them. */
  async listActions(request: unknown = null, options: InvokeOptions = {}): Promise<SchemaDocument> {
    const call = this.invoke(listActionsSchema, options);
    const requestNode = call.input('request');
    if (request === null || request === undefined) requestNode.close();
    else await requestNode.finalize(Chunk.json(request));
    return (await unaryResult(call, 'actions')) as SchemaDocument;
  }

  /** The schema of one of the peer's actions (NOT_FOUND when it has none by that name). */
  async describe(name: string, options: InvokeOptions = {}): Promise<ActionSchema> {
    const call = this.invoke(getSchemaSchema, options);
    await call.input('action').finalize(Chunk.text(name));
    const [entry] = documentEntries(await unaryResult(call, 'schema'));
    if (!entry) throw new StatusError(StatusCode.NOT_FOUND, `The peer described no action named '${name}'.`);
    return schemaFromEntry(entry);
  }

  /** Round-trips `text` through the peer's `__ping`. */
  async ping(text = 'ping', options: InvokeOptions = {}): Promise<string> {
    const call = this.invoke(pingSchema, options);
    await call.input('input').finalize(Chunk.text(text));
    const reply = await call.output('output').reader().next();
    const status = await call.done;
    status.throwIfError();
    return reply ? decodeText(reply.bytes) : '';
  }

  /**
   * Ends the session cleanly: no new calls; waits for calls in both directions to finish (up to
   * `timeoutMs`, after which they are cancelled), then tells the peer this side is done and waits
   * for it to end too. Resolves with how the session ended.
   */
  async close(options: { timeoutMs?: number } = {}): Promise<Status> {
    this.#closing = true;
    const running = () => Promise.all([...[...this.#calls.values()].map((call) => call.done), ...[...this.#served.values()].map((call) => call.done)]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = await Promise.race([
      running().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), options.timeoutMs ?? 30_000))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      const cancelled = new Status(StatusCode.CANCELLED, 'The session closed before this call finished.');
      for (const call of [...this.#calls.values()]) call.cancel(cancelled);
      for (const call of [...this.#served.values()]) call.cancel(cancelled);
      await running();
    }
    if (this.connection.isOpen) this.connection.finish(headerBytes(this.#headers));
    return this.connection.ended();
  }

  /** Ends the session now with a failure: every call in either direction ends with `status`. */
  abort(status: Status): void {
    this.connection.abort(status, headerBytes(this.#headers));
  }

  #onMessage(message: DecodedWireMessage): void {
    for (const rejected of message.rejected) {
      const status = rejected.error.status;
      if (rejected.kind === 'fragment' && rejected.id) this.#nodes.failNode(rejected.id, status);
      else if (rejected.kind === 'action' && rejected.id) {
        this.#report({ status, target: rejected.id });
        refuseCall(this.#serveHost, { id: rejected.id, outputs: [] }, status);
      } else this.#report({ status });
    }
    for (const action of message.actions) this.#onAction(action);
    for (const fragment of message.fragments) this.#onFragment(fragment);
  }

  #onAction(action: DecodedWireMessage['actions'][number]): void {
    if (action.name === CANCEL) {
      const target = action.headers.get(CANCEL_TARGET_HEADER);
      if (target) this.#served.get(decodeText(target))?.cancel();
      return;
    }
    if (action.id === '' || action.name === '') {
      this.#report({ status: new Status(StatusCode.INVALID_ARGUMENT, 'A call without an id or an action name was dropped.'), ...(action.id ? { target: action.id } : {}) });
      if (action.id) refuseCall(this.#serveHost, action, new Status(StatusCode.INVALID_ARGUMENT, 'The call names no action.'));
      return;
    }
    const refuse = (code: number, message: string) => {
      const status = new Status(code, message);
      this.#report({ status, target: action.id });
      refuseCall(this.#serveHost, action, status);
    };
    if (this.#served.has(action.id)) return refuse(StatusCode.ALREADY_EXISTS, `A call with id '${action.id}' is already running here.`);
    if (this.#closing || this.connection.peerHasFinished) return refuse(StatusCode.FAILED_PRECONDITION, 'The session is closing; it accepts no new calls.');
    if (this.#served.size >= this.limits.maxServedCalls) {
      return refuse(StatusCode.RESOURCE_EXHAUSTED, `${this.limits.maxServedCalls} calls are already running in this session; try again when one has finished.`);
    }
    const resolved = resolveAction(this.registry, action.name);
    if (!resolved) return refuse(StatusCode.NOT_FOUND, `No action named '${action.name}' is registered here.`);
    ServedCall.start(this.#serveHost, action, resolved);
  }

  #onFragment(fragment: NodeFragmentRecord): void {
    const id = fragment.id;
    const port = id.endsWith(STATUS_SUFFIX) ? STATUS_PORT : id.endsWith(DISPATCH_SUFFIX) ? DISPATCH_STATUS_PORT : undefined;
    if (!port) return this.#nodes.deliver(fragment);
    const call = this.#calls.get(id.slice(0, id.length - port.length - 1));
    if (!call || !fragment.payload.chunk) return;
    let chunk;
    try {
      chunk = chunkFromRecord(fragment.payload.chunk);
    } catch (error) {
      return call.fail(error instanceof StatusError ? error.status : Status.fromError(error));
    }
    if (!isStatusChunk(chunk)) {
      return this.#report({ status: new Status(StatusCode.INVALID_ARGUMENT, `Node '${id}' carries statuses only; a '${chunk.mimetype}' value was dropped.`), target: id });
    }
    if (isCloseMarker(chunk)) return;
    const problem = call.onStatusFragment(port, chunk);
    if (problem) this.#report({ status: problem, target: id });
  }

  /** A whole message was refused; when its head named a node or a call, that one is ended. */
  #onTransportProblem(problem: WireProblem): void {
    if (problem.target && problem.targetKind === 'node') return this.#nodes.failNode(problem.target, problem.status);
    this.#report(problem);
    if (problem.target && problem.targetKind === 'call') refuseCall(this.#serveHost, { id: problem.target, outputs: [] }, problem.status);
  }

  #onPeerFinished(): void {
    // The peer sends nothing more: calls waiting on it cannot finish, nodes it left open cannot fill.
    const gone = new Status(StatusCode.UNAVAILABLE, 'The peer ended the session before this call finished.');
    for (const call of [...this.#calls.values()]) call.fail(gone);
    this.#nodes.endInbound(new Status(StatusCode.UNAVAILABLE, 'The peer ended the session without closing this node.'));
    this.#finishIfDone();
  }

  /** Once the peer has finished and nothing of ours is running, this side finishes too. */
  #finishIfDone(): void {
    if (!this.connection.peerHasFinished || this.#served.size > 0 || this.#calls.size > 0) return;
    this.connection.finish(headerBytes(this.#headers));
  }

  #onEnded(status: Status): void {
    // A vanished peer makes everything pending UNAVAILABLE; a peer that aborted keeps its own reason.
    const failure = status.ok ? new Status(StatusCode.UNAVAILABLE, 'The session ended before this call finished.') : status;
    for (const call of [...this.#calls.values()]) call.fail(failure);
    for (const call of [...this.#served.values()]) call.cancel(failure);
    this.#nodes.endAll(failure);
  }

  #report(problem: WireProblem): void {
    this.#problems.push(problem);
    if (this.#problems.length > RECENT_PROBLEMS) this.#problems.shift();
    this.#onProblem?.(problem);
  }
}

/** The single value of a unary output, decoded, once the call has ended OK. */
async function unaryResult(call: Invocation, port: string): Promise<unknown> {
  const reader = call.output(port).reader();
  let value: unknown;
  try {
    const chunk = await reader.next();
    value = chunk?.value;
  } catch {
    // The output failed with the call's status, which `done` reports below.
  }
  reader.release();
  const status = await call.done;
  status.throwIfError();
  return value;
}
