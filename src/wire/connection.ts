import { encodeText } from './codecs.js';
import { DEFAULT_SPLIT_SIZE, MAX_MESSAGE_SIZE, PacketReassembler, splitIntoPackets, type ReassemblyLimits } from './packets.js';
import { encodeFieldsTransient } from './msgpack-fields.js';
import { decodeWireMessage, encodeActionMessage, encodeNodeFragment, encodeWireMessage, encodeWireMessageTransient, peekName, WIRE_VERSION, type DecodedWireMessage, type WireMessageRecord } from './records.js';
import { Status, StatusCode, StatusError } from './status.js';
import { packStatus, unpackStatus } from './status-codec.js';
import { nextTurn } from './turn.js';

/** Trailer carrying a session's outcome: OK on a clean half-close, the failure on an abort. */
export const SESSION_STATUS_HEADER = 'x-a11-session-status';
/** Present only on an abort: the status the stream itself ended with. */
export const ABORT_STATUS_HEADER = 'x-a11-abort-status';
const SESSION_ABORTED = new Status(StatusCode.ABORTED, 'Session has aborted its streams');
const NORMAL_CLOSURE = 1000;
/** Bytes of small messages gathered in one turn before they are sent as one. */
const COALESCE_BYTES = 256 * 1024;
const CLOSE_REASON = 'A11 stream complete';

/**
 * The little a connection needs from a WebSocket (browser or `ws`); see websocket.ts for the
 * adapter. Packets are whole WebSocket messages.
 */
export interface BinarySocket {
  send(packet: Uint8Array): void;
  /** Bytes accepted by `send` and not yet on the network. */
  readonly bufferedAmount: number;
  close(code: number, reason: string): void;
  /** Installs the event handlers; called once, before any event is delivered. */
  listen(events: SocketEvents): void;
}

export interface SocketEvents {
  packet(data: Uint8Array): void;
  /** A text frame, which A11 never sends. */
  text(data: string): void;
  closed(code: number, reason: string): void;
  error(message: string): void;
}

/** Something that went wrong with incoming data but ended only the part it concerned. */
export interface WireProblem {
  status: Status;
  /** The node or call the bad data concerned, when it could be told. */
  target?: string;
  /** Whether `target` names a node (a fragment's) or a call (an action's). */
  targetKind?: 'node' | 'call';
}

export interface ConnectionEvents {
  /** A decoded message (possibly with rejected elements). Dispatch synchronously. */
  message(message: DecodedWireMessage): void;
  /** Incoming data was dropped. */
  problem(problem: WireProblem): void;
  /** The peer will send nothing more (clean half-close); `trailers` are its final headers. */
  peerFinished(trailers: ReadonlyMap<string, Uint8Array>): void;
  /** The connection is over: OK after both sides finished, else why it ended. */
  ended(status: Status): void;
}

export interface ConnectionOptions {
  /** Largest packet sent (64 KiB). */
  splitSize?: number;
  reassembly?: Partial<ReassemblyLimits>;
  /** Bytes queued in the socket above which writers wait (1 MiB). */
  highWater?: number;
  /** Bytes queued at which waiting writers resume (256 KiB). */
  lowWater?: number;
}

type Phase = 'open' | 'ending' | 'ended';

/**
 * One A11 wire stream over a packet socket: WireMessages out (encoded, split into packets) and in
 * (reassembled, decoded), the half-close and abort handshakes carried in header-only messages,
 * and the end of it all — a clean close (1000) once both sides have finished, or a status saying
 * why not. Incoming trouble that concerns one message is reported and dropped; the connection
 * goes on.
 */
export class WireConnection {
  readonly splitSize: number;
  readonly #socket: BinarySocket;
  readonly #reassembler: PacketReassembler;
  readonly #highWater: number;
  readonly #lowWater: number;
  #events: ConnectionEvents | undefined;
  #nextTransientId = 0n;
  #phase: Phase = 'open';
  #sentFinish = false;
  #peerFinished = false;
  #status: Status | undefined;
  #endedWaiters: ((status: Status) => void)[] = [];
  #drainWaiters: (() => void)[] = [];
  #drainTimer: ReturnType<typeof setTimeout> | undefined;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Elements sent this turn, merged into one message when the turn ends. */
  #outbox: { fragments: Uint8Array[]; actions: Uint8Array[]; bytes: number } | undefined;

