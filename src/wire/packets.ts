import { StatusCode, StatusError } from './status.js';

/**
 * How one encoded WireMessage travels as transport packets (one packet per WebSocket message).
 * Each packet ends with a suffix: the kind byte is the very last byte, the transient id (u64 LE,
 * one counter per sending side) before it. A message that fits is sent whole; a larger one is cut
 * into a first packet that also says how many packets there are, and numbered continuations.
 * Packets of different messages may interleave and arrive in any order.
 */

export const PacketKind = {
  /** `payload ‖ transientId u64 ‖ 0x00` */
  COMPLETE: 0x00,
  /** `payload ‖ seq u32 ‖ transientId u64 ‖ 0x01` */
  CONTINUATION: 0x01,
  /** `payload ‖ packetCount u32 ‖ seq u32 (= 0) ‖ transientId u64 ‖ 0x02` */
  FIRST: 0x02,
} as const;

export type PacketKindNumber = (typeof PacketKind)[keyof typeof PacketKind];

export const DEFAULT_SPLIT_SIZE = 64 * 1024;
/** Largest message (one encoded WireMessage) either side accepts. */
export const MAX_MESSAGE_SIZE = 32 * 1024 * 1024;

const COMPLETE_SUFFIX = 9;
const CONTINUATION_SUFFIX = 13;
const FIRST_SUFFIX = 17;
export const MIN_SPLIT_SIZE = FIRST_SUFFIX + 1;

export interface Packet {
  kind: PacketKindNumber;
  payload: Uint8Array;
  transientId: bigint;
  seq: number;
  /** Packets in the whole message (FIRST packets only; 0 otherwise). */
  packetCount: number;
}

/** Cuts `payload` into packets of at most `splitSize` bytes. */
export function splitIntoPackets(payload: Uint8Array, transientId: bigint, splitSize = DEFAULT_SPLIT_SIZE): Uint8Array[] {
  if (!Number.isSafeInteger(splitSize) || splitSize < MIN_SPLIT_SIZE) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `The packet size must be at least ${MIN_SPLIT_SIZE} bytes.`);
  }
  if (payload.length <= splitSize - COMPLETE_SUFFIX) {
    const packet = new Uint8Array(payload.length + COMPLETE_SUFFIX);
    packet.set(payload);
    const view = new DataView(packet.buffer);
    view.setBigUint64(payload.length, transientId, true);
    packet[packet.length - 1] = PacketKind.COMPLETE;
    return [packet];
  }
  const firstSize = splitSize - FIRST_SUFFIX;
  const laterSize = splitSize - CONTINUATION_SUFFIX;
  const count = 1 + Math.ceil((payload.length - firstSize) / laterSize);
  const packets: Uint8Array[] = [];
  for (let seq = 0, offset = 0; seq < count; seq++) {
    const size = seq === 0 ? firstSize : laterSize;
    const part = payload.subarray(offset, offset + size);
    offset += part.length;
    const suffix = seq === 0 ? FIRST_SUFFIX : CONTINUATION_SUFFIX;
    const packet = new Uint8Array(part.length + suffix);
    packet.set(part);
    const view = new DataView(packet.buffer);
    let at = part.length;
    if (seq === 0) {
      view.setUint32(at, count, true);
      at += 4;
    }
    view.setUint32(at, seq, true);
    view.setBigUint64(at + 4, transientId, true);
    packet[packet.length - 1] = seq === 0 ? PacketKind.FIRST : PacketKind.CONTINUATION;
    packets.push(packet);
  }
  return packets;
}

/** Reads one packet's suffix; INVALID_ARGUMENT for anything malformed. The payload is a view. */
export function parsePacket(packet: Uint8Array): Packet {
  if (packet.length < COMPLETE_SUFFIX) throw malformed(`a packet of ${packet.length} bytes is shorter than any packet suffix (9 bytes)`);
  const kind = packet[packet.length - 1]!;
  const suffix =
    kind === PacketKind.COMPLETE ? COMPLETE_SUFFIX : kind === PacketKind.CONTINUATION ? CONTINUATION_SUFFIX : kind === PacketKind.FIRST ? FIRST_SUFFIX : 0;
  if (suffix === 0) throw malformed(`unknown packet kind 0x${kind.toString(16).padStart(2, '0')} (0x00, 0x01 and 0x02 exist)`);
  if (packet.length < suffix) throw malformed(`a kind-${kind} packet of ${packet.length} bytes is shorter than its ${suffix}-byte suffix`);
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  const idAt = packet.length - COMPLETE_SUFFIX;
  const transientId = view.getBigUint64(idAt, true);
  let seq = 0;
  let packetCount = 0;
  if (kind !== PacketKind.COMPLETE) {
    seq = view.getUint32(idAt - 4, true);
    if (kind === PacketKind.FIRST) {
      packetCount = view.getUint32(idAt - 8, true);
      if (seq !== 0) throw malformed(`the first packet of message ${transientId} has seq ${seq}, not 0`);
      if (packetCount === 0) throw malformed(`message ${transientId} declares 0 packets`);
    } else if (seq === 0) {
      throw malformed(`a continuation packet of message ${transientId} has seq 0, which belongs to the first packet`);
    }
  }
  return { kind: kind as PacketKindNumber, payload: packet.subarray(0, packet.length - suffix), transientId, seq, packetCount };
}

