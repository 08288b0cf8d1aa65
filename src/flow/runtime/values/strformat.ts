/**
 * `strformat`: printf's own syntax, and only that — `%s %d %i %f %e %E %g %G %x %X %o`, flags
 * `-+ 0#`, width, precision, `%N$` to pick an argument, `%%` — plus one addition, `%(SPEC)`, which
 * applies a duration unit (`%(ms)d`), a strftime pattern or `epoch` to the value first.
 *
 * A format string can come from a model, so nothing here reaches into a value: no attribute
 * access, no indexing. A conversion with no argument behind it stays as written, because a visible
 * `%3$s` is easier to diagnose than a flow that died formatting a log line.
 */
import { asDouble, asText } from './convert.js';
import { durationText, timeText } from './time.js';
import { utf8Length, utf8Prefix } from './utf8.js';
import { Duration, Instant, type Value } from './value.js';

const NUMERIC = 'difeEgGxXo';
const CONVERSIONS = 'sdifeEgGxXo';

function withSpec(value: Value, spec: string): Value {
  if (value instanceof Duration) return durationText(value, spec);
  if (value instanceof Instant) return timeText(value, spec);
  return value;
}

interface Spec {
  left: boolean;
  plus: boolean;
  space: boolean;
  zero: boolean;
  alternate: boolean;
  width: number;
  precision: number | undefined;
}

/** Pads `body` (already carrying its sign/prefix in `prefix`) to the width, as printf does. */
function padded(spec: Spec, prefix: string, body: string, zeroAllowed: boolean): string {
  const length = utf8Length(prefix) + utf8Length(body);
  if (length >= spec.width) return prefix + body;
  const fill = spec.width - length;
  if (spec.left) return prefix + body + ' '.repeat(fill);
  if (spec.zero && zeroAllowed) return prefix + '0'.repeat(fill) + body;
  return ' '.repeat(fill) + prefix + body;
}

function signPrefix(negative: boolean, spec: Spec): string {
  if (negative) return '-';
  if (spec.plus) return '+';
  if (spec.space) return ' ';
  return '';
}

