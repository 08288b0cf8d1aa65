/**
 * The values of literal tokens, read the way the reference lexer reads them: string escapes,
 * `"""` dedenting, numbers and durations.
 */
import { durationUnitSeconds } from '../vocabulary';

/** Escapes resolved: `\n`, `\t`, `\r`; any other escaped character stands for itself. */
function unescape(text: string, keepTrailingBackslash: boolean): string {
  let value = '';
  for (let at = 0; at < text.length; at += 1) {
    const letter = text[at]!;
    if (letter !== '\\') {
      value += letter;
      continue;
    }
    if (at + 1 >= text.length) {
      if (keepTrailingBackslash) value += letter;
      break;
    }
    at += 1;
    const escaped = text[at]!;
    value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped === 'r' ? '\r' : escaped;
  }
  return value;
}

const isBlankLine = (line: string): boolean => /^[ \t\r]*$/.test(line);

/**
 * A `"""` string's text with the source's indentation taken back off: a blank first line goes, a
 * whitespace-only last line goes with the break before it, and the indentation every remaining
 * non-blank line shares is removed from each.
 */
function dedent(inner: string): string {
  const lines = inner.split('\n');
  if (lines.length > 1 && isBlankLine(lines[0]!)) lines.shift();
  if (lines.length > 1 && isBlankLine(lines[lines.length - 1]!)) lines.pop();
  let common = Infinity;
  for (const line of lines) {
    if (isBlankLine(line)) continue;
    common = Math.min(common, line.search(/[^ \t]/));
  }
  if (common === Infinity) common = 0;
  return lines.map((line) => (line.length > common ? line.slice(common) : '')).join('\n');
}

/** Whether a string token's text is closed by its quotes. */
export function isTerminatedString(text: string): boolean {
  if (text.startsWith('"""')) return text.length >= 6 && text.endsWith('"""') && !escapedAt(text, text.length - 3);
  return text.length >= 2 && text.endsWith('"') && !escapedAt(text, text.length - 1);
}

/** Whether the character at `index` is escaped by an odd run of backslashes before it. */
function escapedAt(text: string, index: number): boolean {
  let count = 0;
  for (let at = index - 1; at >= 0 && text[at] === '\\'; at -= 1) count += 1;
  return count % 2 === 1;
}

/** The value of a string token (either quoting), terminated or not. */
export function stringValue(text: string): string {
  if (text.startsWith('"""')) {
    const terminated = isTerminatedString(text);
    const inner = text.slice(3, terminated ? text.length - 3 : text.length);
    return unescape(dedent(inner), true);
  }
  const terminated = isTerminatedString(text);
  return unescape(text.slice(1, terminated ? text.length - 1 : text.length), false);
}

/** A number token's parts. */
export interface NumberValue {
  value: number;
  /** Written without a fractional part. */
  isInteger: boolean;
  /** Whether the digits read as a number at all (`1.2.3` does not). */
  valid: boolean;
}

export function numberValue(text: string): NumberValue {
  const valid = /^-?\d+(\.\d*)?$/.test(text);
  return { value: valid ? Number(text) : 0, isInteger: !text.includes('.'), valid };
}

/** Splits a duration token into its number and unit. */
export function splitDuration(text: string): { number: string; unit: string } {
  const match = /^(-?[\d.]+)([A-Za-z]*)$/.exec(text);
  return match ? { number: match[1]!, unit: match[2]! } : { number: text, unit: '' };
}

/** The seconds a duration token stands for (0 for one that cannot be read). */
export function durationSeconds(text: string): number {
  const { number, unit } = splitDuration(text);
  const seconds = durationUnitSeconds(unit);
  const parsed = numberValue(number);
  return seconds === undefined || !parsed.valid ? 0 : parsed.value * seconds;
}
