import { Chunk } from './chunk.js';
import { encodeText } from './codecs.js';
import { Media } from './media.js';
import { invalid } from './msgpack-fields.js';
import type { Status } from './status.js';
import { packStatus, unpackStatus } from './status-codec.js';

/**
 * A status travels as data in one shape: a chunk of `application/x-a11-status` holding the packed
 * status. On a call's status nodes it is a value; on any other node it aborts the node; with the
 * `a11-close` attribute it is a close marker: the writer drained the node and closed it.
 */

/** Chunk attribute marking a status chunk as a close marker. */
export const CLOSE_ATTRIBUTE = 'a11-close';
const CLOSE_VALUE = encodeText('1');

/** A status as a chunk: a value on a status node, an abort on any other, or (`close`) a close marker. */
export function statusChunk(status: Status, options: { close?: boolean } = {}): Chunk {
  const meta = options.close ? { attributes: new Map([[CLOSE_ATTRIBUTE, CLOSE_VALUE]]) } : {};
  return Chunk.fromBytes(Media.status, packStatus(status), meta);
}

export function isStatusChunk(chunk: Chunk): boolean {
  return chunk.mimetype === Media.status;
}

export function isCloseMarker(chunk: Chunk): boolean {
  return isStatusChunk(chunk) && chunk.attribute(CLOSE_ATTRIBUTE) !== undefined;
}

/** The status a status chunk carries; INVALID_ARGUMENT when it is not one. */
export function statusOfChunk(chunk: Chunk): Status {
  if (!isStatusChunk(chunk)) throw invalid(`A '${chunk.mimetype}' chunk is not a status.`);
  return unpackStatus(chunk.bytes);
}
