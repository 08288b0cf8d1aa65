import { decode, encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { concatBytes } from './msgpack-fields.js';
import {
  decodeActionMessage,
  decodeChunk,
  decodeNodeFragment,
  decodeWireMessage,
  encodeActionMessage,
  encodeChunk,
  encodeNodeFragment,
  encodeWireMessage,
  peekName,
  type NodeFragmentRecord,
  type WireMessageRecord,
} from './records.js';
import { StatusCode, StatusError } from './status.js';

const text = (s: string) => new TextEncoder().encode(s);
const run = (...values: unknown[]) => concatBytes(values.map((value) => encode(value)));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function fragment(id: string, value: string, seq: number | null, continued: boolean): NodeFragmentRecord {
  return {
    id,
    payload: { chunk: { metadata: { mimetype: 'text/plain', timestamp: null, attributes: new Map() }, ref: '', data: text(value) } },
    seq,
    continued,
  };
}

describe('record layout', () => {
  it('writes a chunk as metadata bin, ref and data, metadata being mimetype, timestamp and attributes', () => {
    const bytes = encodeChunk({
      metadata: { mimetype: 'text/plain', timestamp: 1_700_000_000_000_000n, attributes: new Map([['level', text('info')]]) },
      ref: '',
      data: text('hi'),
    });
    const metadata = run('text/plain', 1_700_000_000_000_000, { level: text('info') });
    expect(hex(bytes)).toBe(hex(run(metadata, '', text('hi'))));
    // The timestamp is a msgpack integer (uint64 here), never a float.
    expect(metadata.includes(0xcb)).toBe(false);
  });

  it('writes a fragment as id, variant, data bin, seq and continued', () => {
    const record = fragment('c1#out', 'x', 3, true);
    const chunk = encodeChunk(record.payload.chunk!);
    expect(hex(encodeNodeFragment(record))).toBe(hex(run('c1#out', 0, chunk, 3, true)));
    expect(hex(encodeNodeFragment({ ...record, seq: null, continued: false }))).toBe(hex(run('c1#out', 0, chunk, null, false)));
  });

  it('writes an action message with ports as nested records and headers as bytes', () => {
    const bytes = encodeActionMessage({
      id: 'c1',
      name: 'flow_actions',
      inputs: [],
      outputs: [{ name: 'actions', id: 'c1#actions' }],
      headers: new Map([['x-a11-deadline', text('1700000000000')]]),
    });
    expect(hex(bytes)).toBe(hex(run('c1', 'flow_actions', [], [run('actions', 'c1#actions')], { 'x-a11-deadline': text('1700000000000') })));
  });

  it('writes a wire message as version 1, fragment bins, action bins and headers', () => {
    const message: WireMessageRecord = { fragments: [fragment('n', 'v', 0, false)], actions: [], headers: new Map() };
    const bytes = encodeWireMessage(message);
    expect(hex(bytes)).toBe(hex(run(1, [encodeNodeFragment(message.fragments[0]!)], [], {})));
    // The empty half-close message is the four fields and nothing else.
    expect(hex(encodeWireMessage({ fragments: [], actions: [], headers: new Map() }))).toBe('019090' + '80');
  });
});

describe('record round trips', () => {
  it('reads back what it writes, including node refs and sticky (empty) media types', () => {
    const message: WireMessageRecord = {
      fragments: [
        fragment('a#b', 'hello', 0, true),
        { id: 'a#b', payload: { nodeRef: { id: 'other', offset: 2, length: 5 } }, seq: 1, continued: false },
        { id: '', payload: { chunk: { metadata: null, ref: 'blob-1', data: new Uint8Array() } }, seq: null, continued: false },
      ],
      actions: [{ id: 'c9', name: 'echo', inputs: [{ name: 'in', id: 'c9#in' }], outputs: [{ name: 'out', id: 'x' }], headers: new Map([['k', text('v')]]) }],
      headers: new Map([['x-a11-session-status', new Uint8Array([0, 0xa0, 0x90])]]),
    };
    const decoded = decodeWireMessage(encodeWireMessage(message));
    expect(decoded.rejected).toEqual([]);
    expect(decoded.fragments).toEqual(message.fragments);
    expect(decoded.actions).toEqual(message.actions);
    expect([...decoded.headers]).toEqual([...message.headers]);
  });

  it('keeps 64-bit timestamps exact', () => {
    const far = 9_007_199_254_740_993n; // above 2^53
    const chunk = decodeChunk(encodeChunk({ metadata: { mimetype: 'a/b', timestamp: far, attributes: new Map() }, ref: '', data: new Uint8Array() }));
    expect(chunk.metadata!.timestamp).toBe(far);
    const negative = decodeChunk(encodeChunk({ metadata: { mimetype: 'a/b', timestamp: -5n, attributes: new Map() }, ref: '', data: new Uint8Array() }));
    expect(negative.metadata!.timestamp).toBe(-5n);
  });
});

describe('bad records', () => {
  const status = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(StatusError);
      return (error as StatusError).status;
    }
    throw new Error('expected a StatusError');
  };

  it('refuses the wrong number of fields, wrong types and unknown variants with INVALID_ARGUMENT', () => {
    expect(status(() => decodeChunk(run(null, '')))).toMatchObject({ code: StatusCode.INVALID_ARGUMENT });
    expect(status(() => decodeChunk(run(null, '', text('x'), 1))).message).toMatch(/more than/);
    expect(status(() => decodeNodeFragment(run('n', 0, 'not bin', 0, false))).message).toMatch(/NodeFragment.data must be msgpack bin/);
    expect(status(() => decodeNodeFragment(run('n', 7, new Uint8Array(), 0, false))).message).toMatch(/unknown data variant 7/);
    expect(status(() => decodeNodeFragment(run('n', 0, encodeChunk({ metadata: null, ref: '', data: new Uint8Array() }), -1, false))).message).toMatch(/seq/);
    expect(status(() => decodeNodeFragment(run('n', 0, encodeChunk({ metadata: null, ref: '', data: new Uint8Array() }), 2 ** 32, false))).message).toMatch(/limit/);
    expect(status(() => decodeChunk(run(null, 'ref', text('x')))).message).toMatch(/either a ref or data/);
  });

  it('refuses bad names on both sides', () => {
    expect(status(() => encodeNodeFragment(fragment('-bad', 'x', 0, false))).message).toMatch(/Invalid node id '-bad'/);
    expect(status(() => decodeActionMessage(run('c1', 'has space', [], [], {}))).message).toMatch(/Invalid action name/);
    expect(status(() => decodeActionMessage(run('c1', 'ok', [], [], { 'Bad Header': text('x') }))).message).toMatch(/Invalid header name/);
  });

  it('rejects one bad element of a message and keeps the others, naming the rejected one when it can', () => {
    const good = encodeNodeFragment(fragment('good', 'v', 0, false));
    const badVariant = run('c7#in', 9, new Uint8Array(), 0, false);
    const badAction = run('c8', 'bad name!', [], [], {});
    const decoded = decodeWireMessage(run(1, [good, badVariant], [badAction], {}));
    expect(decoded.fragments.map((f) => f.id)).toEqual(['good']);
    expect(decoded.rejected).toHaveLength(2);
    expect(decoded.rejected[0]).toMatchObject({ kind: 'fragment', index: 1, id: 'c7#in' });
    expect(decoded.rejected[1]).toMatchObject({ kind: 'action', index: 0, id: 'c8' });
    expect(decoded.rejected[0]!.error.status.message).toMatch(/variant 9/);
  });

  it('refuses an unknown version and a broken envelope outright', () => {
    expect(status(() => decodeWireMessage(run(2, [], [], {}))).message).toMatch(/version 2/);
    expect(status(() => decodeWireMessage(run(1, [], [])))).toMatchObject({ code: StatusCode.INVALID_ARGUMENT });
    expect(status(() => decodeWireMessage(new Uint8Array([0xc1])))).toMatchObject({ code: StatusCode.INVALID_ARGUMENT });
    expect(status(() => decodeWireMessage(run(1, 'x', [], {}))).message).toMatch(/node_fragments must be an array/);
  });

  it('peeks the leading name of a cut-off record', () => {
    const whole = run('abc#def', 0, new Uint8Array(100));
    expect(peekName(whole.subarray(0, 10))).toBe('abc#def');
    expect(peekName(run(12))).toBeUndefined();
    expect(peekName(run('no spaces allowed'))).toBeUndefined();
    expect(decode(whole.subarray(0, 8))).toBe('abc#def');
  });
});
