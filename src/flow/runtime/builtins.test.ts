import { describe, expect, it } from 'vitest';
import { Chunk } from '../../wire/chunk.js';
import { builtins } from '../vocabulary.js';
import { builtinNames, callBuiltin } from './builtins.js';
import { asText } from './values/convert.js';
import { NO_HOST_TYPES } from './values/host-types.js';
import { ChunkValue, Duration, Instant, newRecord, Real, type Value } from './values/value.js';

const context = { types: NO_HOST_TYPES };

function call(name: string, ...args: Value[]): Value {
  return callBuiltin(name, args, context);
}

function text(name: string, ...args: Value[]): string {
  return asText(call(name, ...args));
}

function record(entries: Record<string, Value>): Value {
  return Object.assign(newRecord(), entries);
}

describe('the built-in functions', () => {
  it('implements exactly the vocabulary’s 31', () => {
    expect([...builtinNames].sort()).toEqual(builtins.map((builtin) => builtin.name).sort());
    expect(builtinNames).toHaveLength(31);
  });

  it('measures and changes text', () => {
    expect(call('len', 'héllo')).toBe(5);
    expect(call('len', '🙂')).toBe(1);
    expect(call('len', new Uint8Array(3))).toBe(3);
    expect(call('len', [1, 2])).toBe(2);
    expect(call('len', record({ a: 1 }))).toBe(1);
    expect(call('len', 42)).toBe(0);
    expect(call('lower', 'ÀB')).toBe('Àb');
    expect(call('upper', 'ab')).toBe('AB');
    expect(call('trim', '  x \n')).toBe('x');
    expect(call('text', new Real(3))).toBe('3.0');
    expect(call('number', '12')).toBe(12);
    expect(call('bool', '')).toBe(false);
    expect(text('replace', 'a-b-c', '-', '+')).toBe('a+b+c');
    expect(text('replace', 'aaa', 'a', 'bb')).toBe('bbbbbb');
    expect(text('replace', 'abc', '', 'x')).toBe('abc');
    expect(text('slice', 'abcdef', 1, 3)).toBe('bc');
    expect(text('slice', 'abcdef', -2)).toBe('ef');
    expect(text('slice', 'héllo', 1, 3)).toBe('él');
    expect(text('slice', [1, 2, 3], -2)).toBe('[2, 3]');
    expect(call('slice', new Uint8Array([1, 2, 3]), 1)).toEqual(new Uint8Array([2, 3]));
    expect(call('slice', 7, 1)).toBe(7);
  });

  it('splits and joins', () => {
    expect(text('join', ['a', 'b'], '-')).toBe('a-b');
    expect(text('join', ['a', 1, null])).toBe('a1');
    expect(text('join', 'single')).toBe('single');
    expect(text('split', 'a b  c')).toBe('["a", "b", "c"]');
    expect(text('split', ' a b ')).toBe('["a", "b"]');
    expect(text('split', 'a  b', ' ')).toBe('["a", "", "b"]');
    expect(text('split', '', ',')).toBe('[""]');
    expect(text('split', 'a,b,', ',')).toBe('["a", "b", ""]');
  });

  it('reads records and lists', () => {
    expect(text('keys', record({ b: 1, a: 2 }))).toBe('["a", "b"]');
    expect(text('values', record({ b: 1, a: 2 }))).toBe('[2, 1]');
    expect(text('values', [3, 4])).toBe('[3, 4]');
    expect(text('keys', 'nope')).toBe('[]');
    expect(call('get', record({ a: 1 }), 'b', 'fallback')).toBe('fallback');
    expect(call('get', [5, 6], 1)).toBe(6);
    expect(call('get', record({ a: 1 }), 'b')).toBeNull();
    expect(text('merge', record({ a: 1 }), 5, record({ a: 2, b: null }))).toBe('{"a": 2, "b": null}');
    expect(call('contains', 'hello', 'ell')).toBe(true);
    expect(call('starts-with', 'hello', ['x', 'he'])).toBe(true);
    expect(call('ends-with', 'done.', ['.', '?'])).toBe(true);
    expect(call('ends-with', 'done', '.')).toBe(false);
    expect(call('default', '', 'fallback')).toBe('fallback');
    expect(call('default', 0, 'fallback')).toBe(0);
    expect(call('default', [], 1)).toBe(1);
    expect(call('default', null, 1)).toBe(1);
  });

  it('matches patterns, answering null where they do not fit', () => {
    expect(text('match', 'name={name} age={age:int}', 'name=Alice   age=27')).toBe('{"age": 27, "name": "Alice"}');
    expect(call('match', 'name={name}', 'nothing here')).toBeNull();
    expect(text('match', '{}:{}', 'left:right')).toBe('["left", "right"]');
    expect(text('match', 'took {d:duration}', 'took 1m30s')).toBe('{"d": "1m30s"}');
    expect(call('match', 'ok={ok:bool}', 'ok=TRUE')).toEqual(record({ ok: true }));
    expect(() => call('match', 'name={name', 'x')).toThrow(/cannot be read/);
  });

  it('formats with printf', () => {
    expect(call('strformat', '%s!', 'hi')).toBe('hi!');
    expect(call('strformat', '%05.1f|%-3d|', 3.14159, 7)).toBe('003.1|7  |');
  });

  it('encodes base64 both ways in both alphabets', () => {
    expect(call('b64encode', 'hi there')).toBe('aGkgdGhlcmU=');
    expect(call('b64encode', 'hi')).toBe('aGk=');
    expect(call('b64urlencode', 'hi')).toBe('aGk');
    expect(call('b64decode', 'aGk=')).toBeInstanceOf(Uint8Array);
    expect(text('b64decode', ' aGk= ')).toBe('hi');
    expect(text('b64urldecode', 'aGk')).toBe('hi');
    expect(text('b64urldecode', 'aGk=')).toBe('hi');
    expect(call('b64encode', call('b64decode', '++//'))).toBe('++//');
    expect(call('b64urlencode', call('b64decode', '++//'))).toBe('--__');
    expect(call('b64encode', call('b64urldecode', '--__'))).toBe('++//');
    expect(() => call('b64decode', 'not base64 at all!')).toThrow(/not base64/);
  });

  it('reads and writes times', () => {
    expect(call('now')).toBeInstanceOf(Instant);
    expect(text('duration', '1m30s')).toBe('1m30s');
    expect(text('duration', 90)).toBe('1m30s');
    expect(text('time', 0)).toBe('1970-01-01T00:00:00Z');
    expect(text('seconds', call('duration', '1m30s'))).toBe('90.0');
    expect(call('seconds', Duration.seconds(1.5))).toBe(1.5);
  });

  it('makes and opens chunks', () => {
    const made = call('to_chunk', record({ a: 1 }));
    expect(made).toBeInstanceOf(ChunkValue);
    expect((made as ChunkValue).chunk.mimetype).toBe('application/json');
    expect(text('from_chunk', made)).toBe('{"a": 1}');
    expect((call('to_chunk', 'hi', 'text/plain') as ChunkValue).chunk.value).toBe('hi');
    expect(call('from_chunk', new ChunkValue(Chunk.text('plain')))).toBe('plain');
    expect(call('from_chunk', 5)).toBe(5);
  });

  it('refuses a function the language does not have', () => {
    expect(() => call('nonesuch', 'x')).toThrow(/Unknown function 'nonesuch'/);
    expect(() => call('toString')).toThrow(/Unknown function/);
  });
});
