import { describe, expect, it } from 'vitest';
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { Constant, FieldShape, StructShape, TypeRef } from '../../program.js';
import { coerce, structsByName, type CoerceContext } from './coerce.js';
import { asText } from './convert.js';
import { HostTypes, taggedRecordType, TaggedRecord } from './host-types.js';
import { ChunkValue, Duration, Instant, newRecord, type Value } from './value.js';

const span = { from: 0, to: 0 };

function field(name: string, type: string, extra: Partial<FieldShape> = {}): FieldShape {
  return {
    name,
    declared: type,
    type,
    element: null,
    struct: null,
    elementStruct: null,
    required: false,
    unique: false,
    bounds: null,
    pattern: null,
    oneOf: null,
    defaultValue: null,
    description: '',
    at: span,
    ...extra,
  };
}

const integer = (value: number): Constant => ({ kind: 'integer', value });
const string = (value: string): Constant => ({ kind: 'string', value });

const hit: StructShape = {
  name: 'Hit',
  description: '',
  binary: false,
  at: span,
  fields: [
    field('url', 'string', { required: true }),
    field('score', 'number', { bounds: { minimum: integer(0), maximum: integer(10) }, defaultValue: integer(1) }),
    field('tags', 'list', { element: 'string', unique: true }),
    field('kind', 'string', { oneOf: [string('a'), string('b')], defaultValue: string('a') }),
    field('name', 'string', { pattern: '^[a-z]+$' }),
  ],
};

const page: StructShape = {
  name: 'Page',
  description: '',
  binary: false,
  at: span,
  fields: [field('best', 'Hit', { struct: 'Hit', required: true }), field('rest', 'list', { element: 'Hit', elementStruct: 'Hit' })],
};

const types = new HostTypes().register(taggedRecordType('a11.test.Note'));
const context: CoerceContext = { structs: structsByName([hit, page]), types };

function type(name: string, ...parameters: TypeRef[]): TypeRef {
  return { declared: name, name, struct: context.structs.has(name) ? name : null, parameters };
}

function record(entries: Record<string, Value>): Value {
  return Object.assign(newRecord(), entries);
}

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(StatusError);
    return `${(error as StatusError).status.codeName}: ${(error as StatusError).status.message}`;
  }
  throw new Error('expected a failure');
}

describe('casts to built-in types', () => {
  it('converts the way the matching builtin does', () => {
    expect(coerce(12.9, type('integer'), context)).toBe(12);
    expect(coerce('7', type('number'), context)).toBe(7);
    expect(coerce(3, type('string'), context)).toBe('3');
    expect(coerce('', type('bool'), context)).toBe(false);
    expect(coerce('90s', type('duration'), context)).toEqual(Duration.seconds(90));
    expect(coerce(0, type('time'), context)).toEqual(new Instant(0n));
    expect(coerce('hi', type('bytes'), context)).toEqual(new TextEncoder().encode('hi'));
    expect(coerce(['1', '2'], type('list', type('integer')), context)).toEqual([1, 2]);
    expect(coerce('one', type('list'), context)).toEqual(['one']);
    expect(coerce(null, type('list'), context)).toEqual([null]);
    const same = record({ a: 1 });
    expect(coerce(same, type('object'), context)).toBe(same);
    expect(coerce(5, type('any'), context)).toBe(5);
  });

  it('makes a chunk of a quoted media type', () => {
    const made = coerce('hello', { declared: '"text/plain"', name: 'text/plain', struct: null, parameters: [] }, context);
    expect(made).toBeInstanceOf(ChunkValue);
    expect((made as ChunkValue).chunk.mimetype).toBe('text/plain');
  });
});

describe('casts to structs', () => {
  it('fills defaults, keeps declared fields in order and drops extra keys', () => {
    const made = coerce(record({ url: 'x', extra: 1, tags: ['a'], name: 'abc' }), type('Hit'), context);
    expect(Object.keys(made as object)).toEqual(['url', 'score', 'tags', 'kind', 'name']);
    expect(asText(made)).toBe('{"kind": "a", "name": "abc", "score": 1, "tags": ["a"], "url": "x"}');
    expect(asText(coerce(record({ url: 3 }), type('Hit'), context))).toBe('{"kind": "a", "score": 1, "url": "3"}');
  });

  it('says which field did not fit, and why', () => {
    expect(failure(() => coerce(record({ score: 4 }), type('Hit'), context))).toBe(
      "INVALID_ARGUMENT: Hit requires 'url', and this does not give it.",
    );
    expect(failure(() => coerce(record({ url: 'u', score: 11 }), type('Hit'), context))).toBe(
      'INVALID_ARGUMENT: score: is 11.0, and the most allowed is 10.',
    );
    expect(failure(() => coerce(record({ url: 'u', score: -1 }), type('Hit'), context))).toBe(
      'INVALID_ARGUMENT: score: is -1.0, and the least allowed is 0.',
    );
    expect(failure(() => coerce(record({ url: 'u', tags: ['a', 'a'] }), type('Hit'), context))).toBe(
      "INVALID_ARGUMENT: tags: holds 'a' twice, and its items are unique.",
    );
    expect(failure(() => coerce(record({ url: 'u', kind: 'c' }), type('Hit'), context))).toBe(
      "INVALID_ARGUMENT: kind: 'c' is not one of a, b.",
    );
    expect(failure(() => coerce(record({ url: 'u', name: 'A1' }), type('Hit'), context))).toBe(
      "INVALID_ARGUMENT: name: 'A1' does not match '^[a-z]+$'.",
    );
    expect(failure(() => coerce(5, type('Hit'), context))).toBe(
      'INVALID_ARGUMENT: Hit is a record of url, score, tags, kind, name, and this is 5.',
    );
    expect(failure(() => coerce(null, type('Hit'), context))).toBe(
      'INVALID_ARGUMENT: Hit is a record of url, score, tags, kind, name, and this is nothing.',
    );
  });

  it('coerces nested shapes and names them by path', () => {
    const made = coerce(record({ best: record({ url: 'a' }), rest: [record({ url: 'b' })] }), type('Page'), context);
    expect(asText(made)).toBe('{"best": {"kind": "a", "score": 1, "url": "a"}, "rest": [{"kind": "a", "score": 1, "url": "b"}]}');
    expect(failure(() => coerce(record({ best: record({ url: 'a' }), rest: [record({})] }), type('Page'), context))).toBe(
      "INVALID_ARGUMENT: rest[0]: Hit requires 'url', and this does not give it.",
    );
    expect(failure(() => coerce(record({ best: 3 }), type('Page'), context))).toMatch(/^INVALID_ARGUMENT: best: Hit is a record/);
  });
});

describe('casts to host types', () => {
  it('goes to the host for a tag it registered', () => {
    const made = coerce(record({ text: 'hi' }), type('a11.test.Note'), context);
    expect(made).toBeInstanceOf(TaggedRecord);
    expect((made as TaggedRecord).toChunk().mimetype).toBe('application/json;type=a11.test.Note');
    expect(asText(made)).toBe('{"text":"hi"}');
  });

  it('refuses a tag nothing here knows, in the reference’s words', () => {
    const message = failure(() => coerce(record({}), type('a11.sdk.Unknown'), context));
    expect(message).toBe(
      "UNIMPLEMENTED: Nothing here knows the type 'a11.sdk.Unknown'. A tag names a type a serialization registry has been told about, so the module defining it has to be imported where the flow runs.",
    );
    expect(StatusCode.UNIMPLEMENTED).toBe(12);
  });
});
