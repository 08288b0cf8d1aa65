/**
 * What `if`, `where`, `==` and `<` ask of values: whether one counts as true, whether two are
 * equal, and where two sit relative to one another.
 */
import { asDouble, asText } from './convert.js';
import {
  ChunkValue,
  countsAsNumber,
  Duration,
  HostValue,
  Instant,
  kindOf,
  type FlowRecord,
  type Value,
} from './value.js';

/** Falsy: null, false, zero, and an empty string, bytes, list or record. Everything else is true. */
export function truthy(value: Value): boolean {
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return value !== 0;
    case 'string':
      return value.length > 0;
    default:
      break;
  }
  switch (kindOf(value)) {
    case 'null':
      return false;
    case 'double':
      return asDouble(value) !== 0;
    case 'bytes':
      return (value as Uint8Array).length > 0;
    case 'list':
      return (value as readonly Value[]).length > 0;
    case 'object':
      return Object.keys(value as FlowRecord).length > 0;
    case 'host':
      return (value as HostValue).truthy();
    default:
      // A duration, an instant and a chunk are things, and a thing is true: zero is a length.
      return true;
  }
}

function bytesEqual(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  for (let at = 0; at < left.length; at++) if (left[at] !== right[at]) return false;
  return true;
}

function wholeOf(value: number | boolean): number {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

/** `==` as a flow decides it: numbers (and bools) by value, records by key, lists item by item. */
export function valuesEqual(left: Value, right: Value): boolean {
  if (countsAsNumber(left) && countsAsNumber(right)) {
    if (typeof left !== 'object' && typeof right !== 'object') return wholeOf(left) === wholeOf(right);
    return asDouble(left) === asDouble(right);
  }
  if (typeof left === 'string' && typeof right === 'string') return left === right;
  const kind = kindOf(left);
  if (kind !== kindOf(right)) return false;
  switch (kind) {
    case 'null':
      return true;
    case 'string':
      return left === right;
    case 'bytes':
      return bytesEqual(left as Uint8Array, right as Uint8Array);
    case 'list': {
      const a = left as readonly Value[];
      const b = right as readonly Value[];
      return a.length === b.length && a.every((item, at) => valuesEqual(item, b[at]!));
    }
    case 'object': {
      const a = left as FlowRecord;
      const b = right as FlowRecord;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      return keys.every((key) => Object.hasOwn(b, key) && valuesEqual(a[key]!, b[key]!));
    }
    case 'duration':
      return (left as Duration).nanos === (right as Duration).nanos;
    case 'time':
      return (left as Instant).nanos === (right as Instant).nanos;
    case 'chunk': {
      const a = (left as ChunkValue).chunk;
      const b = (right as ChunkValue).chunk;
      return a.mimetype === b.mimetype && bytesEqual(a.bytes, b.bytes);
    }
    case 'host':
      return (left as HostValue).equals(right as HostValue);
    default:
      return false;
  }
}

function isTimelike(value: Value): value is Duration | Instant {
  return value instanceof Duration || value instanceof Instant;
}

function sign(left: number, right: number): -1 | 0 | 1 {
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Where two values sit: -1, 0 or 1. Two durations or two instants compare as themselves; if
 * either side is a number (or a bool) both compare as numbers; everything else as text, so a
 * flow never dies on `"3" < 5`.
 */
export function order(left: Value, right: Value): -1 | 0 | 1 {
  if (typeof left === 'number' && typeof right === 'number') return sign(left, right);
  if (isTimelike(left) && isTimelike(right)) {
    if (left instanceof Instant && right instanceof Instant) {
      return left.nanos < right.nanos ? -1 : left.nanos > right.nanos ? 1 : 0;
    }
    return sign(asDouble(left), asDouble(right));
  }
  if (countsAsNumber(left) || countsAsNumber(right)) return sign(asDouble(left), asDouble(right));
  const a = asText(left);
  const b = asText(right);
  return a < b ? -1 : a > b ? 1 : 0;
}
