import { describe, expect, it } from 'vitest';
import { Chunk } from '../../../wire/chunk.js';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import { lookup, contains, truncate, spreadItems, spreadPairs } from './access.js';
import { add, arithmetic, divide } from './arithmetic.js';
import { order, truthy, valuesEqual } from './compare.js';
import { asDouble, asDuration, asJson, asJsonText, asNumber, asText, asTime } from './convert.js';
import { compactJson } from './compact-json.js';
import { formatDouble } from './number-text.js';
import { statusCodeOf, statusOfRecord, statusRecord } from './status-record.js';
import { strformat } from './strformat.js';
import { durationText, parseDuration, parseTime, timeText } from './time.js';
import { ChunkValue, double, Duration, Instant, kindOf, newRecord, Real, type Value } from './value.js';
import { decodeChunk, itemMimetype, valueToChunk, valueToNodeChunk } from './chunks.js';
import { parseJson } from './json.js';

function record(entries: Record<string, Value>): Value {
  return Object.assign(newRecord(), entries);
}

describe('kinds', () => {
  it('tells integers from doubles, and boxes only whole doubles', () => {
    expect(kindOf(3)).toBe('integer');
    expect(kindOf(3.5)).toBe('double');
    expect(kindOf(new Real(3))).toBe('double');
    expect(double(2)).toBeInstanceOf(Real);
    expect(double(2.5)).toBe(2.5);
    expect(kindOf(null)).toBe('null');
    expect(kindOf(undefined as unknown as Value)).toBe('null');
    expect(kindOf(new Uint8Array(1))).toBe('bytes');
    expect(kindOf([1])).toBe('list');
    expect(kindOf({ a: 1 })).toBe('object');
    expect(kindOf(newRecord())).toBe('object');
    expect(kindOf(new Duration(1))).toBe('duration');
    expect(kindOf(new Instant(1n))).toBe('time');
    expect(kindOf(new ChunkValue(Chunk.text('x')))).toBe('chunk');
  });
});

