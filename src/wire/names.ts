import { StatusCode, StatusError } from './status.js';

/** Ids, port names and header keys on the wire: 1–255 characters, no leading/trailing `#` or `-`. */
const NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_#-]{0,253}[A-Za-z0-9_])?$/;

export function isValidName(name: string): boolean {
  return NAME.test(name);
}

/** Throws INVALID_ARGUMENT naming `what` when `name` is not a valid wire name. */
export function checkName(name: string, what: string): void {
  if (!isValidName(name)) {
    throw new StatusError(
      StatusCode.INVALID_ARGUMENT,
      `Invalid ${what} '${name.length > 80 ? `${name.slice(0, 80)}…` : name}': use 1–255 letters, digits, '_', '-' or '#', ` +
        `starting and ending with a letter, digit or '_'.`,
    );
  }
}

/** Names starting with `__` are the protocol's own (`__status__`, `__list_actions__`, …). */
export function isReservedName(name: string): boolean {
  return name.startsWith('__');
}

/** Where a call's port lives unless the call says otherwise: `<callId>#<port>`. */
export function portNodeId(callId: string, port: string): string {
  return `${callId}#${port}`;
}
