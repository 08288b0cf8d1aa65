/**
 * The 31 built-in functions. The names and arities are the vocabulary's (`../vocabulary.ts`);
 * this is what each one does. A missing argument reads as null, and nothing here fails on a value
 * of the wrong kind except where there is truly nothing to answer (`b64decode` of non-base64).
 */
import { StatusCode, StatusError } from '../../wire/status.js';
import { canonical } from '../vocabulary.js';
import { contains, lengthOf, lookup } from './values/access.js';
import { base64Decode, base64Encode } from './values/base64.js';
import { truthy } from './values/compare.js';
import { asDuration, asNumber, asText, asTime } from './values/convert.js';
import { decodeChunk, valueToChunk } from './values/chunks.js';
import type { HostTypes } from './values/host-types.js';
import { compareKeys } from './values/json.js';
import { matchValue, patternFor } from './values/pattern-value.js';
import { strformat } from './values/strformat.js';
import { nowInstant } from './values/time.js';
import { sliceBounds, sliceCodePoints, trimAscii, utf8Encode } from './values/utf8.js';
import {
  ChunkValue,
  double,
  Duration,
  HostValue,
  Instant,
  kindOf,
  newRecord,
  type FlowRecord,
  type Value,
} from './values/value.js';

export interface BuiltinContext {
  /** The host types, for `from_chunk` of a tagged chunk. */
  readonly types: HostTypes;
}

type Builtin = (args: readonly Value[], context: BuiltinContext) => Value;

function arg(args: readonly Value[], index: number): Value {
  return index < args.length ? (args[index] ?? null) : null;
}

function bytesOf(value: Value): Uint8Array {
  return value instanceof Uint8Array ? value : utf8Encode(asText(value));
}

/** The candidates `starts-with`/`ends-with` were given: one, or a list of them. */
function endings(value: Value): string[] {
  return Array.isArray(value) ? (value as readonly Value[]).map(asText) : [asText(value)];
}

function sortedEntries(record: FlowRecord): [string, Value][] {
  return Object.entries(record).sort(([a], [b]) => compareKeys(a, b));
}

function asciiCase(text: string, upper: boolean): string {
  return upper ? text.replace(/[a-z]+/g, (run) => run.toUpperCase()) : text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

function sliceOf(value: Value, start: number, stop: number | undefined): Value {
  switch (kindOf(value)) {
    case 'string':
      return sliceCodePoints(value as string, start, stop);
    case 'bytes': {
      const bytes = value as Uint8Array;
      const [from, to] = sliceBounds(bytes.length, start, stop);
      return bytes.slice(from, to);
    }
    case 'list': {
      const items = value as readonly Value[];
      const [from, to] = sliceBounds(items.length, start, stop);
      return items.slice(from, to);
    }
    default:
      return value;
  }
}

function whole(value: Value): number {
  const number = Number(asNumber(value));
  return Number.isFinite(number) ? Math.trunc(number) : 0;
}

const table: Readonly<Record<string, Builtin>> = {
  len(args) {
    const first = arg(args, 0);
    return kindOf(first) === 'host' ? ((first as HostValue).size() ?? 0) : lengthOf(first);
  },
  lower: (args) => asciiCase(asText(arg(args, 0)), false),
  upper: (args) => asciiCase(asText(arg(args, 0)), true),
  trim: (args) => trimAscii(asText(arg(args, 0))),
  text: (args) => asText(arg(args, 0)),
  number: (args) => asNumber(arg(args, 0)),
  bool: (args) => truthy(arg(args, 0)),
  keys(args) {
    const first = arg(args, 0);
    return kindOf(first) === 'object' ? sortedEntries(first as FlowRecord).map(([key]) => key) : [];
  },
  values(args) {
    const first = arg(args, 0);
    if (kindOf(first) === 'object') return sortedEntries(first as FlowRecord).map(([, value]) => value);
    return Array.isArray(first) ? [...(first as readonly Value[])] : [];
  },
  get(args) {
    const found = lookup(arg(args, 0), arg(args, 1));
    return found === null ? arg(args, 2) : found;
  },
  join(args) {
    const first = arg(args, 0);
    if (!Array.isArray(first)) return asText(first);
    return (first as readonly Value[]).map(asText).join(asText(arg(args, 1)));
  },
  split(args) {
    const text = asText(arg(args, 0));
    const separator = arg(args, 1);
    if (truthy(separator)) return text.split(asText(separator));
    return text.split(/[ \t\n\r\f\v]+/).filter((piece) => piece !== '');
  },
  merge(args) {
    const merged = newRecord();
    for (const value of args) {
      if (kindOf(value) !== 'object') continue;
      for (const [key, item] of Object.entries(value as FlowRecord)) merged[key] = item;
    }
    return merged;
  },
  contains: (args) => contains(arg(args, 0), arg(args, 1)),
  'starts-with': (args) => {
    const text = asText(arg(args, 0));
    return endings(arg(args, 1)).some((option) => text.startsWith(option));
  },
  'ends-with': (args) => {
    const text = asText(arg(args, 0));
    return endings(arg(args, 1)).some((option) => text.endsWith(option));
  },
  replace(args) {
    const text = asText(arg(args, 0));
    const from = asText(arg(args, 1));
    return from ? text.split(from).join(asText(arg(args, 2))) : text;
  },
  match: (args) => matchValue(patternFor(asText(arg(args, 0))), asText(arg(args, 1))),
  slice(args) {
    const stop = arg(args, 2);
    return sliceOf(arg(args, 0), whole(arg(args, 1)), stop === null ? undefined : whole(stop));
  },
  default(args) {
    const first = arg(args, 0);
    const empty =
      first === null ||
      first === '' ||
      (Array.isArray(first) && first.length === 0) ||
      (kindOf(first) === 'object' && Object.keys(first as FlowRecord).length === 0);
    return empty ? arg(args, 1) : first;
  },
  to_chunk(args) {
    const mimetype = arg(args, 1);
    return new ChunkValue(valueToChunk(arg(args, 0), mimetype === null ? '' : asText(mimetype)));
  },
  from_chunk(args, context) {
    const first = arg(args, 0);
    return first instanceof ChunkValue ? decodeChunk(first.chunk, context.types) : first;
  },
  strformat: (args) => strformat(arg(args, 0), args.slice(1)),
  b64encode: (args) => base64Encode(bytesOf(arg(args, 0)), false),
  b64decode: (args) => base64Decode(asText(arg(args, 0)), false, 'b64decode'),
  b64urlencode: (args) => base64Encode(bytesOf(arg(args, 0)), true),
  b64urldecode: (args) => base64Decode(asText(arg(args, 0)), true, 'b64urldecode'),
  now: () => nowInstant(),
  duration: (args): Duration => asDuration(arg(args, 0)),
  time: (args): Instant => asTime(arg(args, 0)),
  seconds: (args) => double(asDuration(arg(args, 0)).seconds),
};

/** The builtins this runtime implements, for the test that holds them to the vocabulary. */
export const builtinNames: readonly string[] = Object.keys(table);

/** Calls one built-in function; INVALID_ARGUMENT for a name the language does not have. */
export function callBuiltin(name: string, args: readonly Value[], context: BuiltinContext): Value {
  const builtin = table[canonical(name)];
  if (!builtin || !Object.hasOwn(table, canonical(name))) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `Unknown function '${name}'.`);
  }
  return builtin(args, context);
}
