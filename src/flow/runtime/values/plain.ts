/**
 * A value as plain JSON-able data, for whoever reads a flow's results outside the runtime (a
 * command line printing them, a gateway answering `flow_run`): a whole-number double is a number,
 * a duration or an instant its text, bytes their text, a chunk what it holds.
 */
import { decodeChunk } from './chunks.js';
import { asText } from './convert.js';
import { ChunkValue, Duration, HostValue, Instant, Real, type Value } from './value.js';

export function plainValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainValue);
  if (value instanceof Real) return value.value;
  if (value instanceof Duration || value instanceof Instant || value instanceof Uint8Array) return asText(value);
  if (value instanceof ChunkValue) return plainValue(decodeChunk(value.chunk));
  if (value instanceof HostValue) {
    const json = (value as { toJSON?: () => unknown }).toJSON;
    return json ? plainValue(json.call(value)) : value.text();
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, Value>)) out[key] = plainValue(item);
  return out;
}
