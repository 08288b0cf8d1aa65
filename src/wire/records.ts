import {
  byteMapObject,
  concatBytes,
  decodeFields,
  encodeFields,
  encodeFieldsTransient,
  encodeInt64,
  invalid,
  readArray,
  readBinary,
  readBoolean,
  readByteMap,
  readInt64,
  readString,
  readUnsigned,
} from './msgpack-fields.js';
import { isValidName } from './names.js';
import { StatusError } from './status.js';

/**
 * The A11 wire records and their msgpack form. Every record is its fields written as consecutive
 * msgpack values; a record nested in another travels as msgpack `bin` holding its own encoding.
 */

export const WIRE_VERSION = 1;
const UINT32_MAX = 0xffff_ffff;

export interface ChunkMetadataRecord {
  mimetype: string;
  /** Microseconds since the Unix epoch. */
  timestamp: bigint | null;
  attributes: ReadonlyMap<string, Uint8Array>;
}

/** A value: its metadata and either inline `data` or a `ref` to bytes held elsewhere. */
export interface ChunkRecord {
  metadata: ChunkMetadataRecord | null;
  ref: string;
  data: Uint8Array;
}

/** A window onto another node, sent instead of inline data. */
export interface NodeRefRecord {
  id: string;
  offset: number;
  length: number | null;
}

export type FragmentPayload = { chunk: ChunkRecord; nodeRef?: never } | { nodeRef: NodeRefRecord; chunk?: never };

/** One value of one node: `seq` orders it within the node, `continued: false` makes it the last. */
export interface NodeFragmentRecord {
  id: string;
  payload: FragmentPayload;
  seq: number | null;
  continued: boolean;
}

export interface PortRecord {
  name: string;
  id: string;
}

export interface ActionMessageRecord {
  id: string;
  name: string;
  inputs: PortRecord[];
  outputs: PortRecord[];
  headers: ReadonlyMap<string, Uint8Array>;
}

export interface WireMessageRecord {
  fragments: NodeFragmentRecord[];
  actions: ActionMessageRecord[];
  headers: ReadonlyMap<string, Uint8Array>;
}

const FRAGMENT_CHUNK = 0;
const FRAGMENT_NODE_REF = 1;

// ---------------------------------------------------------------------------------------------
// Writing

/** Encodings of metadata that is only a media type, which is most of it: one per media type. */
const plainMetadata = new Map<string, Uint8Array>();

export function encodeChunkMetadata(metadata: ChunkMetadataRecord): Uint8Array {
  if (metadata.timestamp === null && metadata.attributes.size === 0) {
    let encoded = plainMetadata.get(metadata.mimetype);
    if (!encoded) {
      encoded = encodeFields([metadata.mimetype, null, {}]);
      if (plainMetadata.size > 256) plainMetadata.clear();
      plainMetadata.set(metadata.mimetype, encoded);
    }
    return encoded;
  }
  checkMapNames(metadata.attributes, 'chunk attribute');
  const timestamp = metadata.timestamp;
  if (timestamp !== null && (timestamp > BigInt(Number.MAX_SAFE_INTEGER) || timestamp < BigInt(Number.MIN_SAFE_INTEGER))) {
    return concatBytes([encodeFields([metadata.mimetype]), encodeInt64(timestamp), encodeFields([byteMapObject(metadata.attributes)])]);
  }
  return encodeFields([metadata.mimetype, timestamp === null ? null : Number(timestamp), byteMapObject(metadata.attributes)]);
}

export function encodeChunk(chunk: ChunkRecord): Uint8Array {
  return encodeChunkFields(chunk).slice();
}

/** A chunk's encoding in a scratch buffer, to be embedded in its fragment before the next one. */
function encodeChunkFields(chunk: ChunkRecord): Uint8Array {
  if (chunk.ref !== '' && chunk.data.length > 0) throw invalid('A chunk carries either a ref or data, not both.');
  return encodeFieldsTransient([chunk.metadata ? encodeChunkMetadata(chunk.metadata) : null, chunk.ref, chunk.data], 0);
}

export function encodeNodeRef(ref: NodeRefRecord): Uint8Array {
  checkName(ref.id, 'node ref id');
  if (!Number.isSafeInteger(ref.offset) || ref.offset < 0 || ref.offset > UINT32_MAX) throw invalid('NodeRef offset must be a uint32.');
  if (ref.length !== null && (!Number.isSafeInteger(ref.length) || ref.length < 0 || ref.offset + ref.length > 2 ** 32)) {
    throw invalid('NodeRef offset + length must not exceed 2^32.');
  }
  return encodeFields([ref.id, ref.offset, ref.length]);
}

