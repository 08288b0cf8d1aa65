/**
 * Taking values apart: `x.field`, `x[i]`, `in`, `| truncate`, and what a spread contributes.
 */
import { asJson, asText } from './convert.js';
import { valuesEqual } from './compare.js';
import { codePointLength, sliceCodePoints } from './utf8.js';
import { HostValue, kindOf, newRecord, type FlowRecord, type Value } from './value.js';

/**
 * How many things a value holds: the code points of text, the bytes of bytes, a list's items, a
 * record's keys; 0 for anything else (a host value answers for itself, see `len`).
 */
export function lengthOf(value: Value): number {
  switch (kindOf(value)) {
    case 'string':
      return codePointLength(value as string);
    case 'bytes':
      return (value as Uint8Array).length;
    case 'list':
      return (value as readonly Value[]).length;
    case 'object':
      return Object.keys(value as FlowRecord).length;
    default:
      return 0;
  }
}

/**
 * `key` out of `value`: a record's field, a list's item (negative counts from the end), a host
 * value's field or element. Null when it is not there — a flow asking `if not thing.field` should
 * not have to check first — and null for anything that is not a container (a string included).
 */
export function lookup(value: Value, key: Value): Value {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    let at: number;
    if (typeof key === 'boolean') at = key ? 1 : 0;
    else if (typeof key === 'number' && Number.isInteger(key)) at = key;
    else return null;
    if (at < 0) at += value.length;
    return at >= 0 && at < value.length ? (value[at] ?? null) : null;
  }
  switch (kindOf(value)) {
    case 'object': {
      if (typeof key !== 'string') return null;
      const record = value as FlowRecord;
      return Object.hasOwn(record, key) ? (record[key] ?? null) : null;
    }
    case 'host':
      return typeof key === 'string' ? (value as HostValue).field(key) : (value as HostValue).element(key);
    default:
      return null;
  }
}

/** Whether `container` holds `member`, as `in` and `contains` decide it. */
export function contains(container: Value, member: Value): boolean {
  switch (kindOf(container)) {
    case 'object':
      return typeof member === 'string' && Object.hasOwn(container as FlowRecord, member);
    case 'list':
      return (container as readonly Value[]).some((item) => valuesEqual(item, member));
    case 'string':
    case 'bytes':
      return asText(container).includes(asText(member));
    default:
      return false;
  }
}

/** The first `size` of a value: characters of text, bytes, items of a list, pairs of a record. */
export function truncate(value: Value, size: number): Value {
  const kept = Math.max(size, 0);
  switch (kindOf(value)) {
    case 'string':
      return sliceCodePoints(value as string, 0, kept);
    case 'bytes':
      return (value as Uint8Array).slice(0, kept);
    case 'list':
      return (value as readonly Value[]).slice(0, kept);
    case 'object': {
      const record = newRecord();
      for (const [key, item] of Object.entries(value as FlowRecord).slice(0, kept)) record[key] = item;
      return record;
    }
    default:
      return value;
  }
}

/** What `...value` contributes to a list literal: a list's items, nothing for null, else itself. */
export function spreadItems(value: Value): readonly Value[] {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return [];
  return [value as Value];
}

/**
 * What `...value` contributes to a record literal: a record's pairs, a host value's fields (read
 * through its JSON text), and nothing for anything else — there are no keys to take.
 */
export function spreadPairs(value: Value): [string, Value][] {
  switch (kindOf(value)) {
    case 'object':
      return Object.entries(value as FlowRecord);
    case 'host': {
      const decoded = asJson((value as HostValue).text());
      return kindOf(decoded) === 'object' ? Object.entries(decoded as FlowRecord) : [];
    }
    default:
      return [];
  }
}
