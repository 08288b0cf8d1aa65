/**
 * The boundary between values and chunks: what a flow writes to a port and what it reads off one.
 *
 * An item in a stream is either a value the flow computed or a {@link Chunk} read off a node and
 * not opened yet. A pipe that only moves values re-writes the producer's own chunk — bytes,
 * media type and tag — and a stage that looks at one decodes it once.
 *
 * Writing: to an action's input port a value goes as what the port's media type says (a string
 * to a `text/plain` port as text, bytes as bytes, a tagged type as itself, anything structured as
 * JSON — encoded then, as the reference's host does, so the handler reads plain JSON). Into a node
 * of the flow's own, a value is kept as it is and only encoded if something needs its bytes.
 */
import { Chunk } from '../../../wire/chunk.js';
import { encodeValue } from '../../../wire/codecs.js';
import { Media, parseMimetype, type ParsedMimetype } from '../../../wire/media.js';
import { compactJson } from './compact-json.js';
import { NO_HOST_TYPES, type HostTypes } from './host-types.js';
import { utf8Decode, utf8Encode } from './utf8.js';
import { ChunkValue, HostValue, Real, type Value } from './value.js';

/** One element of a stream: a computed value, or a chunk as a producer wrote it. */
export type Item = Value | Chunk;

const parsedTypes = new Map<string, ParsedMimetype>();

/** `parseMimetype`, remembered: a stream of ten thousand chunks has one media type. */
export function mimetypeOf(mimetype: string): ParsedMimetype {
  let parsed = parsedTypes.get(mimetype);
  if (!parsed) {
    parsed = parseMimetype(mimetype);
    if (parsedTypes.size < 1000) parsedTypes.set(mimetype, parsed);
  }
  return parsed;
}

function isJson(base: string): boolean {
  return base === Media.json || base.endsWith('+json') || base === '';
}

/** The value a chunk holds, as the flow reads it. */
export function decodeChunk(chunk: Chunk, types: HostTypes = NO_HOST_TYPES): Value {
  const { base, tag } = mimetypeOf(chunk.mimetype);
  if (tag) {
    const host = types.get(tag);
    if (host?.fromChunk) return host.fromChunk(chunk);
  }
  if (isJson(base)) {
    try {
      const value = chunk.value as Value | undefined;
      return value === undefined ? null : value;
    } catch {
      // Labelled JSON and not JSON: the text is what there is.
      return utf8Decode(chunk.bytes);
    }
  }
  if (base.startsWith('text/')) {
    const value = chunk.value;
    return typeof value === 'string' ? value : utf8Decode(chunk.bytes);
  }
  if (base === Media.msgpack) {
    try {
      const value = chunk.value as Value | undefined;
      return value === undefined ? null : value;
    } catch {
      return chunk.bytes;
    }
  }
  return chunk.bytes;
}

/** An item's value: itself, or what its chunk holds. */
export function itemValue(item: Item, types: HostTypes = NO_HOST_TYPES): Value {
  return item instanceof Chunk ? decodeChunk(item, types) : item;
}

/** The media type an item travels as: its chunk's, or JSON for a computed value. */
export function itemMimetype(item: Item): string {
  if (item instanceof Chunk) return item.mimetype;
  if (item instanceof Uint8Array) return Media.bytes;
  if (item instanceof ChunkValue) return item.chunk.mimetype;
  if (item instanceof HostValue) return item.toChunk().mimetype;
  return Media.json;
}

function plainForMsgpack(value: Value): unknown {
  if (value instanceof Real) return value.value;
  if (Array.isArray(value)) return value.map(plainForMsgpack);
  if (value instanceof Uint8Array || value === null || typeof value !== 'object') return value;
  if (value instanceof HostValue || value instanceof ChunkValue) return JSON.parse(JSON.stringify(value));
  const kind = Object.getPrototypeOf(value);
  if (kind === Object.prototype || kind === null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = plainForMsgpack(item as Value);
    return out;
  }
  return JSON.parse(JSON.stringify(value));
}

/**
 * The chunk that carries `value` to an action's input port of media type `portType` (or, with
 * none, the plain JSON a host would write).
 */
export function valueToChunk(value: Value, portType = ''): Chunk {
  if (value instanceof ChunkValue) return value.chunk;
  if (value instanceof HostValue) return value.toChunk();
  const { base } = mimetypeOf(portType);
  if (value instanceof Uint8Array) {
    const binary = base !== '' && !isJson(base) && !base.startsWith('text/') && base !== Media.msgpack;
    return binary ? Chunk.fromBytes(portType, value) : Chunk.bytes(value);
  }
  if (base === Media.msgpack) return Chunk.fromBytes(portType, encodeValue(Media.msgpack, plainForMsgpack(value)));
  if (typeof value === 'string') return base.startsWith('text/') ? Chunk.fromValue(portType, value) : Chunk.json(value);
  return Chunk.fromBytes(Media.json, utf8Encode(compactJson(value)));
}

/**
 * The chunk a value is kept as in a node the flow owns or a port of its own: the value itself,
 * encoded only when something needs its bytes (a peer reading the node over the wire).
 */
export function valueToNodeChunk(value: Value): Chunk {
  if (value instanceof ChunkValue) return value.chunk;
  if (value instanceof HostValue) return value.toChunk();
  if (value instanceof Uint8Array) return Chunk.bytes(value);
  return Chunk.fromValue(Media.json, value);
}

/** An item written to an action's input: a carried chunk as it came, a value by the port's type. */
export function itemToChunk(item: Item, portType = ''): Chunk {
  return item instanceof Chunk ? item : valueToChunk(item, portType);
}

/** An item written to a node of the flow's own. */
export function itemToNodeChunk(item: Item): Chunk {
  return item instanceof Chunk ? item : valueToNodeChunk(item);
}
