import { decodeFields, encodeFields, invalid, readArray, readString, readUnsigned } from './msgpack-fields.js';
import { Status, StatusCode, type StatusDetail } from './status.js';

/** A status on the wire: (code, message, details) as concatenated msgpack values. */

const HIGHEST_CODE = StatusCode.UNAUTHENTICATED;

export function packStatus(status: Status): Uint8Array {
  if (!Number.isInteger(status.code) || status.code < 0 || status.code > HIGHEST_CODE) {
    throw invalid(`Status code ${status.code} is not a canonical code (0–${HIGHEST_CODE}).`);
  }
  return encodeFields([status.code, status.message, status.details]);
}

/** The status `bytes` hold; INVALID_ARGUMENT when they are not a packed status. */
export function unpackStatus(bytes: Uint8Array): Status {
  const [code, message, details] = decodeFields(bytes, 3, 'Status');
  const number = readUnsigned(code, 'Status.code', HIGHEST_CODE);
  const text = readString(message, 'Status.message');
  const list = details === null ? [] : readArray(details, 'Status.details');
  for (const detail of list) {
    if (detail === null || typeof detail !== 'object' || Array.isArray(detail) || detail instanceof Uint8Array) {
      throw invalid('Every Status detail must be a map.');
    }
  }
  return new Status(number, text, list as StatusDetail[]);
}