export function encodeNodeFragment(fragment: NodeFragmentRecord): Uint8Array {
  if (fragment.id !== '') checkName(fragment.id, 'node id');
  if (fragment.seq !== null && (!Number.isSafeInteger(fragment.seq) || fragment.seq < 0 || fragment.seq > UINT32_MAX)) {
    throw invalid(`Fragment seq ${fragment.seq} of '${fragment.id}' is not a uint32.`);
  }
  const { chunk, nodeRef } = fragment.payload;
  const [variant, data] = chunk ? [FRAGMENT_CHUNK, encodeChunkFields(chunk)] : [FRAGMENT_NODE_REF, encodeNodeRef(nodeRef!)];
  return encodeFields([fragment.id, variant, data, fragment.seq, fragment.continued]);
}

export function encodePort(port: PortRecord): Uint8Array {
  if (port.name !== '') checkName(port.name, 'port name');
  if (port.id !== '') checkName(port.id, 'port id');
  return encodeFields([port.name, port.id]);
}

export function encodeActionMessage(action: ActionMessageRecord): Uint8Array {
  if (action.id !== '') checkName(action.id, 'action id');
  if (action.name !== '') checkName(action.name, 'action name');
  checkMapNames(action.headers, 'header name');
  return encodeFields([
    action.id,
    action.name,
    action.inputs.map(encodePort),
    action.outputs.map(encodePort),
    byteMapObject(action.headers),
  ]);
}

export function encodeWireMessage(message: WireMessageRecord): Uint8Array {
  return encodeWireMessageTransient(message).slice();
}

/**
 * A message's encoding in a scratch buffer, valid until the next call: for a sender that cuts it
 * into packets (copying it) straight away.
 */
export function encodeWireMessageTransient(message: WireMessageRecord): Uint8Array {
  checkMapNames(message.headers, 'header name');
  return encodeFieldsTransient(
    [WIRE_VERSION, message.fragments.map(encodeNodeFragment), message.actions.map(encodeActionMessage), byteMapObject(message.headers)],
    1,
  );
}

// ---------------------------------------------------------------------------------------------
// Reading

export function decodeChunkMetadata(bytes: Uint8Array): ChunkMetadataRecord {
  const [mimetype, timestamp, attributes] = decodeFields(bytes, 3, 'ChunkMetadata');
  const record: ChunkMetadataRecord = {
    mimetype: readString(mimetype, 'ChunkMetadata.mimetype'),
    timestamp: timestamp === null ? null : readInt64(timestamp, 'ChunkMetadata.timestamp'),
    attributes: readByteMap(attributes, 'ChunkMetadata.attributes'),
  };
  checkMapNames(record.attributes, 'chunk attribute');
  return record;
}

export function decodeChunk(bytes: Uint8Array): ChunkRecord {
  const [metadata, ref, data] = decodeFields(bytes, 3, 'Chunk');
  const chunk: ChunkRecord = {
    metadata: metadata === null ? null : decodeChunkMetadata(readBinary(metadata, 'Chunk.metadata')),
    ref: readString(ref, 'Chunk.ref'),
    data: readBinary(data, 'Chunk.data'),
  };
  if (chunk.ref !== '' && chunk.data.length > 0) throw invalid('A chunk carries either a ref or data, not both.');
  return chunk;
}

export function decodeNodeRef(bytes: Uint8Array): NodeRefRecord {
  const [id, offset, length] = decodeFields(bytes, 3, 'NodeRef');
  const ref: NodeRefRecord = {
    id: readString(id, 'NodeRef.id'),
    offset: readUnsigned(offset, 'NodeRef.offset', UINT32_MAX),
    length: length === null ? null : readUnsigned(length, 'NodeRef.length', 2 ** 32),
  };
  checkName(ref.id, 'node ref id');
  if (ref.length !== null && ref.offset + ref.length > 2 ** 32) throw invalid('NodeRef offset + length must not exceed 2^32.');
  return ref;
}

export function decodeNodeFragment(bytes: Uint8Array): NodeFragmentRecord {
  const [id, variant, data, seq, continued] = decodeFields(bytes, 5, 'NodeFragment');
  const nodeId = readString(id, 'NodeFragment.id');
  if (nodeId !== '') checkName(nodeId, 'node id');
  const kind = readUnsigned(variant, 'NodeFragment variant', UINT32_MAX);
  const encoded = readBinary(data, 'NodeFragment.data');
  let payload: FragmentPayload;
  if (kind === FRAGMENT_CHUNK) payload = { chunk: decodeChunk(encoded) };
  else if (kind === FRAGMENT_NODE_REF) payload = { nodeRef: decodeNodeRef(encoded) };
  else throw invalid(`NodeFragment '${nodeId}' has unknown data variant ${kind} (0 is a Chunk, 1 a NodeRef).`);
  return {
    id: nodeId,
    payload,
    seq: seq === null ? null : readUnsigned(seq, 'NodeFragment.seq', UINT32_MAX),
    continued: readBoolean(continued, 'NodeFragment.continued'),
  };
}

