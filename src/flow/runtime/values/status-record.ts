/**
 * Statuses as data: `{"ok": false, "code": "NOT_FOUND", "number": 5, "message": "…"}`, the record a
 * flow sees when it looks at an outcome — so it can branch on one, write one to a port, or raise
 * it again with `fail`.
 */
import { Status, statusCodeName } from '../../../wire/status.js';
import { canonical, statusCodes } from '../../vocabulary.js';
import { asText } from './convert.js';
import { lookup } from './access.js';
import { truthy } from './compare.js';
import { kindOf, newRecord, type FlowRecord, type Value } from './value.js';

export function statusRecord(status: Status): FlowRecord {
  const record = newRecord();
  record.ok = status.ok;
  record.code = status.code < statusCodes.length ? statusCodeName(status.code) : `CODE_${status.code}`;
  record.number = status.code;
  record.message = status.message;
  return record;
}

/** The canonical code a value names — by name in either case (`-` for `_`) or by number — if any. */
export function statusCodeOf(value: Value): number | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 && value < statusCodes.length ? value : undefined;
  }
  if (typeof value === 'string') {
    const wanted = canonical(value.trim()).replaceAll('-', '_');
    const found = statusCodes.indexOf(wanted);
    return found >= 0 ? found : undefined;
  }
  return undefined;
}

/** The status a record like {@link statusRecord}'s describes (UNKNOWN when it names no code). */
export function statusOfRecord(record: Value): Status {
  let code = statusCodeOf(lookup(record, 'code'));
  if (code === undefined) code = statusCodeOf(lookup(record, 'number'));
  const message = lookup(record, 'message');
  return new Status(code ?? 2, message === null ? '' : asText(message));
}

/** Whether a value is a status record that says the outcome was bad. */
export function isFailedRecord(record: Value): boolean {
  if (kindOf(record) !== 'object') return false;
  return !truthy(lookup(record, 'ok'));
}
