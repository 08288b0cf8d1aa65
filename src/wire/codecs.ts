import { decode as decodeMsgpack } from '@msgpack/msgpack';
import { Media, parseMimetype } from './media.js';
import { encodeMsgpackValue } from './msgpack-fields.js';
import { Status, StatusCode, StatusError } from './status.js';
import { packStatus, unpackStatus } from './status-codec.js';

/**
 * Turns a tagged value into bytes and back, for the types whose payload is not a single plain
 * JSON or msgpack value (an AudioBuffer is five concatenated msgpack values, for instance).
 */
export interface TypeCodec<T = unknown> {
  /** The serialization tag, e.g. `a11.sdk.AudioBuffer`. */
  tag: string;
  encode(value: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

const typeCodecs = new Map<string, TypeCodec>();

/** Makes `tag` decode to (and encode from) richer values everywhere chunks are read. */
export function registerTypeCodec<T>(codec: TypeCodec<T>): void {
  typeCodecs.set(codec.tag, codec as TypeCodec);
}

export function typeCodec(tag: string): TypeCodec | undefined {
  return typeCodecs.get(tag);
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: false });

export function encodeText(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

export function decodeText(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/** The bytes a value takes under `mimetype`. */
export function encodeValue(mimetype: string, value: unknown): Uint8Array {
  const { base, tag } = parseMimetype(mimetype);
  const codec = tag ? typeCodecs.get(tag) : undefined;
  if (codec) return codec.encode(value);
  switch (base) {
    case Media.text:
      return encodeText(typeof value === 'string' ? value : String(value));
    case Media.json:
      return encodeText(JSON.stringify(value ?? null));
    case Media.msgpack:
      return encodeMsgpackValue(value);
    case Media.status:
      if (value instanceof Status) return packStatus(value);
      if (value instanceof Uint8Array) return value;
      throw new StatusError(StatusCode.INVALID_ARGUMENT, `A ${typeof value} cannot be written as '${mimetype}': that media type takes a Status.`);
    default:
      if (value instanceof Uint8Array) return value;
      if (typeof value === 'string') return encodeText(value);
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        `A ${typeof value} cannot be written as '${mimetype}': that media type takes bytes.`,
      );
  }
}

/** The value `bytes` hold under `mimetype`; bytes themselves for media types we do not interpret. */
export function decodeValue(mimetype: string, bytes: Uint8Array): unknown {
  const { base, tag } = parseMimetype(mimetype);
  const codec = tag ? typeCodecs.get(tag) : undefined;
  try {
    if (codec) return codec.decode(bytes);
    switch (base) {
      case Media.text:
        return decodeText(bytes);
      case Media.json:
        return bytes.length === 0 ? null : JSON.parse(decodeText(bytes));
      case Media.msgpack:
        return bytes.length === 0 ? null : decodeMsgpack(bytes);
      case Media.status:
        return unpackStatus(bytes);
      default:
        if (base.startsWith('text/')) return decodeText(bytes);
        return bytes;
    }
  } catch (error) {
    if (error instanceof StatusError) throw error;
    throw new StatusError(
      StatusCode.INVALID_ARGUMENT,
      `A '${mimetype}' chunk of ${bytes.length} bytes does not decode: ${(error as Error).message}`,
    );
  }
}
