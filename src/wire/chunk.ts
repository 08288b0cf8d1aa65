import { decodeValue, encodeValue } from './codecs.js';
import { Media } from './media.js';

export interface ChunkMetadata {
  /** Microseconds since the Unix epoch, when the writer stamped one. */
  timestamp?: bigint;
  attributes?: ReadonlyMap<string, Uint8Array>;
}

const EMPTY = new Uint8Array(0);
const UNSET = Symbol('unset');

/**
 * One value in a stream: a media type and its bytes. Inside one process a chunk can carry the
 * value itself and encode it only when something needs the bytes (the wire, a size), so values
 * piped between local steps are never serialized.
 */
export class Chunk {
  readonly mimetype: string;
  readonly timestamp: bigint | undefined;
  readonly attributes: ReadonlyMap<string, Uint8Array> | undefined;
  #bytes: Uint8Array | undefined;
  #value: unknown = UNSET;

  private constructor(mimetype: string, bytes: Uint8Array | undefined, value: unknown, meta: ChunkMetadata) {
    this.mimetype = mimetype;
    this.#bytes = bytes;
    this.#value = value;
    this.timestamp = meta.timestamp;
    this.attributes = meta.attributes;
  }

  /** A chunk of bytes as they arrived; the value is decoded on first use. */
  static fromBytes(mimetype: string, bytes: Uint8Array, meta: ChunkMetadata = {}): Chunk {
    return new Chunk(mimetype, bytes, UNSET, meta);
  }

  /** A chunk holding `value`; it is encoded as `mimetype` on first use of its bytes. */
  static fromValue(mimetype: string, value: unknown, meta: ChunkMetadata = {}): Chunk {
    return new Chunk(mimetype, undefined, value, meta);
  }

  static text(text: string, meta?: ChunkMetadata): Chunk {
    return Chunk.fromValue(Media.text, text, meta);
  }

  static json(value: unknown, tag?: string, meta?: ChunkMetadata): Chunk {
    return Chunk.fromValue(tag ? `${Media.json};type=${tag}` : Media.json, value, meta);
  }

  static msgpack(value: unknown, tag?: string, meta?: ChunkMetadata): Chunk {
    return Chunk.fromValue(tag ? `${Media.msgpack};type=${tag}` : Media.msgpack, value, meta);
  }

  static bytes(bytes: Uint8Array, meta?: ChunkMetadata): Chunk {
    return new Chunk(Media.bytes, bytes, bytes, meta ?? {});
  }

  /** The empty octet-stream chunk A11 uses as a null value and as an end marker. */
  static null(): Chunk {
    return new Chunk(Media.bytes, EMPTY, null, {});
  }

  get bytes(): Uint8Array {
    if (this.#bytes === undefined) {
      this.#bytes = encodeValue(this.mimetype, this.#value);
    }
    return this.#bytes;
  }

  /** The decoded value (throws a StatusError INVALID_ARGUMENT when the bytes do not decode). */
  get value(): unknown {
    if (this.#value === UNSET) this.#value = this.isNull ? null : decodeValue(this.mimetype, this.#bytes ?? EMPTY);
    return this.#value;
  }

  /** Whether this is the null chunk: no bytes, generic octet-stream. */
  get isNull(): boolean {
    return this.mimetype === Media.bytes && (this.#bytes?.length === 0 || (this.#bytes === undefined && this.#value === null));
  }

  /** Encoded size in bytes. */
  get size(): number {
    return this.bytes.length;
  }

  attribute(name: string): Uint8Array | undefined {
    return this.attributes?.get(name);
  }

  withMetadata(meta: ChunkMetadata): Chunk {
    return new Chunk(this.mimetype, this.#bytes, this.#value, { ...this.toMetadata(), ...meta });
  }

  private toMetadata(): ChunkMetadata {
    const meta: ChunkMetadata = {};
    if (this.timestamp !== undefined) meta.timestamp = this.timestamp;
    if (this.attributes !== undefined) meta.attributes = this.attributes;
    return meta;
  }
}
