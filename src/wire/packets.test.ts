import { describe, expect, it } from 'vitest';
import { PacketKind, PacketReassembler, parsePacket, splitIntoPackets, DEFAULT_SPLIT_SIZE } from './packets.js';
import { StatusCode } from './status.js';

function bytes(length: number, seed = 1): Uint8Array {
  const result = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    result[i] = state >>> 24;
  }
  return result;
}

function shuffle<T>(items: T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  for (let i = result.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) >>> 0;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

describe('packet layout', () => {
  it('sends a small message as one COMPLETE packet: payload, transient id u64 LE, kind 0x00', () => {
    const [packet, ...rest] = splitIntoPackets(new Uint8Array([0xaa, 0xbb]), 0x0102030405060708n);
    expect(rest).toEqual([]);
    expect([...packet!]).toEqual([0xaa, 0xbb, 8, 7, 6, 5, 4, 3, 2, 1, 0x00]);
  });

  it('splits at the 64 KiB boundary: exactly splitSize-9 bytes still fit one packet', () => {
    expect(splitIntoPackets(bytes(DEFAULT_SPLIT_SIZE - 9), 1n)).toHaveLength(1);
    const packets = splitIntoPackets(bytes(DEFAULT_SPLIT_SIZE - 8), 1n);
    expect(packets).toHaveLength(2);
    expect(packets.every((packet) => packet.length <= DEFAULT_SPLIT_SIZE)).toBe(true);
  });

  it('writes FIRST as payload, count u32, seq 0, id, 0x02 and continuations as payload, seq u32, id, 0x01', () => {
    const packets = splitIntoPackets(bytes(40), 5n, 30);
    const first = packets[0]!;
    expect(first.length).toBe(30);
    expect(first[first.length - 1]).toBe(PacketKind.FIRST);
    const view = new DataView(first.buffer);
    expect(view.getUint32(first.length - 17, true)).toBe(packets.length);
    expect(view.getUint32(first.length - 13, true)).toBe(0);
    expect(view.getBigUint64(first.length - 9, true)).toBe(5n);
    const second = packets[1]!;
    expect(second[second.length - 1]).toBe(PacketKind.CONTINUATION);
    expect(new DataView(second.buffer).getUint32(second.length - 13, true)).toBe(1);
    expect(packets.map((p) => parsePacket(p).payload.length).reduce((a, b) => a + b)).toBe(40);
  });

  it('rejects malformed packets with INVALID_ARGUMENT', () => {
    expect(() => parsePacket(new Uint8Array(3))).toThrow(/shorter than any packet suffix/);
    expect(() => parsePacket(new Uint8Array([...new Uint8Array(12), 0x07]))).toThrow(/unknown packet kind 0x07/);
    expect(() => parsePacket(new Uint8Array([...new Uint8Array(11), 0x02]))).toThrow(/shorter than its 17-byte suffix/);
    const first = splitIntoPackets(bytes(100), 1n, 40)[0]!;
    new DataView(first.buffer).setUint32(first.length - 13, 3, true);
    expect(() => parsePacket(first)).toThrow(/seq 3, not 0/);
  });
});

describe('reassembly', () => {
  it('puts interleaved, out-of-order split messages back together', () => {
    const messages = [bytes(300_000, 1), bytes(5, 2), bytes(150_000, 3), bytes(70_000, 4)];
    const packets = messages.flatMap((message, index) => splitIntoPackets(message, BigInt(index)));
    const reassembler = new PacketReassembler();
    const done = new Map<bigint, Uint8Array>();
    for (const packet of shuffle(packets, 42)) {
      const result = reassembler.feed(packet);
      expect(result.kind).not.toBe('rejected');
      if (result.kind === 'message') done.set(result.transientId, result.bytes);
    }
    expect(done.size).toBe(4);
    messages.forEach((message, index) => expect(Buffer.compare(done.get(BigInt(index))!, message)).toBe(0));
    expect(reassembler.pendingMessages).toBe(0);
    expect(reassembler.pendingBytes).toBe(0);
  });

  it('rejects messages over 32 MiB as RESOURCE_EXHAUSTED and drops the rest of their packets', () => {
    const reassembler = new PacketReassembler({ maxMessageSize: 1000 });
    const packets = splitIntoPackets(bytes(5000), 9n, 200);
    const results = packets.map((packet) => reassembler.feed(packet));
    const rejected = results.filter((result) => result.kind === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ transientId: 9n });
    if (rejected[0]!.kind === 'rejected') {
      expect(rejected[0]!.error.code).toBe(StatusCode.RESOURCE_EXHAUSTED);
      expect(rejected[0]!.firstPayload?.length).toBeGreaterThan(0);
    }
    expect(reassembler.pendingBytes).toBe(0);
    // The connection carries on with the next message.
    const next = reassembler.feed(splitIntoPackets(bytes(10), 10n)[0]!);
    expect(next.kind).toBe('message');
  });

  it('rejects a complete packet over the message limit, and oversized packets', () => {
    const reassembler = new PacketReassembler({ maxMessageSize: 100, maxPacketSize: 200 });
    expect(reassembler.feed(splitIntoPackets(bytes(150), 1n, 200)[0]!)).toMatchObject({ kind: 'rejected' });
    expect(reassembler.feed(splitIntoPackets(bytes(500), 2n, 1000)[0]!)).toMatchObject({ kind: 'rejected' });
  });

  it('bounds the split messages in flight, giving up on the oldest unfinished one', () => {
    const reassembler = new PacketReassembler({ maxPendingMessages: 3 });
    const messages = [0n, 1n, 2n, 3n].map((id) => splitIntoPackets(bytes(100), id, 40));
    expect(messages.slice(0, 3).map((packets) => reassembler.feed(packets[0]!).kind)).toEqual(['pending', 'pending', 'pending']);
    const fourth = reassembler.feed(messages[3]![0]!);
    expect(fourth).toMatchObject({ kind: 'pending', evicted: { transientId: 0n } });
    if (fourth.kind === 'pending') expect(fourth.evicted!.error.code).toBe(StatusCode.DATA_LOSS);
    expect(reassembler.pendingMessages).toBe(3);
    // The evicted message's stragglers are dropped; the newest completes.
    expect(reassembler.feed(messages[0]![1]!).kind).toBe('pending');
    const rest = messages[3]!.slice(1).map((packet) => reassembler.feed(packet));
    expect(rest.at(-1)!.kind).toBe('message');
  });

  it('bounds the bytes of split messages in flight the same way', () => {
    const reassembler = new PacketReassembler({ maxPendingBytes: 250, maxMessageSize: 1000 });
    const first = splitIntoPackets(bytes(400), 1n, 200);
    const second = splitIntoPackets(bytes(400), 2n, 200);
    reassembler.feed(first[0]!);
    const result = reassembler.feed(second[0]!);
    expect(result).toMatchObject({ kind: 'pending', evicted: { transientId: 1n } });
    expect(reassembler.pendingBytes).toBeLessThanOrEqual(250);
  });

  it('rejects repeated and out-of-range packets of a message', () => {
    const reassembler = new PacketReassembler();
    const packets = splitIntoPackets(bytes(100), 4n, 40);
    reassembler.feed(packets[1]!);
    const repeat = reassembler.feed(packets[1]!);
    expect(repeat).toMatchObject({ kind: 'rejected' });
    const other = splitIntoPackets(bytes(100), 6n, 40);
    const wrong = new Uint8Array(other[1]!);
    new DataView(wrong.buffer).setUint32(wrong.length - 13, 50, true);
    reassembler.feed(other[0]!);
    expect(reassembler.feed(wrong)).toMatchObject({ kind: 'rejected' });
  });

  it('refuses a first packet declaring more packets than the size limit allows', () => {
    const reassembler = new PacketReassembler({ maxMessageSize: 1000 });
    const first = new Uint8Array(splitIntoPackets(bytes(100), 1n, 40)[0]!);
    new DataView(first.buffer).setUint32(first.length - 17, 1_000_000, true);
    const result = reassembler.feed(first);
    expect(result).toMatchObject({ kind: 'rejected' });
  });
});
