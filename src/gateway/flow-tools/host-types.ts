/**
 * The registered types a flow on the gateway may name (`a11.sdk.Interaction{…}`, `x as T`): the
 * ones the gateway's actions take. An Interaction built in a flow is checked, its content chunks
 * (from `to_chunk`) written in their wire form, and completed with the defaults every peer writes.
 */
import { HostTypes, taggedRecordType } from '../../flow/runtime/values/host-types.js';
import { ChunkValue, type FlowRecord, type Value } from '../../flow/runtime/values/value.js';
import { StatusCode, StatusError } from '../../wire/status.js';
import { bytesToBase64, INTERACTION_TAG, parseInteraction } from '../actions/llm/interaction.js';

function wireChunk(value: Value): Value {
  if (!(value instanceof ChunkValue)) return value;
  return { data: bytesToBase64(value.chunk.bytes), metadata: { mimetype: value.chunk.mimetype } };
}

function interaction(record: FlowRecord): FlowRecord {
  const lists = ['content', 'system_instructions'] as const;
  const withChunks: Record<string, Value> = { ...record };
  for (const field of lists) {
    const list = record[field];
    if (Array.isArray(list)) withChunks[field] = list.map(wireChunk);
  }
  try {
    return parseInteraction(JSON.parse(JSON.stringify(withChunks))) as unknown as FlowRecord;
  } catch (error) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `Not an ${INTERACTION_TAG}: ${(error as Error).message}`);
  }
}

export const gatewayHostTypes = new HostTypes().register(taggedRecordType(INTERACTION_TAG, interaction));