  constructor(socket: BinarySocket, options: ConnectionOptions = {}) {
    this.#socket = socket;
    this.splitSize = options.splitSize ?? DEFAULT_SPLIT_SIZE;
    this.#reassembler = new PacketReassembler({ maxPacketSize: Math.max(this.splitSize, DEFAULT_SPLIT_SIZE), ...options.reassembly });
    this.#highWater = options.highWater ?? 1024 * 1024;
    this.#lowWater = Math.min(options.lowWater ?? 256 * 1024, this.#highWater);
  }

  /** Starts delivering events. */
  start(events: ConnectionEvents): void {
    if (this.#events) throw new StatusError(StatusCode.FAILED_PRECONDITION, 'The connection is already started.');
    this.#events = events;
    this.#socket.listen({
      packet: (data) => this.#onPacket(data),
      text: (data) => events.problem({ status: new Status(StatusCode.INVALID_ARGUMENT, `A text frame (${data.length} characters) arrived; A11 sends binary frames only.`) }),
      closed: (code, reason) => this.#onSocketClosed(code, reason),
      error: (message) => this.#end(new Status(StatusCode.UNAVAILABLE, `The connection failed: ${message}`)),
    });
  }

  get isOpen(): boolean {
    return this.#phase === 'open' && !this.#sentFinish;
  }

  get peerHasFinished(): boolean {
    return this.#peerFinished;
  }

  /** Undefined while running; the final status once ended. */
  get status(): Status | undefined {
    return this.#status;
  }

  /** Resolves with the final status once the connection is over. */
  ended(): Promise<Status> {
    if (this.#status) return Promise.resolve(this.#status);
    return new Promise((resolve) => this.#endedWaiters.push(resolve));
  }

  get bufferedAmount(): number {
    return this.#socket.bufferedAmount;
  }

  /**
   * Sends one message. Throws FAILED_PRECONDITION once this side has finished or the connection
   * ended, and RESOURCE_EXHAUSTED for a message over the 32 MiB limit (nothing is sent then).
   */
  send(message: WireMessageRecord): void {
    if (this.#phase !== 'open' || this.#sentFinish) {
      throw new StatusError(
        StatusCode.FAILED_PRECONDITION,
        this.#status && !this.#status.ok ? `The connection has ended: ${this.#status}` : 'This side has already ended the session.',
      );
    }
    if (message.headers.size > 0) {
      this.#flush();
      this.#sendEncoded(encodeWireMessageTransient(message));
      return;
    }
    // Elements are encoded now, so a bad one fails this call rather than a later flush.
    const fragments = message.fragments.map(encodeNodeFragment);
    const actions = message.actions.map(encodeActionMessage);
    let bytes = 0;
    for (const element of fragments) bytes += element.length + 5;
    for (const element of actions) bytes += element.length + 5;
    if (bytes > MAX_MESSAGE_SIZE - 16) throw tooLarge(bytes);
    // A message's actions are handled before its fragments, so actions may only join an outbox
    // that has no fragments yet: merging never reorders what the peer sees.
    const outbox = this.#outbox;
    if (outbox && ((actions.length > 0 && outbox.fragments.length > 0) || outbox.bytes + bytes > COALESCE_BYTES)) this.#flush();
    if (!this.#outbox) {
      this.#outbox = { fragments: [], actions: [], bytes: 0 };
      void nextTurn().then(() => {
        try {
          this.#flush();
        } catch {
          // The socket failed under the flush; its close event ends the connection.
        }
      });
    }
    this.#outbox.fragments.push(...fragments);
    this.#outbox.actions.push(...actions);
    this.#outbox.bytes += bytes;
    if (this.#outbox.bytes >= COALESCE_BYTES) this.#flush();
  }

  /** Sends what has been gathered for this turn as one message. */
  #flush(): void {
    const outbox = this.#outbox;
    this.#outbox = undefined;
    if (!outbox || this.#phase !== 'open') return;
    this.#sendEncoded(encodeFieldsTransient([WIRE_VERSION, outbox.fragments, outbox.actions, {}], 1));
  }

  /** Resolves when the socket has room again (immediately unless over the high-water mark). */
  writable(): Promise<void> {
    if (this.#outbox && this.#outbox.bytes >= this.#lowWater) this.#flush();
    if (this.#phase === 'ended' || this.#socket.bufferedAmount <= this.#highWater) return Promise.resolve();
    return new Promise((resolve) => {
      this.#drainWaiters.push(resolve);
      this.#pollDrain();
    });
  }

  /**
   * Clean half-close: this side sends nothing more; `headers` ride along with the OK status. The
   * socket closes (1000) once the peer has finished too — or after `graceMs`, since some peers
   * (the reference gateway among them) never half-close back and wait for the client to hang up.
   */
  finish(headers: ReadonlyMap<string, Uint8Array> = new Map(), graceMs = 250): void {
    if (this.#phase !== 'open' || this.#sentFinish) return;
    const trailers = new Map(headers);
    trailers.set(SESSION_STATUS_HEADER, packStatus(Status.OK));
    try {
      this.#flush();
      this.#sendEncoded(encodeWireMessage({ fragments: [], actions: [], headers: trailers }));
    } catch {
      return; // The socket failed; the connection has ended with that.
    }
    this.#sentFinish = true;
    if (this.#peerFinished) this.#closeSocket(Status.OK);
    else this.#graceTimer = setTimeout(() => this.#closeSocket(Status.OK), graceMs);
  }

  /** Ends the connection now with a non-OK `status`, telling the peer why when it still can. */
  abort(status: Status, headers: ReadonlyMap<string, Uint8Array> = new Map()): void {
    if (this.#phase !== 'open') return;
    const reason = status.ok ? new Status(StatusCode.ABORTED, 'The session was aborted.') : status;
    if (!this.#sentFinish) {
      const trailers = new Map(headers);
      trailers.set(SESSION_STATUS_HEADER, packStatus(reason));
      trailers.set(ABORT_STATUS_HEADER, packStatus(SESSION_ABORTED));
      this.#outbox = undefined;
      try {
        this.#sendEncoded(encodeWireMessage({ fragments: [], actions: [], headers: trailers }));
      } catch {
        // The socket is already failing; the close below still ends it.
      }
    }
    this.#closeSocket(reason);
  }

  #sendEncoded(bytes: Uint8Array): void {
    if (bytes.length > MAX_MESSAGE_SIZE) throw tooLarge(bytes.length);
    const id = this.#nextTransientId;
    this.#nextTransientId = (id + 1n) & 0xffff_ffff_ffff_ffffn;
    try {
      for (const packet of splitIntoPackets(bytes, id, this.splitSize)) this.#socket.send(packet);
    } catch (error) {
      const status = new Status(StatusCode.UNAVAILABLE, `The connection failed while sending: ${(error as Error)?.message ?? String(error)}`);
      this.#end(status);
      throw new StatusError(status);
    }
  }

  #onPacket(data: Uint8Array): void {
    if (this.#phase === 'ended' || !this.#events) return;
    const result = this.#reassembler.feed(data);
    if (result.kind !== 'rejected' && result.evicted) {
      const { error, firstPayload } = result.evicted;
      this.#events.problem({ status: error.status, ...(firstPayload ? firstTarget(firstPayload) : {}) });
    }
    if (result.kind === 'pending') return;
    if (result.kind === 'rejected') {
      const target = result.firstPayload ? firstTarget(result.firstPayload) : undefined;
      this.#events.problem({ status: result.error.status, ...target });
      return;
    }
    let message: DecodedWireMessage;
    try {
      message = decodeWireMessage(result.bytes);
    } catch (error) {
      const status = error instanceof StatusError ? error.status : Status.fromError(error);
      this.#events.problem({ status, ...firstTarget(result.bytes) });
      return;
    }
    if (message.fragments.length === 0 && message.actions.length === 0 && message.rejected.length === 0) {
      this.#onHeaderOnly(message.headers);
      return;
    }
    if (this.#peerFinished) {
      this.#events.problem({ status: new Status(StatusCode.FAILED_PRECONDITION, 'The peer sent data after ending its side of the session; dropped.') });
      return;
    }
    try {
      this.#events.message(message);
    } catch (error) {
      // A fault in handling one message must not take the socket (or the process) down with it.
      this.#events.problem({ status: new Status(StatusCode.INTERNAL, `Handling a message failed: ${(error as Error)?.message ?? String(error)}`) });
    }
  }

  #onHeaderOnly(headers: ReadonlyMap<string, Uint8Array>): void {
    const abort = headers.get(ABORT_STATUS_HEADER);
    const session = headers.get(SESSION_STATUS_HEADER);
    if (abort !== undefined) {
      let status = readStatusHeader(session) ?? readStatusHeader(abort) ?? new Status(StatusCode.ABORTED, 'The peer aborted the session.');
      if (status.ok) status = new Status(StatusCode.ABORTED, status.message || 'The peer aborted the session.');
      this.#closeSocket(status);
      return;
    }
    if (session === undefined) return; // A header-only message that ends nothing: nothing to do.
    this.#peerFinished = true;
    this.#events?.peerFinished(headers);
    if (this.#sentFinish) this.#closeSocket(Status.OK);
  }

  #onSocketClosed(code: number, reason: string): void {
    if (this.#phase === 'ended') return;
    // Once either side has finished cleanly, hanging up is how such a session ends.
    if (this.#peerFinished || this.#sentFinish) {
      this.#end(Status.OK);
      return;
    }
    const detail = reason ? `${code}, '${reason}'` : String(code);
    this.#end(new Status(StatusCode.UNAVAILABLE, `The connection closed before the peer ended the session (WebSocket close ${detail}).`));
  }

  #closeSocket(status: Status): void {
    if (this.#phase !== 'open') return;
    this.#phase = 'ending';
    try {
      this.#socket.close(NORMAL_CLOSURE, CLOSE_REASON);
    } catch {
      // Closing a socket that already failed: the end below is what matters.
    }
    this.#end(status);
  }

  #end(status: Status): void {
    if (this.#phase === 'ended') return;
    this.#phase = 'ended';
    this.#outbox = undefined;
    this.#status = status;
    this.#reassembler.clear();
    if (this.#drainTimer !== undefined) clearTimeout(this.#drainTimer);
    if (this.#graceTimer !== undefined) clearTimeout(this.#graceTimer);
    for (const resolve of this.#drainWaiters.splice(0)) resolve();
    for (const resolve of this.#endedWaiters.splice(0)) resolve(status);
    this.#events?.ended(status);
  }

  #pollDrain(): void {
    if (this.#drainTimer !== undefined) return;
    // Neither the browser nor `ws` signals a draining send buffer, so it is watched.
    this.#drainTimer = setTimeout(() => {
      this.#drainTimer = undefined;
      if (this.#phase === 'ended' || this.#socket.bufferedAmount <= this.#lowWater) {
        for (const resolve of this.#drainWaiters.splice(0)) resolve();
      } else if (this.#drainWaiters.length > 0) {
        this.#pollDrain();
      }
    }, 2);
  }
}

function tooLarge(size: number): StatusError {
  return new StatusError(
    StatusCode.RESOURCE_EXHAUSTED,
    `A message of ${size} bytes exceeds the ${MAX_MESSAGE_SIZE}-byte (32 MiB) limit; send large values in smaller chunks.`,
  );
}

function readStatusHeader(bytes: Uint8Array | undefined): Status | undefined {
  if (bytes === undefined) return undefined;
  try {
    return unpackStatus(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The first node or call a message's head names, read by hand from a prefix (the message itself
 * may be cut off or too large to keep): version, then the fragment list, then the action list.
 */
function firstTarget(head: Uint8Array): Pick<WireProblem, 'target' | 'targetKind'> {
  let at = 0;
  if (head[at] !== 0x01) return {};
  at++;
  for (const targetKind of ['node', 'call'] as const) {
    const count = arrayHeader(head, at);
    if (!count) return {};
    at += count.size;
    if (count.length > 0) {
      const bin = binHeader(head, at);
      const target = bin ? peekName(head.subarray(at + bin.size)) : undefined;
      return target ? { target, targetKind } : {};
    }
  }
  return {};
}

function arrayHeader(bytes: Uint8Array, at: number): { length: number; size: number } | undefined {
  const byte = bytes[at];
  if (byte === undefined) return undefined;
  if ((byte & 0xf0) === 0x90) return { length: byte & 0x0f, size: 1 };
  if (byte === 0xdc && at + 3 <= bytes.length) return { length: (bytes[at + 1]! << 8) | bytes[at + 2]!, size: 3 };
  if (byte === 0xdd && at + 5 <= bytes.length) return { length: new DataView(bytes.buffer, bytes.byteOffset + at + 1, 4).getUint32(0), size: 5 };
  return undefined;
}

function binHeader(bytes: Uint8Array, at: number): { size: number } | undefined {
  const byte = bytes[at];
  if (byte === 0xc4) return { size: 2 };
  if (byte === 0xc5) return { size: 3 };
  if (byte === 0xc6) return { size: 5 };
  return undefined;
}

/** Header values are bytes on the wire; A11's own are ASCII text. */
export function headerBytes(headers: ReadonlyMap<string, string>): Map<string, Uint8Array> {
  return new Map([...headers].map(([key, value]) => [key.toLowerCase(), encodeText(value)]));
}