/** C's `%e` exponent: at least two digits. */
function cExponent(text: string): string {
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function formatE(magnitude: number, precision: number, alternate: boolean): string {
  let text = cExponent(magnitude.toExponential(precision));
  if (alternate && precision === 0) text = text.replace('e', '.e');
  return text;
}

function formatG(magnitude: number, precision: number, alternate: boolean): string {
  const p = precision === 0 ? 1 : precision;
  const exponent = Number(magnitude.toExponential(p - 1).split('e')[1]);
  let text =
    exponent < -4 || exponent >= p ? cExponent(magnitude.toExponential(p - 1)) : magnitude.toFixed(Math.max(p - 1 - exponent, 0));
  if (!alternate) {
    text = text.includes('e')
      ? text.replace(/\.?0+e/, 'e')
      : text.includes('.')
        ? text.replace(/\.?0+$/, '')
        : text;
  } else if (!text.includes('.')) {
    text = text.includes('e') ? text.replace('e', '.e') : `${text}.`;
  }
  return text;
}

function formatFloat(number: number, conversion: string, spec: Spec): string {
  const upper = conversion === conversion.toUpperCase();
  const negative = number < 0 || Object.is(number, -0);
  const prefix = signPrefix(negative, spec);
  if (!Number.isFinite(number)) {
    const body = Number.isNaN(number) ? 'nan' : 'inf';
    return padded(spec, Number.isNaN(number) ? signPrefix(false, spec) : prefix, upper ? body.toUpperCase() : body, false);
  }
  const magnitude = Math.abs(number);
  const precision = spec.precision ?? 6;
  let body: string;
  switch (conversion.toLowerCase()) {
    case 'f':
      body = magnitude.toFixed(Math.min(precision, 100));
      if (spec.alternate && precision === 0) body += '.';
      break;
    case 'e':
      body = formatE(magnitude, Math.min(precision, 100), spec.alternate);
      break;
    default:
      body = formatG(magnitude, Math.min(precision, 100), spec.alternate);
      break;
  }
  return padded(spec, prefix, upper ? body.toUpperCase() : body, true);
}

/** `static_cast<long long>` of a double: truncation, saturating at the int64 range. */
function toInt64(number: number): bigint {
  if (Number.isNaN(number)) return 0n;
  if (number >= 9.223372036854775807e18) return 9223372036854775807n;
  if (number <= -9.223372036854775808e18) return -9223372036854775808n;
  return BigInt(Math.trunc(number));
}

function formatInteger(number: number, conversion: string, spec: Spec): string {
  const whole = toInt64(number);
  let digits: string;
  let prefix = '';
  if (conversion === 'd') {
    prefix = signPrefix(whole < 0n, spec);
    digits = (whole < 0n ? -whole : whole).toString();
  } else {
    // Unsigned conversions see a negative number as its two's-complement bit pattern.
    const unsigned = BigInt.asUintN(64, whole);
    digits = unsigned.toString(conversion === 'o' ? 8 : 16);
    if (conversion === 'X') digits = digits.toUpperCase();
    if (spec.alternate && unsigned !== 0n) {
      if (conversion === 'o') digits = `0${digits}`;
      else prefix = conversion === 'x' ? '0x' : '0X';
    }
  }
  if (spec.precision !== undefined) {
    if (spec.precision === 0 && whole === 0n) digits = '';
    digits = digits.padStart(spec.precision, '0');
  }
  return padded(spec, prefix, digits, spec.precision === undefined);
}

function formatText(value: Value, spec: Spec): string {
  let text = asText(value);
  if (spec.precision !== undefined) text = utf8Prefix(text, spec.precision);
  return padded({ ...spec, zero: false }, '', text, false);
}

function convert(value: Value, flags: string, width: string, precision: string | undefined, conversion: string): string {
  const numeric = NUMERIC.includes(conversion);
  const spec: Spec = {
    left: flags.includes('-'),
    plus: flags.includes('+'),
    space: flags.includes(' '),
    // `#` and `0` mean nothing beside a string; dropping them keeps the value visible.
    zero: numeric && flags.includes('0') && !flags.includes('-'),
    alternate: numeric && flags.includes('#'),
    width: width ? Number(width) : 0,
    precision: precision === undefined ? undefined : Number(precision),
  };
  if (conversion === 'i') conversion = 'd';
  if (conversion === 'd' || conversion === 'x' || conversion === 'X' || conversion === 'o') {
    return formatInteger(asDouble(value), conversion, spec);
  }
  if (numeric) return formatFloat(asDouble(value), conversion, spec);
  return formatText(value, spec);
}

function isDigit(letter: string | undefined): boolean {
  return letter !== undefined && letter >= '0' && letter <= '9';
}

/** `format` (read as text) with each `%` conversion replaced by one of `args`. */
export function strformat(format: Value, args: readonly Value[]): string {
  const text = asText(format);
  let out = '';
  let at = 0;
  let next = 0;
  while (at < text.length) {
    const percent = text.indexOf('%', at);
    if (percent < 0) {
      out += text.slice(at);
      break;
    }
    out += text.slice(at, percent);
    at = percent;
    if (text[at + 1] === '%') {
      out += '%';
      at += 2;
      continue;
    }
    let cursor = at + 1;
    let chosen: number | undefined;
    const digits = cursor;
    while (isDigit(text[cursor])) cursor++;
    if (cursor > digits && text[cursor] === '$') {
      chosen = Number(text.slice(digits, cursor));
      cursor++;
    } else {
      cursor = at + 1;
    }
    let spec = '';
    if (text[cursor] === '(') {
      const closes = text.indexOf(')', cursor);
      if (closes < 0) {
        out += '%';
        at++;
        continue;
      }
      spec = text.slice(cursor + 1, closes);
      cursor = closes + 1;
    }
    const flagsStart = cursor;
    while (cursor < text.length && '-+ 0#'.includes(text[cursor]!)) cursor++;
    const flags = text.slice(flagsStart, cursor);
    const widthStart = cursor;
    while (isDigit(text[cursor])) cursor++;
    const width = text.slice(widthStart, cursor);
    let precision: string | undefined;
    if (text[cursor] === '.') {
      const began = ++cursor;
      while (isDigit(text[cursor])) cursor++;
      if (cursor === began) {
        out += '%';
        at++;
        continue;
      }
      precision = text.slice(began, cursor);
    }
    const conversion = text[cursor];
    if (conversion === undefined || !CONVERSIONS.includes(conversion)) {
      // A `%` that starts nothing recognisable stays, so `"100% done"` says what it looks like.
      out += '%';
      at++;
      continue;
    }
    const index = chosen !== undefined ? chosen - 1 : next++;
    if (index < 0 || index >= args.length) {
      out += text.slice(at, cursor + 1);
      at = cursor + 1;
      continue;
    }
    let value = args[index] ?? null;
    if (spec) value = withSpec(value, spec);
    out += convert(value, flags, width, precision, conversion);
    at = cursor + 1;
  }
  return out;
}
