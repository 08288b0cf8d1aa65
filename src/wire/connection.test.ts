import { describe, expect, it } from 'vitest';
import { Chunk } from './chunk.js';
import { ABORT_STATUS_HEADER, SESSION_STATUS_HEADER, WireConnection, type BinarySocket, type ConnectionEvents, type SocketEvents } from './connection.js';
import { PacketReassembler } from './packets.js';
import { decodeWireMessage, type DecodedWireMessage, type NodeFragmentRecord } from './records.js';
import { Status, StatusCode } from './status.js';
import { unpackStatus } from './status-codec.js';
import { chunkToRecord } from './wire-chunk.js';

/** Two sockets joined back to back in memory; what one sends the other receives on the next tick. */
function socketPair(): [FakeSocket, FakeSocket] {
  const a = new FakeSocket();
  const b = new FakeSocket();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class FakeSocket implements BinarySocket {
  peer: FakeSocket | undefined;
  events: SocketEvents | undefined;
  sent: Uint8Array[] = [];
  closedWith: [number, string] | undefined;
  bufferedAmount = 0;
  send(packet: Uint8Array): void {
    if (this.closedWith) throw new Error('closed');
    this.sent.push(packet);
    const peer = this.peer;
    setTimeout(() => peer?.events?.packet(packet), 0);
  }
  close(code: number, reason: string): void {
    if (this.closedWith) return;
    this.closedWith = [code, reason];
    const peer = this.peer;
    setTimeout(() => {
      this.events?.closed(code, reason);
      peer?.close(code, reason);
    }, 0);
  }
  listen(events: SocketEvents): void {
    this.events = events;
  }
}

function recorder() {
  const record = { messages: [] as DecodedWireMessage[], finished: 0, ended: undefined as Status | undefined };
  const events: ConnectionEvents = {
    message: (message) => record.messages.push(message),
    problem: () => {},
    peerFinished: () => record.finished++,
    ended: (status) => (record.ended = status),
  };
  return { record, events };
}

const fragment = (id: string, value: string): NodeFragmentRecord => ({ id, payload: { chunk: chunkToRecord(Chunk.text(value)) }, seq: 0, continued: true });
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function decodeSent(socket: FakeSocket): DecodedWireMessage[] {
  const reassembler = new PacketReassembler();
  const messages: DecodedWireMessage[] = [];
  for (const packet of socket.sent) {
    const result = reassembler.feed(packet);
    if (result.kind === 'message') messages.push(decodeWireMessage(result.bytes));
  }
  return messages;
}

describe('WireConnection', () => {
  it('merges what is sent in one turn into one message, never moving an action behind a fragment', async () => {
    const [a, b] = socketPair();
    const sender = new WireConnection(a);
    sender.start(recorder().events);
    new WireConnection(b).start(recorder().events);
    sender.send({ fragments: [fragment('n1', 'x')], actions: [], headers: new Map() });
    sender.send({ fragments: [fragment('n1', 'y')], actions: [], headers: new Map() });
    sender.send({ fragments: [], actions: [{ id: 'c1', name: 'act', inputs: [], outputs: [], headers: new Map() }], headers: new Map() });
    sender.send({ fragments: [fragment('c1#in', 'z')], actions: [], headers: new Map() });
    await settle();
    const sent = decodeSent(a);
    expect(sent.map((message) => [message.actions.map((x) => x.id), message.fragments.map((x) => x.id)])).toEqual([
      [[], ['n1', 'n1']],
      [['c1'], ['c1#in']],
    ]);
  });

  it('refuses a message over 32 MiB at once, sending nothing', () => {
    const [a] = socketPair();
    const connection = new WireConnection(a);
    connection.start(recorder().events);
    const huge = { id: 'n', payload: { chunk: chunkToRecord(Chunk.bytes(new Uint8Array(33 * 1024 * 1024))) }, seq: 0, continued: false };
    expect(() => connection.send({ fragments: [huge], actions: [], headers: new Map() })).toThrow(/32 MiB/);
    expect(a.sent).toEqual([]);
  });

  it('half-closes with an OK session status both ways, then closes the socket with 1000', async () => {
    const [a, b] = socketPair();
    const left = new WireConnection(a);
    const right = new WireConnection(b);
    const l = recorder();
    const r = recorder();
    left.start(l.events);
    right.start(r.events);
    left.finish(new Map([['x-session', new TextEncoder().encode('left')]]));
    await settle();
    const [trailer] = decodeSent(a);
    expect(unpackStatus(trailer!.headers.get(SESSION_STATUS_HEADER)!).ok).toBe(true);
    expect(trailer!.headers.has(ABORT_STATUS_HEADER)).toBe(false);
    expect(r.record.finished).toBe(1);
    right.finish();
    await settle();
    expect(a.closedWith).toEqual([1000, 'A11 stream complete']);
    expect(l.record.ended).toEqual(Status.OK);
    expect(r.record.ended).toEqual(Status.OK);
    expect(() => left.send({ fragments: [fragment('n', 'late')], actions: [], headers: new Map() })).toThrow();
  });

  it('aborts with the failure in the session status and ABORTED in the abort status; the peer ends with the failure', async () => {
    const [a, b] = socketPair();
    const left = new WireConnection(a);
    const r = recorder();
    left.start(recorder().events);
    new WireConnection(b).start(r.events);
    left.abort(new Status(StatusCode.PERMISSION_DENIED, 'not allowed'));
    await settle();
    const [trailer] = decodeSent(a);
    expect(unpackStatus(trailer!.headers.get(SESSION_STATUS_HEADER)!)).toMatchObject({ code: StatusCode.PERMISSION_DENIED, message: 'not allowed' });
    expect(unpackStatus(trailer!.headers.get(ABORT_STATUS_HEADER)!).code).toBe(StatusCode.ABORTED);
    expect(r.record.ended).toMatchObject({ code: StatusCode.PERMISSION_DENIED, message: 'not allowed' });
  });

  it('ends UNAVAILABLE when the socket closes before the peer finished', async () => {
    const [a, b] = socketPair();
    const r = recorder();
    new WireConnection(a).start(recorder().events);
    new WireConnection(b).start(r.events);
    a.close(1006, '');
    await settle();
    expect(r.record.ended).toMatchObject({ code: StatusCode.UNAVAILABLE, message: expect.stringMatching(/before the peer ended the session/) });
  });
});
