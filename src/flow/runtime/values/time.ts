/**
 * Durations and instants as the language reads and writes them: `30s`, `1m30s`, `250ms`,
 * `forever`, RFC 3339 in UTC — each spelling readable by the function that reads the other.
 */
import { formatStrftime } from './strftime.js';
import { trimNumber } from './number-text.js';
import { Duration, Instant } from './value.js';

/** Units largest first: the compact rendering walks them in this order. Nanoseconds per unit. */
const UNITS: readonly (readonly [string, bigint])[] = [
  ['h', 3_600_000_000_000n],
  ['m', 60_000_000_000n],
  ['s', 1_000_000_000n],
  ['ms', 1_000_000n],
  ['us', 1_000n],
  ['ns', 1n],
];

const UNIT_SECONDS: Readonly<Record<string, number>> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };

export const FOREVER = new Duration(Infinity);

function isDigit(unit: number): boolean {
  return unit >= 48 && unit <= 57;
}

function isLetter(unit: number): boolean {
  return (unit >= 65 && unit <= 90) || (unit >= 97 && unit <= 122);
}

/**
 * A duration from written text — `30s`, `250ms`, `1m30s`, `-1m30s` (the sign belongs to the
 * whole), `forever`, or a bare number of seconds — or undefined when it is none of those.
 */
export function parseDuration(text: string): Duration | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const lowered = trimmed.toLowerCase();
  if (lowered === 'forever' || lowered === 'infinite' || lowered === 'inf') return FOREVER;
  let total = 0;
  let sign = 1;
  let pieces = 0;
  let at = 0;
  while (at < trimmed.length) {
    const here = trimmed.charCodeAt(at);
    if (here === 32 || here === 9) {
      at++;
      continue;
    }
    const began = at;
    if (here === 43 || here === 45) at++;
    const whole = at;
    while (at < trimmed.length && isDigit(trimmed.charCodeAt(at))) at++;
    if (at === whole) return undefined;
    if (trimmed[at] === '.') {
      at++;
      const fraction = at;
      while (at < trimmed.length && isDigit(trimmed.charCodeAt(at))) at++;
      if (at === fraction) return undefined;
    }
    const number = trimmed.slice(began, at);
    while (at < trimmed.length && (trimmed[at] === ' ' || trimmed[at] === '\t')) at++;
    const word = at;
    while (at < trimmed.length && isLetter(trimmed.charCodeAt(at))) at++;
    const unit = trimmed.slice(word, at);
    let scale = 1;
    if (unit) {
      const seconds = UNIT_SECONDS[unit];
      if (seconds === undefined || !Object.hasOwn(UNIT_SECONDS, unit)) return undefined;
      scale = seconds;
    }
    if (pieces === 0 && number.startsWith('-')) sign = -1;
    total += Math.abs(Number(number)) * scale;
    pieces++;
  }
  if (pieces === 0) return undefined;
  return Duration.seconds(sign * total);
}

/**
 * A duration as text: compact (`1m30s`, `1ms500us`), or — when `spec` names a unit — one number of
 * that unit (`90000` for `ms`). Fine units are dropped once a whole second has been written.
 */
export function durationText(value: Duration, spec = ''): string {
  if (value.isInfinite) return 'forever';
  const total = BigInt(Math.round(value.nanos));
  for (const [name, step] of UNITS) {
    if (spec === name) return trimNumber(Number(total) / Number(step));
  }
  if (total === 0n) return '0s';
  let left = total < 0n ? -total : total;
  let pieces = '';
  let coarse = false;
  for (const [name, step] of UNITS) {
    if ((name === 'us' || name === 'ns') && coarse) break;
    if (step >= 1_000_000_000n && pieces) coarse = true;
    const count = left / step;
    if (count !== 0n) {
      pieces += `${count}${name}`;
      left -= count * step;
    }
    if (left <= 0n) break;
  }
  return `${total < 0n ? '-' : ''}${pieces || '0s'}`;
}

const DAY_NANOS = 86_400_000_000_000n;

/** Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Nanoseconds within the second. */
  subsecond: number;
  /** 0 = Sunday. */
  weekday: number;
  /** 1-based day of the year. */
  yearDay: number;
}

/** The UTC calendar fields of an instant. */
export function civilOf(instant: Instant): CivilTime {
  let days = instant.nanos / DAY_NANOS;
  let within = instant.nanos % DAY_NANOS;
  if (within < 0n) {
    within += DAY_NANOS;
    days -= 1n;
  }
  const z = Number(days) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const seconds = Number(within / 1_000_000_000n);
  const yearStart = daysFromCivil(year, 1, 1);
  return {
    year,
    month,
    day,
    hour: Math.floor(seconds / 3600),
    minute: Math.floor(seconds / 60) % 60,
    second: seconds % 60,
    subsecond: Number(within % 1_000_000_000n),
    weekday: (((Number(days) % 7) + 7 + 4) % 7),
    yearDay: Number(days) - yearStart + 1,
  };
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * An instant as text: RFC 3339 in UTC (`2026-08-11T09:14:22Z`, microseconds when it has a
 * fraction), seconds since the epoch for `epoch`, or a strftime pattern.
 */
export function timeText(value: Instant, spec = ''): string {
  if (spec === 'epoch') return trimNumber(Number(value.nanos) / 1e9);
  if (spec) return formatStrftime(spec, civilOf(value));
  const civil = civilOf(value);
  const base = `${pad(civil.year, 4)}-${pad(civil.month, 2)}-${pad(civil.day, 2)}T${pad(civil.hour, 2)}:${pad(civil.minute, 2)}:${pad(civil.second, 2)}`;
  if (civil.subsecond === 0) return `${base}Z`;
  return `${base}.${pad(Math.floor(civil.subsecond / 1000), 6)}Z`;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|z|[+-]\d{2}:\d{2})?)?$/;

/** An instant from RFC 3339 text (a zone-less one is UTC), or a bare `YYYY-MM-DD`; else undefined. */
export function parseTime(text: string): Instant | undefined {
  const match = RFC3339.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const y = Number(year);
  const mo = Number(month);
  const d = Number(day);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  const h = Number(hour ?? 0);
  const mi = Number(minute ?? 0);
  const s = Number(second ?? 0);
  if (h > 23 || mi > 59 || s > 60) return undefined;
  let nanos = BigInt(daysFromCivil(y, mo, d)) * DAY_NANOS + BigInt((h * 3600 + mi * 60 + s) * 1e9);
  if (fraction) nanos += BigInt(fraction.slice(0, 9).padEnd(9, '0'));
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1n : 1n;
    const offset = BigInt(Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60) * 1_000_000_000n;
    nanos -= sign * offset;
  }
  return new Instant(nanos);
}

export function nowInstant(): Instant {
  const ms = Date.now();
  const fine = typeof performance !== 'undefined' ? Math.floor((performance.now() % 1) * 1e6) : 0;
  return new Instant(BigInt(ms) * 1_000_000n + BigInt(fine));
}

/** `instant + duration`, saturating at the far ends for an infinite duration. */
export function shiftInstant(instant: Instant, by: Duration, sign: 1 | -1 = 1): Instant {
  if (by.isInfinite) return new Instant(sign * Math.sign(by.nanos) > 0 ? 2n ** 62n : -(2n ** 62n));
  return new Instant(instant.nanos + BigInt(sign * Math.round(by.nanos)));
}

/** `later - earlier`, as a duration. */
export function between(later: Instant, earlier: Instant): Duration {
  return new Duration(Number(later.nanos - earlier.nanos));
}
