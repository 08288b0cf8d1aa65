/**
 * Character-level reading of Flow source, shared by the Lezer tokenizers (which read through an
 * `InputStream`) and by the syntax layer (which reads a plain string). The rules are the
 * reference lexer's: what a name, a number, a string and a line break are.
 */

/** Anything that can hand out the code unit at an offset (-1 past either end). */
export interface CharSource {
  peek(offset: number): number;
}

export const NEWLINE = 10;
const SPACE = 32;
const TAB = 9;
const CR = 13;
const HASH = 35;
const QUOTE = 34;
const BACKSLASH = 92;
const DASH = 45;
const DOT = 46;
/** `…` (U+2026): read as a spread, with a diagnostic offering `...`. */
export const ELLIPSIS = 0x2026;

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/** A name starts with a letter, `_`, `$`, or any non-ASCII character (so a port may be named in
 * any script). */
export function isNameStart(code: number): boolean {
  return isAsciiLetter(code) || code === 95 || code === 36 || code >= 0x80;
}

export function isNamePart(code: number): boolean {
  return isNameStart(code) || isDigit(code);
}

export function isBlank(code: number): boolean {
  return code === SPACE || code === TAB || code === CR;
}

/** The length of the name starting at `offset` (0 if none). A `-` continues a name only when a
 * name character follows it: `starts-with` is one name, `a - b` is a subtraction. */
export function nameLength(source: CharSource, offset: number): number {
  const first = source.peek(offset);
  if (!isNameStart(first) || (first === ELLIPSIS)) return 0;
  let end = offset + 1;
  for (;;) {
    const code = source.peek(end);
    if (isNamePart(code)) {
      end += 1;
    } else if (code === DASH && isNamePart(source.peek(end + 1))) {
      end += 2;
    } else {
      return end - offset;
    }
  }
}

/** What a number token turned out to be. */
export interface NumberShape {
  /** The whole token, unit included. */
  length: number;
  /** The digits (with sign and fraction), without the unit. */
  numberLength: number;
  /** The letters after the number; empty for a plain number. */
  unitLength: number;
}

/** Whether a number starts here: a digit, or `-` directly before a digit. */
export function startsNumber(source: CharSource, offset: number): boolean {
  const code = source.peek(offset);
  return isDigit(code) || (code === DASH && isDigit(source.peek(offset + 1)));
}

/** Reads `-?digits[.digits…]letters*`. A `.` that starts `..` ends the number (`1..200`). */
export function readNumber(source: CharSource, offset: number): NumberShape {
  let end = offset + 1;
  for (;;) {
    const code = source.peek(end);
    if (isDigit(code)) {
      end += 1;
    } else if (code === DOT && source.peek(end + 1) !== DOT) {
      end += 1;
    } else {
      break;
    }
  }
  const numberEnd = end;
  while (isAsciiLetter(source.peek(end))) end += 1;
  return { length: end - offset, numberLength: numberEnd - offset, unitLength: end - numberEnd };
}

/** What a string token turned out to be. */
export interface StringShape {
  length: number;
  triple: boolean;
  terminated: boolean;
}

/**
 * Reads a string at `offset` (which holds `"`). A `"…"` string ends at its line (unterminated
 * then); a `"""…"""` string may span lines and runs to the end of the input when unterminated.
 * A backslash escapes the character after it.
 */
export function readString(source: CharSource, offset: number): StringShape {
  if (source.peek(offset + 1) === QUOTE && source.peek(offset + 2) === QUOTE) {
    let end = offset + 3;
    for (;;) {
      const code = source.peek(end);
      if (code < 0) return { length: end - offset, triple: true, terminated: false };
      if (code === BACKSLASH && source.peek(end + 1) >= 0) {
        end += 2;
      } else if (code === QUOTE && source.peek(end + 1) === QUOTE && source.peek(end + 2) === QUOTE) {
        return { length: end + 3 - offset, triple: true, terminated: true };
      } else {
        end += 1;
      }
    }
  }
  let end = offset + 1;
  for (;;) {
    const code = source.peek(end);
    if (code < 0 || code === NEWLINE) return { length: end - offset, triple: false, terminated: false };
    if (code === QUOTE) return { length: end + 1 - offset, triple: false, terminated: true };
    if (code === BACKSLASH) {
      if (source.peek(end + 1) < 0) return { length: end + 1 - offset, triple: false, terminated: false };
      end += 2;
    } else {
      end += 1;
    }
  }
}

/** Skips spaces, tabs, carriage returns and a comment, but not a line break. */
export function skipBlanks(source: CharSource, offset: number): number {
  let at = offset;
  while (isBlank(source.peek(at))) at += 1;
  if (source.peek(at) === HASH) {
    while (source.peek(at) >= 0 && source.peek(at) !== NEWLINE) at += 1;
  }
  return at;
}

/** Skips blanks, comments and line breaks. */
export function skipLines(source: CharSource, offset: number): number {
  let at = skipBlanks(source, offset);
  while (source.peek(at) === NEWLINE) at = skipBlanks(source, at + 1);
  return at;
}