export interface ReassemblyLimits {
  /** Largest packet accepted. */
  maxPacketSize: number;
  /** Largest reassembled message. */
  maxMessageSize: number;
  /** Split messages in flight at once. */
  maxPendingMessages: number;
  /** Bytes held for split messages in flight, all together. */
  maxPendingBytes: number;
}

export const DEFAULT_REASSEMBLY_LIMITS: ReassemblyLimits = {
  maxPacketSize: DEFAULT_SPLIT_SIZE,
  maxMessageSize: MAX_MESSAGE_SIZE,
  maxPendingMessages: 64,
  maxPendingBytes: 64 * 1024 * 1024,
};

/** What feeding one packet produced. */
export type ReassemblyResult =
  | { kind: 'message'; transientId: bigint; bytes: Uint8Array; evicted?: Evicted }
  | { kind: 'pending'; evicted?: Evicted }
  /** The packet (and its message, if split) was dropped; `firstPayload` is the message's head when known. */
  | { kind: 'rejected'; transientId?: bigint; error: StatusError; firstPayload?: Uint8Array };

/** An unfinished split message dropped to make room for newer ones (a sender that never finished it). */
export interface Evicted {
  transientId: bigint;
  error: StatusError;
  firstPayload?: Uint8Array;
}

interface PendingMessage {
  count: number;
  parts: Map<number, Uint8Array>;
  bytes: number;
  first?: Uint8Array;
}

/**
 * Puts split messages back together, whatever order their packets come in. Everything it holds is
 * bounded: a message that would exceed the size limit, or a peer that opens too many messages at
 * once, gets that message rejected (RESOURCE_EXHAUSTED) and its remaining packets dropped — the
 * connection itself carries on.
 */
export class PacketReassembler {
  readonly limits: ReassemblyLimits;
  #pending = new Map<bigint, PendingMessage>();
  #pendingBytes = 0;
  /** Ids of rejected split messages, so their later packets are dropped quietly. */
  #dropped = new Set<bigint>();

  constructor(limits: Partial<ReassemblyLimits> = {}) {
    this.limits = { ...DEFAULT_REASSEMBLY_LIMITS, ...limits };
  }