export function decodePort(bytes: Uint8Array): PortRecord {
  const [name, id] = decodeFields(bytes, 2, 'Port');
  const port = { name: readString(name, 'Port.name'), id: readString(id, 'Port.id') };
  if (port.name !== '') checkName(port.name, 'port name');
  if (port.id !== '') checkName(port.id, 'port id');
  return port;
}

export function decodeActionMessage(bytes: Uint8Array): ActionMessageRecord {
  const [id, name, inputs, outputs, headers] = decodeFields(bytes, 5, 'ActionMessage');
  const action: ActionMessageRecord = {
    id: readString(id, 'ActionMessage.id'),
    name: readString(name, 'ActionMessage.name'),
    inputs: readArray(inputs, 'ActionMessage.inputs').map((port) => decodePort(readBinary(port, 'ActionMessage.inputs[]'))),
    outputs: readArray(outputs, 'ActionMessage.outputs').map((port) => decodePort(readBinary(port, 'ActionMessage.outputs[]'))),
    headers: readByteMap(headers, 'ActionMessage.headers'),
  };
  if (action.id !== '') checkName(action.id, 'action id');
  if (action.name !== '') checkName(action.name, 'action name');
  checkMapNames(action.headers, 'header name');
  return action;
}

/** An element of a WireMessage that did not decode, with whatever id could still be read from it. */
export interface RejectedElement {
  kind: 'fragment' | 'action';
  index: number;
  /** The node id (fragments) or call id (actions), when its first field is still a string. */
  id?: string;
  error: StatusError;
}

export interface DecodedWireMessage extends WireMessageRecord {
  /** Elements that failed to decode; the rest of the message is still usable. */
  rejected: RejectedElement[];
}

/**
 * Reads a WireMessage. The envelope must be sound (INVALID_ARGUMENT otherwise), but one bad
 * fragment or action does not spoil its neighbours: it is listed in `rejected` instead, so the
 * receiver can fail only the node or call it belonged to.
 */
export function decodeWireMessage(bytes: Uint8Array): DecodedWireMessage {
  const [version, fragments, actions, headers] = decodeFields(bytes, 4, 'WireMessage');
  if (version !== WIRE_VERSION) {
    throw invalid(`WireMessage version ${String(version)} is not supported (this side speaks version ${WIRE_VERSION}).`);
  }
  const result: DecodedWireMessage = {
    fragments: [],
    actions: [],
    headers: readByteMap(headers, 'WireMessage.headers'),
    rejected: [],
  };
  checkMapNames(result.headers, 'header name');
  readArray(fragments, 'WireMessage.node_fragments').forEach((element, index) => {
    try {
      result.fragments.push(decodeNodeFragment(readBinary(element, 'WireMessage.node_fragments[]')));
    } catch (error) {
      result.rejected.push(rejection('fragment', index, element, error));
    }
  });
  readArray(actions, 'WireMessage.actions').forEach((element, index) => {
    try {
      result.actions.push(decodeActionMessage(readBinary(element, 'WireMessage.actions[]')));
    } catch (error) {
      result.rejected.push(rejection('action', index, element, error));
    }
  });
  return result;
}

function rejection(kind: RejectedElement['kind'], index: number, element: unknown, error: unknown): RejectedElement {
  const status = error instanceof StatusError ? error : invalid(String(error));
  const rejected: RejectedElement = { kind, index, error: status };
  const id = element instanceof Uint8Array ? peekName(element) : undefined;
  if (id !== undefined) rejected.id = id;
  return rejected;
}

/**
 * The leading msgpack str of a record when it is a valid name, read by hand because the rest of
 * the record may be cut off or corrupt: enough to say whom a bad element concerned.
 */
export function peekName(bytes: Uint8Array): string | undefined {
  const head = bytes[0];
  if (head === undefined) return undefined;
  let start: number;
  let length: number;
  if ((head & 0xe0) === 0xa0) [start, length] = [1, head & 0x1f];
  else if (head === 0xd9 && bytes.length > 1) [start, length] = [2, bytes[1]!];
  else return undefined;
  if (start + length > bytes.length) return undefined;
  const text = new TextDecoder().decode(bytes.subarray(start, start + length));
  return isValidName(text) ? text : undefined;
}

/** Names already found valid: a node's id is checked once, not on every value sent to it. */
const validNames = new Set<string>();

function checkName(name: string, what: string): void {
  if (validNames.has(name)) return;
  if (isValidName(name)) {
    if (validNames.size > 4096) validNames.clear();
    validNames.add(name);
  } else {
    throw invalid(`Invalid ${what} '${name.length > 60 ? `${name.slice(0, 60)}…` : name}': names are 1–255 of [A-Za-z0-9_#-], not starting or ending with '#' or '-'.`);
  }
}

function checkMapNames(map: ReadonlyMap<string, Uint8Array>, what: string): void {
  for (const key of map.keys()) checkName(key, what);
}