/** The kinds of token a lookahead distinguishes. */
export type PeekKind = 'newline' | 'end' | 'word' | 'string' | 'number' | 'punctuation' | 'bad';

export interface PeekedToken {
  kind: PeekKind;
  from: number;
  to: number;
}

/**
 * The length of the punctuation at `offset` (0 if none): `...`; `..`, `->`, `<-`, `==`, `!=`,
 * `<=`, `>=`; one of `{}()[]:,|=.<>+-`. The longest wins.
 */
export function punctuationLength(source: CharSource, offset: number): number {
  const code = source.peek(offset);
  switch (code) {
    case 46 /* . */:
      if (source.peek(offset + 1) !== 46) return 1;
      return source.peek(offset + 2) === 46 ? 3 : 2;
    case 45 /* - */:
    case 60 /* < */:
      // `->`, `<-`, `<=`
      return source.peek(offset + 1) === (code === 45 ? 62 : 45) || (code === 60 && source.peek(offset + 1) === 61) ? 2 : 1;
    case 61 /* = */:
    case 62 /* > */:
      return source.peek(offset + 1) === 61 ? 2 : 1;
    case 33 /* ! */:
      return source.peek(offset + 1) === 61 ? 2 : 0;
    case 123: case 125: case 40: case 41: case 91: case 93: // { } ( ) [ ]
    case 58: case 44: case 124: case 43: // : , | +
      return 1;
    default:
      return 0;
  }
}

/**
 * The token that starts at or after `offset` (blanks and a comment skipped, a line break is a
 * token), as the reference lexer would read it. A line break followed only by blank lines and
 * comments up to the end of the input is the end (the reference drops trailing line breaks).
 */
export function peekToken(source: CharSource, offset: number): PeekedToken {
  const at = skipBlanks(source, offset);
  const code = source.peek(at);
  if (code < 0) return { kind: 'end', from: at, to: at };
  if (code === NEWLINE) {
    const after = skipLines(source, at);
    if (source.peek(after) < 0) return { kind: 'end', from: after, to: after };
    return { kind: 'newline', from: at, to: at + 1 };
  }
  if (code === QUOTE) return { kind: 'string', from: at, to: at + readString(source, at).length };
  if (startsNumber(source, at)) return { kind: 'number', from: at, to: at + readNumber(source, at).length };
  if (code === ELLIPSIS) return { kind: 'punctuation', from: at, to: at + 1 };
  const name = nameLength(source, at);
  if (name > 0) return { kind: 'word', from: at, to: at + name };
  const punctuation = punctuationLength(source, at);
  if (punctuation > 0) return { kind: 'punctuation', from: at, to: at + punctuation };
  return { kind: 'bad', from: at, to: at + 1 };
}

/** Whether the text at `offset` is exactly `text`. */
export function matches(source: CharSource, offset: number, text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (source.peek(offset + index) !== text.charCodeAt(index)) return false;
  }
  return true;
}

/**
 * The text of a span (offsets from the source's position). A string source slices its string and
 * Lezer's `InputStream` its chunk (`read`, not in its published types); anything else is read
 * code by code. This runs for every word the tokenizer looks at.
 */
export function textOf(source: CharSource, from: number, to: number): string {
  if (source instanceof StringSource) return source.slice(from, to);
  const stream = source as CharSource & { read?: (from: number, to: number) => string; pos?: number };
  if (typeof stream.read === 'function' && typeof stream.pos === 'number') return stream.read(stream.pos + from, stream.pos + to);
  let text = '';
  for (let at = from; at < to; at += 1) text += String.fromCharCode(source.peek(at));
  return text;
}

/** A plain string read as a {@link CharSource}. A class rather than a closure, so the reading
 * functions here see one shape of string source and can inline its `peek`. */
class StringSource implements CharSource {
  constructor(private readonly text: string) {}

  peek(offset: number): number {
    return offset >= 0 && offset < this.text.length ? this.text.charCodeAt(offset) : -1;
  }

  slice(from: number, to: number): string {
    return this.text.slice(Math.max(0, from), Math.max(0, to));
  }
}

/** A plain string as a {@link CharSource}. */
export function stringSource(text: string): CharSource {
  return new StringSource(text);
}

/**
 * How deep brackets may nest before the tokenizer reads the rest of the text as one unusable
 * token. Lezer builds its tree recursively, so thousands of levels would exhaust the stack; the
 * language reads only 128 (`flow.syntax.nesting-too-deep`), so nothing past this changes what is
 * reported.
 */
export const LEZER_NESTING_LIMIT = 500;


/** The text of a word token, or `''` for any other kind. */
export function wordAt(input: CharSource, token: PeekedToken): string {
  return token.kind === 'word' ? textOf(input, token.from, token.to) : '';
}

/** Whether a token is exactly the punctuation `text`. */
export function isPunctuation(input: CharSource, token: PeekedToken, text: string): boolean {
  return token.kind === 'punctuation' && token.to - token.from === text.length && matches(input, token.from, text);
}