  get pendingMessages(): number {
    return this.#pending.size;
  }

  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  feed(data: Uint8Array): ReassemblyResult {
    if (data.length > this.limits.maxPacketSize) {
      // The suffix is still readable, so the rest of that message can be dropped too.
      const id = this.#tryId(data);
      if (id !== undefined) this.#drop(id);
      return rejectedResult(StatusCode.RESOURCE_EXHAUSTED, `A packet of ${data.length} bytes exceeds the ${this.limits.maxPacketSize}-byte packet limit.`, id);
    }
    let packet: Packet;
    try {
      packet = parsePacket(data);
    } catch (error) {
      return { kind: 'rejected', error: error as StatusError };
    }
    const id = packet.transientId;
    if (packet.kind === PacketKind.COMPLETE) {
      if (packet.payload.length > this.limits.maxMessageSize) {
        return rejectedResult(StatusCode.RESOURCE_EXHAUSTED, tooLarge(packet.payload.length, this.limits.maxMessageSize), id, packet.payload);
      }
      return { kind: 'message', transientId: id, bytes: packet.payload };
    }
    if (this.#dropped.has(id)) {
      return { kind: 'pending' };
    }
    let evicted: Evicted | undefined;
    let pending = this.#pending.get(id);
    if (!pending) {
      // A sender finishes what it starts; the oldest unfinished message is the one given up on.
      if (this.#pending.size >= this.limits.maxPendingMessages) {
        evicted = this.#evictOldest(`More than ${this.limits.maxPendingMessages} split messages were unfinished at once; the oldest was dropped.`);
      }
      pending = { count: 0, parts: new Map(), bytes: 0 };
      this.#pending.set(id, pending);
    }
    if (packet.kind === PacketKind.FIRST) {
      if (pending.count !== 0) return this.#reject(id, StatusCode.INVALID_ARGUMENT, `Message ${id} has two first packets.`);
      pending.count = packet.packetCount;
      pending.first = packet.payload;
      const ceiling = Math.ceil(this.limits.maxMessageSize / Math.max(1, packet.payload.length)) + 1;
      if (packet.packetCount > ceiling) {
        return this.#reject(id, StatusCode.RESOURCE_EXHAUSTED, `Message ${id} declares ${packet.packetCount} packets: more than fit the ${this.limits.maxMessageSize}-byte message limit.`);
      }
      for (const seq of pending.parts.keys()) {
        if (seq >= pending.count) return this.#reject(id, StatusCode.INVALID_ARGUMENT, `Message ${id} has packet ${seq} but declares only ${pending.count}.`);
      }
    } else if (pending.count !== 0 && packet.seq >= pending.count) {
      return this.#reject(id, StatusCode.INVALID_ARGUMENT, `Message ${id} has packet ${packet.seq} but declares only ${pending.count}.`);
    }
    if (pending.parts.has(packet.seq)) return this.#reject(id, StatusCode.INVALID_ARGUMENT, `Message ${id} repeats packet ${packet.seq}.`);
    if (pending.bytes + packet.payload.length > this.limits.maxMessageSize) {
      return this.#reject(id, StatusCode.RESOURCE_EXHAUSTED, tooLarge(pending.bytes + packet.payload.length, this.limits.maxMessageSize, true));
    }
    while (this.#pendingBytes + packet.payload.length > this.limits.maxPendingBytes && this.#pending.size > 1) {
      evicted = this.#evictOldest(`Unfinished split messages held more than ${this.limits.maxPendingBytes} bytes; the oldest was dropped.`, id);
    }
    pending.parts.set(packet.seq, packet.payload);
    pending.bytes += packet.payload.length;
    this.#pendingBytes += packet.payload.length;
    if (pending.count === 0 || pending.parts.size < pending.count) return evicted ? { kind: 'pending', evicted } : { kind: 'pending' };
    const whole = new Uint8Array(pending.bytes);
    for (let seq = 0, offset = 0; seq < pending.count; seq++) {
      const part = pending.parts.get(seq)!;
      whole.set(part, offset);
      offset += part.length;
    }
    this.#forget(id, pending);
    return evicted ? { kind: 'message', transientId: id, bytes: whole, evicted } : { kind: 'message', transientId: id, bytes: whole };
  }

  /** Forgets every partial message (the connection ended). */
  clear(): void {
    this.#pending.clear();
    this.#dropped.clear();
    this.#pendingBytes = 0;
  }

  #reject(id: bigint, code: number, message: string): ReassemblyResult {
    const first = this.#pending.get(id)?.first;
    this.#drop(id);
    return rejectedResult(code, message, id, first);
  }

  #evictOldest(reason: string, keep?: bigint): Evicted | undefined {
    for (const [id, pending] of this.#pending) {
      if (id === keep) continue;
      this.#drop(id);
      const evicted: Evicted = { transientId: id, error: new StatusError(StatusCode.DATA_LOSS, reason) };
      if (pending.first) evicted.firstPayload = pending.first;
      return evicted;
    }
    return undefined;
  }

  #drop(id: bigint): void {
    const pending = this.#pending.get(id);
    if (pending) this.#forget(id, pending);
    this.#dropped.add(id);
    // Remember only recent rejections: a peer's ids only grow, so old ones never come back.
    if (this.#dropped.size > 1024) this.#dropped.delete(this.#dropped.values().next().value as bigint);
  }

  #forget(id: bigint, pending: PendingMessage): void {
    this.#pendingBytes -= pending.bytes;
    this.#pending.delete(id);
  }

  #tryId(data: Uint8Array): bigint | undefined {
    if (data.length < COMPLETE_SUFFIX) return undefined;
    const kind = data[data.length - 1];
    if (kind !== PacketKind.FIRST && kind !== PacketKind.CONTINUATION) return undefined;
    return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(data.length - COMPLETE_SUFFIX, true);
  }
}

function rejectedResult(code: number, message: string, transientId?: bigint, firstPayload?: Uint8Array): ReassemblyResult {
  const result: ReassemblyResult = { kind: 'rejected', error: new StatusError(code, message) };
  if (transientId !== undefined) result.transientId = transientId;
  if (firstPayload !== undefined) result.firstPayload = firstPayload;
  return result;
}

function tooLarge(size: number, limit: number, atLeast = false): string {
  return `A message of ${atLeast ? 'at least ' : ''}${size} bytes exceeds the ${limit}-byte message limit (${limit / 1024 / 1024} MiB).`;
}

function malformed(what: string): StatusError {
  return new StatusError(StatusCode.INVALID_ARGUMENT, `Malformed packet: ${what}.`);
}
