import { DEADLINE_HEADER, type Headers } from './action.js';
import { StatusCode, StatusError } from './status.js';

/**
 * The deadline an `x-a11-deadline` header sets, in milliseconds since the epoch: decimal
 * milliseconds, or nanoseconds with an `ns` suffix. Undefined without the header;
 * INVALID_ARGUMENT when it is malformed.
 */
export function deadlineFromHeaders(headers: Headers | undefined): number | undefined {
  const text = headers?.get(DEADLINE_HEADER);
  if (text === undefined) return undefined;
  const match = /^\s*(\d{1,25})(ns)?\s*$/.exec(text);
  if (!match?.[1]) {
    throw new StatusError(
      StatusCode.INVALID_ARGUMENT,
      `Header '${DEADLINE_HEADER}' must be milliseconds since the epoch (or nanoseconds ending in 'ns'), got '${text}'.`,
    );
  }
  const digits = BigInt(match[1]);
  return Number(match[2] ? digits / 1_000_000n : digits);
}

/** The header value for a deadline `ms` milliseconds since the epoch. */
export function deadlineHeaderValue(ms: number): string {
  return String(Math.floor(ms));
}
