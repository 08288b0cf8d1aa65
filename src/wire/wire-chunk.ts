import { Chunk, type ChunkMetadata } from './chunk.js';
import { Media } from './media.js';
import type { ChunkRecord } from './records.js';
import { StatusCode, StatusError } from './status.js';

const NO_ATTRIBUTES: ReadonlyMap<string, Uint8Array> = new Map();

/** A chunk as the wire record carries it (encoding its value if it only held one). */
export function chunkToRecord(chunk: Chunk): ChunkRecord {
  return {
    metadata: {
      mimetype: chunk.mimetype,
      timestamp: chunk.timestamp ?? null,
      attributes: chunk.attributes ?? NO_ATTRIBUTES,
    },
    ref: '',
    data: chunk.bytes,
  };
}

/**
 * The chunk a wire record holds. A record without a media type repeats the previous one on its
 * node (writers may omit repeats), so the node's last media type is passed in as `stickyMimetype`.
 * Chunks whose data is a reference to bytes stored elsewhere are not supported: UNIMPLEMENTED.
 */
export function chunkFromRecord(record: ChunkRecord, stickyMimetype?: string): Chunk {
  if (record.ref !== '') {
    throw new StatusError(
      StatusCode.UNIMPLEMENTED,
      `This peer cannot resolve chunk references ('${record.ref}'); send the data inline.`,
    );
  }
  const metadata = record.metadata;
  const mimetype = metadata?.mimetype || stickyMimetype || Media.bytes;
  const meta: ChunkMetadata = {};
  if (metadata?.timestamp !== null && metadata?.timestamp !== undefined) meta.timestamp = metadata.timestamp;
  if (metadata && metadata.attributes.size > 0) meta.attributes = metadata.attributes;
  return Chunk.fromBytes(mimetype, record.data, meta);
}
