/**
 * A value read as another kind: as text, as a number, as a duration, as an instant, as JSON.
 *
 * None of these fail. The language answers rather than dies: an unreadable number is zero, a
 * record as text is its JSON, which is what makes a flow safe to accept from somewhere else.
 */
import { Chunk } from '../../../wire/chunk.js';
import { jsonText, parseJson } from './json.js';
import { formatDouble, formatInteger } from './number-text.js';
import { durationText, parseDuration, parseTime, timeText } from './time.js';
import { trimAscii, utf8Decode } from './utf8.js';
import {
  ChunkValue,
  double,
  Duration,
  HostValue,
  installTextRenderer,
  Instant,
  kindOf,
  Real,
  type FlowRecord,
  type Value,
} from './value.js';

/** The text of a chunk's payload (what it holds, not a description of the wrapper). */
export function chunkText(chunk: Chunk): string {
  return utf8Decode(chunk.bytes);
}

/** A value as text: the way the `text` stage and builtin render it. */
export function asText(value: Value): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isInteger(value) ? formatInteger(value) : formatDouble(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  if (value === null || value === undefined) return '';
  if (value instanceof Real) return formatDouble(value.value);
  if (value instanceof Uint8Array) return utf8Decode(value);
  if (value instanceof Duration) return durationText(value);
  if (value instanceof Instant) return timeText(value);
  if (value instanceof ChunkValue) return chunkText(value.chunk);
  if (value instanceof HostValue) return value.text();
  return jsonText(value, asText);
}

installTextRenderer(asText);

/** A value's JSON text, `json.dumps(sort_keys=True)` style. */
export function asJsonText(value: Value): string {
  return jsonText(value, asText);
}

const WHOLE = /^-?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEXADECIMAL = /^[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?$/;
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/** Text read as a number the way `strtoll`/`strtod` read a whole string; zero when it is not one. */
function textNumber(text: string): number | Real {
  const trimmed = trimAscii(text);
  if (!trimmed) return 0;
  if (WHOLE.test(trimmed)) {
    const parsed = Number(trimmed);
    if (Number.isSafeInteger(parsed)) return parsed;
  }
  if (DECIMAL.test(trimmed)) return double(Number(trimmed));
  if (HEXADECIMAL.test(trimmed)) {
    const negative = trimmed.startsWith('-');
    const body = trimmed.replace(/^[+-]?0[xX]/, '');
    const [mantissa = '', power] = body.split(/[pP]/);
    const [whole = '', fraction = ''] = mantissa.split('.');
    let number = whole ? parseInt(whole, 16) : 0;
    for (let at = 0; at < fraction.length; at++) number += parseInt(fraction[at]!, 16) / 16 ** (at + 1);
    if (power !== undefined) number *= 2 ** Number(power);
    return double(negative ? -number : number);
  }
  if (SPECIAL.test(trimmed)) {
    const negative = trimmed.startsWith('-');
    if (/nan/i.test(trimmed)) return NaN;
    return negative ? -Infinity : Infinity;
  }
  return 0;
}

/** A value as a number (integral where the value was), or zero when there is nothing to read. */
export function asNumber(value: Value): number | Real {
  switch (typeof value) {
    case 'number':
      return value;
    case 'boolean':
      return value ? 1 : 0;
    case 'string':
      return textNumber(value);
    default:
      break;
  }
  switch (kindOf(value)) {
    case 'double':
      return value as Real;
    case 'bytes':
      return textNumber(utf8Decode(value as Uint8Array));
    case 'duration':
      return double((value as Duration).seconds);
    case 'time':
      return double(Number((value as Instant).nanos) / 1e9);
    case 'list':
      return (value as readonly Value[]).length;
    case 'object':
      return Object.keys(value as FlowRecord).length;
    case 'chunk':
      return (value as ChunkValue).chunk.size;
    case 'host':
      return (value as HostValue).size() ?? 0;
    default:
      return 0;
  }
}

/** {@link asNumber}, as a plain number, for the places that only want the magnitude. */
export function asDouble(value: Value): number {
  if (typeof value === 'number') return value;
  const number = asNumber(value);
  return typeof number === 'number' ? number : number.value;
}

/** A duration from a duration, from written text, or from a number of seconds. */
export function asDuration(value: Value): Duration {
  if (value instanceof Duration) return value;
  if (typeof value === 'string' || value instanceof Uint8Array) {
    const parsed = parseDuration(typeof value === 'string' ? value : utf8Decode(value));
    if (parsed) return parsed;
  }
  return Duration.seconds(asDouble(value));
}

/** An instant from an instant, from RFC 3339 text, or from seconds since the epoch. */
export function asTime(value: Value): Instant {
  if (value instanceof Instant) return value;
  if (typeof value === 'string' || value instanceof Uint8Array) {
    const parsed = parseTime(typeof value === 'string' ? value : utf8Decode(value));
    if (parsed) return parsed;
  }
  const seconds = asDouble(value);
  return Instant.fromSeconds(Number.isFinite(seconds) ? seconds : 0);
}

/** Text parsed as JSON; anything already decoded — or text that is not JSON — is left alone. */
export function asJson(value: Value): Value {
  if (typeof value === 'string') {
    const parsed = parseJson(value);
    return parsed === undefined ? value : parsed;
  }
  if (value instanceof Uint8Array) {
    const parsed = parseJson(utf8Decode(value));
    return parsed === undefined ? value : parsed;
  }
  return value;
}

/** A duration as a plain number of seconds (infinite ones as infinities). */
export function durationSeconds(value: Duration): number {
  return value.nanos / 1e9;
}
