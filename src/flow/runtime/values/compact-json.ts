/**
 * The JSON a value travels as when the flow hands it to an action: compact, keys in the order
 * they were written, text as UTF-8 — what a serializer writes, as opposed to the sorted and
 * escaped spelling `text(…)` shows a person. Whole-number doubles keep their `.0`.
 */
import { asText } from './convert.js';
import { formatDouble } from './number-text.js';
import { ChunkValue, Duration, HostValue, Instant, kindOf, type FlowRecord, type Value } from './value.js';

function number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  return Number.isInteger(value) ? String(value) : formatDouble(value);
}

export function compactJson(value: Value): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return number(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  switch (kindOf(value)) {
    case 'null':
      return 'null';
    case 'double':
      return formatDouble(Number(value));
    case 'list':
      return `[${(value as readonly Value[]).map(compactJson).join(',')}]`;
    case 'object': {
      const record = value as FlowRecord;
      return `{${Object.keys(record)
        .map((key) => `${JSON.stringify(key)}:${compactJson(record[key]!)}`)
        .join(',')}}`;
    }
    case 'host': {
      const host = value as HostValue;
      const json = (host as { toJSON?: () => unknown }).toJSON;
      return json ? compactJson(json.call(host) as Value) : JSON.stringify(host.text());
    }
    default:
      // Bytes, durations, instants and chunks have no JSON spelling: their text stands for them.
      return JSON.stringify(asText(value as Uint8Array | Duration | Instant | ChunkValue));
  }
}
