/**
 * One source text and the three ways a position in it is counted.
 *
 * - **UTF-16 code units** — what a JavaScript string, Lezer and CodeMirror index with. Everything
 *   inside the compiler (syntax tree, checker, program) works in these.
 * - **UTF-8 bytes** — the reference's `offset`, and what the `flow.diagnostics/v1` wire format
 *   carries in `range.*.offset` and in a fix's `start`/`end`.
 * - **line and column** — 1-based, the column counted in code points, for a person or a log.
 *
 * For ASCII the three agree, which is exactly why they are easy to mix up: this is the only
 * place that converts between them. Built once per text in O(n); each lookup is a binary search
 * for the line and a walk along it.
 */

export interface Position {
  /** UTF-8 byte offset from the start of the text. */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column, in code points. */
  column: number;
}

export class SourceText {
  readonly text: string;
  /** UTF-16 offset of the first unit of each line; built when first needed. */
  private starts: number[] | null = null;
  /** UTF-8 byte offset of the first byte of each line. */
  private byteStarts: number[] = [0];

  constructor(text: string) {
    this.text = text;
  }

  /** Most checks of a clean file never ask for a position, so the index is built lazily. */
  private get lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    const byteStarts = [0];
    const text = this.text;
    let bytes = 0;
    for (let at = 0; at < text.length; at++) {
      const unit = text.charCodeAt(at);
      bytes += utf8Width(text, at, unit);
      if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(at + 1))) at++;
      if (unit === 10) {
        starts.push(at + 1);
        byteStarts.push(bytes);
      }
    }
    this.byteStarts = byteStarts;
    this.starts = starts;
    return starts;
  }

  private get lineByteStarts(): number[] {
    void this.lineStarts;
    return this.byteStarts;
  }

  get length(): number {
    return this.text.length;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The 0-based line holding a UTF-16 offset (clamped into the text). */
  private lineIndexOf(utf16: number): number {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle]! <= utf16) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Clamps an offset into the text and off the middle of a surrogate pair. */
  private clamp(utf16: number): number {
    const at = Math.max(0, Math.min(Math.trunc(utf16) || 0, this.text.length));
    if (at > 0 && at < this.text.length && isLowSurrogate(this.text.charCodeAt(at)) && isHighSurrogate(this.text.charCodeAt(at - 1))) {
      return at - 1;
    }
    return at;
  }

  /** The byte offset, line and column of a UTF-16 offset. */
  position(utf16: number): Position {
    const at = this.clamp(utf16);
    const line = this.lineIndexOf(at);
    let offset = this.lineByteStarts[line]!;
    let column = 1;
    for (let index = this.lineStarts[line]!; index < at; index++) {
      const unit = this.text.charCodeAt(index);
      offset += utf8Width(this.text, index, unit);
      if (isHighSurrogate(unit) && isLowSurrogate(this.text.charCodeAt(index + 1))) index++;
      column++;
    }
    return { offset, line: line + 1, column };
  }

  /** The 1-based line of a UTF-16 offset. */
  line(utf16: number): number {
    return this.lineIndexOf(this.clamp(utf16)) + 1;
  }

  /** The UTF-8 byte offset of a UTF-16 offset. */
  byteOffset(utf16: number): number {
    return this.position(utf16).offset;
  }

  /** The UTF-16 offset of a UTF-8 byte offset (one inside a character rounds down to its start). */
  utf16Offset(byteOffset: number): number {
    let low = 0;
    let high = this.lineByteStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineByteStarts[middle]! <= byteOffset) low = middle;
      else high = middle - 1;
    }
    let bytes = this.lineByteStarts[low]!;
    let at = this.lineStarts[low]!;
    while (at < this.text.length) {
      const unit = this.text.charCodeAt(at);
      const width = utf8Width(this.text, at, unit);
      if (bytes + width > byteOffset) break;
      bytes += width;
      at += isHighSurrogate(unit) && isLowSurrogate(this.text.charCodeAt(at + 1)) ? 2 : 1;
    }
    return at;
  }

  /** The UTF-16 offset of a 1-based line and code-point column, clamped into that line. */
  offsetAt(line: number, column: number): number {
    if (line < 1) return 0;
    if (line > this.lineStarts.length) return this.text.length;
    const end = line < this.lineStarts.length ? this.lineStarts[line]! - 1 : this.text.length;
    let at = this.lineStarts[line - 1]!;
    for (let count = 1; count < column && at < end; count++) {
      at += isHighSurrogate(this.text.charCodeAt(at)) && isLowSurrogate(this.text.charCodeAt(at + 1)) ? 2 : 1;
    }
    return at;
  }
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Bytes the character starting at `at` takes in UTF-8; a lone surrogate is written as U+FFFD (3). */
function utf8Width(text: string, at: number, unit: number): number {
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(at + 1))) return 4;
  return 3;
}

/** How many bytes a string takes in UTF-8. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    bytes += utf8Width(text, at, unit);
    if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(at + 1))) at++;
  }
  return bytes;
}
