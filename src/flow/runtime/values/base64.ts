/**
 * Base64 in both alphabets. Encoding writes padding in the standard alphabet and none in the
 * URL-safe one (as the reference does); decoding accepts either, and skips whitespace.
 */
import { StatusCode, StatusError } from '../../../wire/status.js';

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function base64Encode(bytes: Uint8Array, urlSafe: boolean): string {
  const alphabet = urlSafe ? URL_SAFE : STANDARD;
  let out = '';
  let at = 0;
  for (; at + 2 < bytes.length; at += 3) {
    const word = (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]!;
    out += alphabet[word >> 18]! + alphabet[(word >> 12) & 63]! + alphabet[(word >> 6) & 63]! + alphabet[word & 63]!;
  }
  const left = bytes.length - at;
  if (left === 1) {
    const word = bytes[at]! << 16;
    out += alphabet[word >> 18]! + alphabet[(word >> 12) & 63]!;
    if (!urlSafe) out += '==';
  } else if (left === 2) {
    const word = (bytes[at]! << 16) | (bytes[at + 1]! << 8);
    out += alphabet[word >> 18]! + alphabet[(word >> 12) & 63]! + alphabet[(word >> 6) & 63]!;
    if (!urlSafe) out += '=';
  }
  return out;
}

/** The bytes `text` encodes; INVALID_ARGUMENT naming `what` when it is not base64. */
export function base64Decode(text: string, urlSafe: boolean, what: string): Uint8Array {
  const alphabet = urlSafe ? URL_SAFE : STANDARD;
  const refuse = () => new StatusError(StatusCode.INVALID_ARGUMENT, `${what} was given text that is not base64.`);
  const digits: number[] = [];
  let padding = 0;
  for (const letter of text) {
    if (letter === ' ' || letter === '\n' || letter === '\r' || letter === '\t' || letter === '\f' || letter === '\v') continue;
    if (letter === '=') {
      padding++;
      continue;
    }
    if (padding > 0) throw refuse();
    const digit = alphabet.indexOf(letter);
    if (digit < 0) throw refuse();
    digits.push(digit);
  }
  if (digits.length % 4 === 1 || padding > 2 || (padding > 0 && (digits.length + padding) % 4 !== 0)) throw refuse();
  const out = new Uint8Array(Math.floor((digits.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let written = 0;
  for (const digit of digits) {
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (value >> bits) & 0xff;
    }
  }
  return out;
}