describe('text', () => {
  it('renders scalars the way the reference does', () => {
    expect(asText(null)).toBe('');
    expect(asText(true)).toBe('true');
    expect(asText(3)).toBe('3');
    expect(asText(new Real(3))).toBe('3.0');
    expect(asText(3.5)).toBe('3.5');
    expect(asText(0.1)).toBe('0.1');
    expect(asText(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(asText(new Real(90))).toBe('90.0');
    expect(asText(new Real(1234567890123456))).toBe('1234567890123456.0');
    expect(asText(new Real(1e16))).toBe('1e+16');
    expect(asText(1e-5)).toBe('1e-05');
    expect(asText(new Real(1e20))).toBe('1e+20');
    expect(asText(1.5e-7)).toBe('1.5e-07');
    expect(formatDouble(-0)).toBe('-0.0');
    expect(formatDouble(0)).toBe('0.0');
    expect(formatDouble(Infinity)).toBe('inf');
    expect(formatDouble(-Infinity)).toBe('-inf');
    expect(formatDouble(NaN)).toBe('nan');
    expect(formatDouble(123.456)).toBe('123.456');
    expect(formatDouble(0.0001)).toBe('0.0001');
  });

  it('renders containers as sorted, ASCII-escaped JSON', () => {
    expect(asText(record({ b: 2, a: 'x' }))).toBe('{"a": "x", "b": 2}');
    expect(asText([1, null, new Real(2)])).toBe('[1, null, 2.0]');
    expect(asText(['é'])).toBe('["\\u00e9"]');
    expect(asText(['🙂'])).toBe('["\\ud83d\\ude42"]');
    expect(asText(['a"b\\c\nd\te\u0001'])).toBe('["a\\"b\\\\c\\nd\\te\\u0001"]');
    expect(asText([Duration.seconds(90), true])).toBe('["1m30s", true]');
    expect(asText(record({ z: new Real(1), '10': 2, é: 'ü' }))).toBe('{"10": 2, "z": 1.0, "\\u00e9": "\\u00fc"}');
  });

  it('writes what travels to an action as compact JSON in written order', () => {
    expect(compactJson(record({ b: 1, a: new Real(2), é: [true, null] }))).toBe('{"b":1,"a":2.0,"é":[true,null]}');
    expect(compactJson(Duration.seconds(90))).toBe('"1m30s"');
  });
});

describe('numbers', () => {
  it('reads numbers out of whatever arrived', () => {
    expect(asNumber(' 42 ')).toBe(42);
    expect(asNumber('-7')).toBe(-7);
    expect(asNumber('1.5')).toBe(1.5);
    expect(asNumber('1e3')).toEqual(new Real(1000));
    expect(asNumber('+5')).toEqual(new Real(5));
    expect(asNumber(' 0x1A ')).toEqual(new Real(26));
    expect(asDouble('inf')).toBe(Infinity);
    expect(asNumber('nonsense')).toBe(0);
    expect(asNumber('')).toBe(0);
    expect(asNumber(null)).toBe(0);
    expect(asNumber(true)).toBe(1);
    expect(asNumber([1, 2, 3])).toBe(3);
    expect(asNumber(record({ a: 1 }))).toBe(1);
    expect(asNumber(Duration.seconds(1.5))).toBe(1.5);
  });

  it('adds numbers as numbers, reading text as a number', () => {
    expect(add(1, 2)).toBe(3);
    expect(add(1.5, 1)).toBe(2.5);
    expect(add(0.5, 0.5)).toEqual(new Real(1));
    expect(add(1, '2')).toBe(3);
    expect(arithmetic('-', '3', 1.5)).toBe(1.5);
    expect(add(true, 1)).toBe(2);
    expect(add(null, 1)).toBe(1);
    expect(add([1, 2], 1)).toBe(3);
  });

  it('adds durations and instants the way times add', () => {
    expect(asText(add(Duration.seconds(30), Duration.seconds(30)))).toBe('1m');
    expect(asText(arithmetic('-', Duration.seconds(60), Duration.seconds(30)))).toBe('30s');
    expect(asText(add(Duration.seconds(30), 30))).toBe('1m');
    const when = parseTime('2026-08-05T21:54:22Z')!;
    expect(asText(add(when, Duration.seconds(60)))).toBe('2026-08-05T21:55:22Z');
    expect(asText(add(Duration.seconds(60), when))).toBe('2026-08-05T21:55:22Z');
    expect(asText(arithmetic('-', parseTime('2026-08-05T21:55:22Z')!, when))).toBe('1m');
    expect(asText(arithmetic('-', when, parseTime('2026-08-05T21:55:22Z')!))).toBe('-1m');
    expect(() => add(when, when)).toThrow(/can be subtracted, but not added/);
    expect(() => arithmetic('-', Duration.seconds(1), when)).toThrow(/cannot be subtracted from a duration/);
  });

  it('divides for a mean, keeping a duration a duration', () => {
    expect(divide(12, 3)).toEqual(new Real(4));
    expect(asText(divide(Duration.seconds(3), 2))).toBe('1s500ms');
    expect(divide(5, 0)).toBeNull();
  });
});

describe('truth, equality, order', () => {
  it('knows what counts as false', () => {
    for (const value of [null, false, 0, new Real(0), '', [], newRecord(), new Uint8Array(0)] as Value[]) {
      expect(truthy(value)).toBe(false);
    }
    for (const value of [true, 1, -1, 'x', [0], record({ a: null }), new Duration(0), new Instant(0n)] as Value[]) {
      expect(truthy(value)).toBe(true);
    }
  });

  it('compares numbers by value and containers by content', () => {
    expect(valuesEqual(2, new Real(2))).toBe(true);
    expect(valuesEqual(true, 1)).toBe(true);
    expect(valuesEqual('1', 1)).toBe(false);
    expect(valuesEqual(record({ a: 1, b: [2] }), record({ b: [2], a: 1 }))).toBe(true);
    expect(valuesEqual(record({ a: 1 }), record({ a: 1, b: 2 }))).toBe(false);
    expect(valuesEqual(null, null)).toBe(true);
    expect(valuesEqual(Duration.seconds(60), Duration.seconds(60))).toBe(true);
    expect(valuesEqual(new Uint8Array([1]), new Uint8Array([1]))).toBe(true);
  });

  it('orders without dying on mixed kinds', () => {
    expect(order('3', 5)).toBe(-1);
    expect(order('a', 'b')).toBe(-1);
    expect(order(Duration.seconds(10), Duration.seconds(9))).toBe(1);
    expect(order('10', '9')).toBe(-1);
    expect(order(2, 2)).toBe(0);
  });
});

describe('taking values apart', () => {
  it('answers nothing rather than failing', () => {
    expect(lookup(record({ a: 1 }), 'a')).toBe(1);
    expect(lookup(record({ a: 1 }), 'missing')).toBeNull();
    expect(lookup(null, 'a')).toBeNull();
    expect(lookup([1, 2], -1)).toBe(2);
    expect(lookup([1, 2], 9)).toBeNull();
    expect(lookup([1, 2], true)).toBe(2);
    expect(lookup([1, 2], 0.5)).toBeNull();
    expect(lookup('abc', 'length')).toBeNull();
    expect(lookup(record({ a: 1 }), 'toString')).toBeNull();
  });

  it('finds members of text, lists and records', () => {
    expect(contains([1, 2], new Real(1))).toBe(true);
    expect(contains(record({ b: 1 }), 'b')).toBe(true);
    expect(contains('hello', 'ell')).toBe(true);
    expect(contains(5, 5)).toBe(false);
  });

  it('truncates whatever it is', () => {
    expect(truncate('abcdef', 3)).toBe('abc');
    expect(truncate('éé', 1)).toBe('é');
    expect(truncate([1, 2], 1)).toEqual([1]);
    expect(asText(truncate(record({ a: 1, b: 2 }), 1))).toBe('{"a": 1}');
    expect(truncate(7, 1)).toBe(7);
  });

  it('spreads lists and records', () => {
    expect(spreadItems([1, 2])).toEqual([1, 2]);
    expect(spreadItems(null)).toEqual([]);
    expect(spreadItems('x')).toEqual(['x']);
    expect(spreadPairs(record({ a: 1 }))).toEqual([['a', 1]]);
    expect(spreadPairs('not a record')).toEqual([]);
  });
});

describe('durations and instants', () => {
  it('writes durations compactly', () => {
    expect(durationText(Duration.seconds(0))).toBe('0s');
    expect(durationText(Duration.seconds(30))).toBe('30s');
    expect(durationText(Duration.seconds(90))).toBe('1m30s');
    expect(durationText(Duration.seconds(0.25))).toBe('250ms');
    expect(durationText(Duration.seconds(60.5))).toBe('1m500ms');
    expect(durationText(Duration.seconds(-90))).toBe('-1m30s');
    expect(durationText(new Duration(Infinity))).toBe('forever');
    expect(durationText(Duration.seconds(90), 's')).toBe('90');
    expect(durationText(Duration.seconds(1.5), 's')).toBe('1.5');
    expect(durationText(new Duration(1_500_500))).toBe('1ms500us500ns');
    expect(durationText(new Duration(1_000_005_000))).toBe('1s5us');
    expect(durationText(new Duration(60_000_005_000))).toBe('1m');
    expect(durationText(Duration.seconds(5400))).toBe('1h30m');
  });

  it('reads durations back', () => {
    expect(parseDuration('30s')?.nanos).toBe(30e9);
    expect(parseDuration('1m30s')?.nanos).toBe(90e9);
    expect(parseDuration('1m30s500ms')?.nanos).toBe(90.5e9);
    expect(parseDuration('-1m30s')?.nanos).toBe(-90e9);
    expect(parseDuration('forever')?.isInfinite).toBe(true);
    expect(parseDuration('12')?.nanos).toBe(12e9);
    expect(parseDuration('1.5h')?.nanos).toBe(5400e9);
    expect(parseDuration('30 fortnights')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
    expect(asDuration(5).nanos).toBe(5e9);
    expect(asDuration('250ms').nanos).toBe(250e6);
  });

  it('writes and reads instants', () => {
    const when = Instant.fromSeconds(1786000462);
    expect(timeText(when)).toBe('2026-08-06T07:14:22Z');
    expect(timeText(when, '%H:%M:%S')).toBe('07:14:22');
    expect(timeText(when, '%Y/%m/%d %a %b %j')).toBe('2026/08/06 Thu Aug 218');
    expect(timeText(when, 'epoch')).toBe('1786000462');
    expect(asTime('2026-08-06T07:14:22Z').nanos).toBe(when.nanos);
    expect(asTime('2026-08-06 07:14:22').nanos).toBe(when.nanos);
    expect(asTime('2026-08-06T09:14:22+02:00').nanos).toBe(when.nanos);
    expect(asTime(1786000462).nanos).toBe(when.nanos);
    expect(timeText(new Instant(when.nanos + 250_000_000n))).toBe('2026-08-06T07:14:22.250000Z');
    expect(timeText(new Instant(0n))).toBe('1970-01-01T00:00:00Z');
    expect(timeText(Instant.fromSeconds(1.5))).toBe('1970-01-01T00:00:01.500000Z');
    expect(parseTime('2026-08-06')?.nanos).toBe(Instant.fromSeconds(1785974400).nanos);
    expect(parseTime('yesterday')).toBeUndefined();
  });
});

describe('strformat', () => {
  it('is printf and only printf', () => {
    expect(strformat('%s of %s', [1, 'two'])).toBe('1 of two');
    expect(strformat('%2$s then %1$s', ['a', 'b'])).toBe('b then a');
    expect(strformat('%-4s|', ['x'])).toBe('x   |');
    expect(strformat('%4s|', ['x'])).toBe('   x|');
    expect(strformat('%06.2f', [3.5])).toBe('003.50');
    expect(strformat('%d%%', [50])).toBe('50%');
    expect(strformat('100% done', [])).toBe('100% done');
    expect(strformat('%3$s', ['a'])).toBe('%3$s');
    expect(strformat('%d', ['42abc'])).toBe('0');
    expect(strformat('%d', [3.9])).toBe('3');
    expect(strformat('%d', [-3.9])).toBe('-3');
    expect(strformat('%+d % d', [5, 5])).toBe('+5  5');
    expect(strformat('%x %X %o %#x', [255, 255, 8, 255])).toBe('ff FF 10 0xff');
    expect(strformat('%x', [-1])).toBe('ffffffffffffffff');
    expect(strformat('%e', [12345.678])).toBe('1.234568e+04');
    expect(strformat('%g %g %g', [0.0001, 1e20, 100])).toBe('0.0001 1e+20 100');
    expect(strformat('%G', [1e-10])).toBe('1E-10');
    expect(strformat('%.3s', ['abcdef'])).toBe('abc');
    expect(strformat('%05d', [-42])).toBe('-0042');
    expect(strformat('%.2f', [Infinity])).toBe('inf');
    expect(strformat('%s', [null])).toBe('');
    expect(strformat('%s', [new Real(2)])).toBe('2.0');
    expect(strformat('%s %s', ['only'])).toBe('only %s');
  });

  it('applies a parenthesised spec to times and durations', () => {
    expect(strformat('took %(ms)dms', [Duration.seconds(1.5)])).toBe('took 1500ms');
    expect(strformat('%(s)s', [Duration.seconds(90)])).toBe('90');
    expect(strformat('%s', [Duration.seconds(90)])).toBe('1m30s');
    expect(strformat('%(%H:%M)s', [Instant.fromSeconds(1786000462)])).toBe('07:14');
    expect(strformat('%(epoch)d', [Instant.fromSeconds(1786000462)])).toBe('1786000462');
    expect(strformat('%(ms)s', ['not a duration'])).toBe('not a duration');
  });
});

describe('JSON', () => {
  it('keeps doubles and integers apart, and refuses what is not JSON', () => {
    expect(parseJson('{"a": [1, 2.0, 1e2, -0.5], "b": null}')).toEqual(
      Object.assign(newRecord(), { a: [1, new Real(2), new Real(100), -0.5], b: null }),
    );
    expect(parseJson('"\\u00e9\\n"')).toBe('é\n');
    expect(parseJson('{"a": 1} x')).toBeUndefined();
    expect(parseJson('')).toBeUndefined();
    expect(asJson('[1, "x"]')).toEqual([1, 'x']);
    expect(asJson('not json')).toBe('not json');
    expect(asJson(7)).toBe(7);
    expect(asJsonText(asJson('{"b": 1, "a": true}'))).toBe('{"a": true, "b": 1}');
  });
});

describe('status records', () => {
  it('turns a status into data and back', () => {
    const data = statusRecord(new Status(StatusCode.NOT_FOUND, 'no such page'));
    expect(asText(data)).toBe('{"code": "NOT_FOUND", "message": "no such page", "number": 5, "ok": false}');
    expect(statusOfRecord(data)).toEqual(new Status(StatusCode.NOT_FOUND, 'no such page'));
    expect(statusCodeOf('not_found')).toBe(5);
    expect(statusCodeOf('NOT-FOUND')).toBe(5);
    expect(statusCodeOf('Not_Found')).toBeUndefined();
    expect(statusCodeOf(7)).toBe(7);
    expect(statusCodeOf(99)).toBeUndefined();
    expect(statusCodeOf(true)).toBeUndefined();
    expect(statusOfRecord(record({ number: 3 })).code).toBe(3);
    expect(statusOfRecord(record({})).code).toBe(StatusCode.UNKNOWN);
  });
});

describe('chunks', () => {
  it('decodes a chunk by its media type', () => {
    expect(decodeChunk(Chunk.fromBytes('application/json', new TextEncoder().encode('{"a": 1}')))).toEqual({ a: 1 });
    expect(decodeChunk(Chunk.fromBytes('application/json', new TextEncoder().encode('not json')))).toBe('not json');
    expect(decodeChunk(Chunk.fromBytes('text/markdown', new TextEncoder().encode('# hi')))).toBe('# hi');
    expect(decodeChunk(Chunk.bytes(new Uint8Array([1, 2])))).toEqual(new Uint8Array([1, 2]));
    expect(decodeChunk(Chunk.msgpack({ a: [1, 'x'] }))).toEqual({ a: [1, 'x'] });
  });

  it('writes a value by the type of the port it goes to', () => {
    expect(valueToChunk('hi', 'text/plain').mimetype).toBe('text/plain');
    expect(valueToChunk('hi', 'text/plain').value).toBe('hi');
    expect(valueToChunk('hi').mimetype).toBe('application/json');
    expect(new TextDecoder().decode(valueToChunk(record({ b: 1, a: new Real(2) })).bytes)).toBe('{"b":1,"a":2.0}');
    expect(valueToChunk(new Uint8Array([1]), 'audio/wav').mimetype).toBe('audio/wav');
    expect(valueToChunk(new Uint8Array([1]), 'application/json').mimetype).toBe('application/octet-stream');
    expect(valueToChunk(record({ a: 1 }), 'application/x-msgpack').value).toEqual({ a: 1 });
    const chunk = Chunk.text('kept');
    expect(valueToChunk(new ChunkValue(chunk))).toBe(chunk);
    expect(itemMimetype(chunk)).toBe('text/plain');
    expect(itemMimetype(3)).toBe('application/json');
  });

  it('keeps a value whole in a node of the flow, encoding only when asked', () => {
    const value = record({ when: Duration.seconds(90), mean: new Real(4) });
    const chunk = valueToNodeChunk(value);
    expect(decodeChunk(chunk)).toBe(value);
    expect(new TextDecoder().decode(chunk.bytes)).toBe('{"when":"1m30s","mean":4}');
  });
});

describe('errors', () => {
  it('raises status errors with canonical codes', () => {
    try {
      add(new Instant(0n), new Instant(0n));
    } catch (error) {
      expect(error).toBeInstanceOf(StatusError);
      expect((error as StatusError).code).toBe(StatusCode.INVALID_ARGUMENT);
    }
  });
});
