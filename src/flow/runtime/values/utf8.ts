/**
 * Text measured the way the language measures it: `len` and `slice` count code points (what a
 * person sees), `chunk` and printf widths count UTF-8 bytes (what a buffer holds).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

export function utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** How many code points `text` holds. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) at++;
    }
    count++;
  }
  return count;
}

/** The UTF-16 offset `index` code points into `text`, clamped to its end. */
function codePointOffset(text: string, index: number): number {
  let seen = 0;
  let at = 0;
  while (at < text.length && seen < index) {
    const unit = text.charCodeAt(at);
    at += unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length ? 2 : 1;
    seen++;
  }
  return at;
}

/** Python-style slice bounds: negative counts from the end, everything clamped. */
export function sliceBounds(length: number, start: number, stop: number | undefined): [number, number] {
  const resolve = (at: number) => Math.min(Math.max(at < 0 ? at + length : at, 0), length);
  const from = resolve(start);
  const to = stop === undefined ? length : resolve(stop);
  return [from, Math.max(from, to)];
}

/** `text` between two code-point positions, cut as Python's slicing would. */
export function sliceCodePoints(text: string, start: number, stop?: number): string {
  const ascii = isAscii(text);
  const length = ascii ? text.length : codePointLength(text);
  const [from, to] = sliceBounds(length, start, stop);
  if (to <= from) return '';
  if (ascii) return text.slice(from, to);
  return text.slice(codePointOffset(text, from), codePointOffset(text, to));
}

export function isAscii(text: string): boolean {
  for (let at = 0; at < text.length; at++) if (text.charCodeAt(at) > 0x7f) return false;
  return true;
}

/** How many bytes `text` takes in UTF-8. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length) {
      bytes += 4;
      at++;
    } else bytes += 3;
  }
  return bytes;
}

/** The longest prefix of `text` that fits in `limit` UTF-8 bytes without splitting a character. */
export function utf8Prefix(text: string, limit: number): string {
  let bytes = 0;
  let at = 0;
  while (at < text.length) {
    const unit = text.charCodeAt(at);
    const pair = unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length;
    const width = unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + width > limit) break;
    bytes += width;
    at += pair ? 2 : 1;
  }
  return text.slice(0, at);
}

/** ASCII whitespace, as C's `isspace` knows it. */
export function isAsciiSpace(unit: number): boolean {
  return unit === 32 || (unit >= 9 && unit <= 13);
}

/** `text` without ASCII whitespace at either end (what `trim` and number parsing strip). */
export function trimAscii(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
