import { Decoder, Encoder } from '@msgpack/msgpack';
import { StatusCode, StatusError } from './status.js';

/**
 * A11 records are a run of msgpack values written one after another, not a msgpack array. These
 * helpers write and read such runs, and read the typed fields out of them with errors that say
 * which record and which field was wrong.
 */

// Safe integers are written as the smallest msgpack int. (With `useBigInt64` the library would
// write integers above 2^32 as floats, so bigints get their own encoder, used field by field.)
const encoder = new Encoder();
const bigintEncoder = new Encoder({ useBigInt64: true });
// 64-bit ints decode as bigints so nanosecond clocks keep every digit.
const decoder = new Decoder({ useBigInt64: true });

/** Writes `values` as concatenated msgpack values. */
export function encodeFields(values: readonly unknown[]): Uint8Array {
  if (values.length <= 15) {
    // A fixarray is one header byte followed by exactly the run we want.
    return encoder.encode(values).subarray(1);
  }
  const parts = values.map((value) => encoder.encode(value));
  return concatBytes(parts);
}

/** One scratch encoder per nesting level, for encodings consumed at once by the level above. */
const scratchEncoders = [new Encoder(), new Encoder()];

/**
 * `encodeFields` without the copy: the result is a view of a scratch buffer, valid only until the
 * next call with the same `level`. For a record that is immediately embedded in its parent (a
 * chunk in its fragment) or immediately cut into packets (a whole message).
 */
export function encodeFieldsTransient(values: readonly unknown[], level: 0 | 1): Uint8Array {
  if (values.length > 15) return encodeFields(values);
  return scratchEncoders[level]!.encodeSharedRef(values).subarray(1);
}

/** Reads exactly `count` concatenated msgpack values from `bytes`; INVALID_ARGUMENT otherwise. */
export function decodeFields(bytes: Uint8Array, count: number, record: string): unknown[] {
  const values: unknown[] = [];
  try {
    for (const value of decoder.decodeMulti(bytes)) {
      values.push(value);
      if (values.length > count) break;
    }
  } catch (error) {
    throw invalid(`${record} is not valid msgpack: ${(error as Error).message}`);
  }
  if (values.length !== count) {
    throw invalid(`${record} has ${values.length > count ? 'more than ' : ''}${values.length} fields; it must have ${count}.`);
  }
  return values;
}

/**
 * Any value as one msgpack value. Numbers keep their integer encodings; bigints, when present,
 * are written as 64-bit ints (the library writes large plain numbers as floats in that mode, so
 * integral numbers are promoted to bigints alongside them).
 */
export function encodeMsgpackValue(value: unknown): Uint8Array {
  if (!containsBigInt(value, 0)) return encoder.encode(value);
  return bigintEncoder.encode(promoteIntegers(value, 0));
}

function containsBigInt(value: unknown, depth: number): boolean {
  if (typeof value === 'bigint') return true;
  if (depth > 64 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (containsBigInt(item, depth + 1)) return true;
  return false;
}

function promoteIntegers(value: unknown, depth: number): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) && Math.abs(value) >= 2 ** 31 ? BigInt(value) : value;
  if (depth > 64 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map((item) => promoteIntegers(item, depth + 1));
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, promoteIntegers(item, depth + 1)]));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, promoteIntegers(item, depth + 1)]));
}

/** One msgpack int64/uint64 (or nil), for clocks that do not fit a double. */
export function encodeInt64(value: bigint | null): Uint8Array {
  return value === null ? encoder.encode(null) : bigintEncoder.encode(value);
}

/** One msgpack float64, even for a whole number (a sample rate of 16000 is still a double). */
export function encodeFloat64(value: number): Uint8Array {
  const bytes = new Uint8Array(9);
  bytes[0] = 0xcb;
  new DataView(bytes.buffer).setFloat64(1, value);
  return bytes;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const result = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}

export function invalid(message: string): StatusError {
  return new StatusError(StatusCode.INVALID_ARGUMENT, message);
}

export function readString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`${field} must be a string, got ${describe(value)}.`);
  return value;
}

export function readBinary(value: unknown, field: string): Uint8Array {
  if (!(value instanceof Uint8Array)) throw invalid(`${field} must be msgpack bin, got ${describe(value)}.`);
  return value;
}

export function readBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalid(`${field} must be a boolean, got ${describe(value)}.`);
  return value;
}

/** An unsigned integer no larger than `max` (a safe integer). */
export function readUnsigned(value: unknown, field: string, max: number): number {
  const number = typeof value === 'bigint' && value >= 0n ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0) {
    throw invalid(`${field} must be an unsigned integer, got ${describe(value)}.`);
  }
  if (number > max) throw invalid(`${field} is ${String(value)}, above its limit of ${max}.`);
  return number;
}

/** A signed 64-bit integer, as a bigint. */
export function readInt64(value: unknown, field: string): bigint {
  if (typeof value === 'bigint') {
    if (value >= -(1n << 63n) && value < 1n << 63n) return value;
    throw invalid(`${field} does not fit a signed 64-bit integer.`);
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw invalid(`${field} must be an integer, got ${describe(value)}.`);
}

export function readArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(`${field} must be an array, got ${describe(value)}.`);
  return value;
}

/** A map of names to byte strings (headers, attributes). */
export function readByteMap(value: unknown, field: string): Map<string, Uint8Array> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
    throw invalid(`${field} must be a map, got ${describe(value)}.`);
  }
  const result = new Map<string, Uint8Array>();
  for (const [key, bytes] of Object.entries(value as Record<string, unknown>)) {
    result.set(key, readBinary(bytes, `${field}['${key}']`));
  }
  return result;
}

/** The plain object msgpack writes as a map of byte strings. */
export function byteMapObject(map: ReadonlyMap<string, Uint8Array> | undefined): Record<string, Uint8Array> {
  const object: Record<string, Uint8Array> = {};
  if (map) for (const [key, value] of map) object[key] = value;
  return object;
}

function describe(value: unknown): string {
  if (value === null) return 'nil';
  if (value instanceof Uint8Array) return `${value.length} bytes of bin`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return `the string '${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  return `${typeof value} ${String(value)}`;
}
