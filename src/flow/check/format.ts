/**
 * Numbers and durations written back the way the reference's labels write them, so a step's
 * label in `flow.plan/v1` reads the same here as there: a number with six significant digits
 * (`%g`), a duration as `1m30s`, `250ms`, `1.5us`.
 */

/** A double with six significant digits and no trailing zeros, as C's `%g` writes it. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const exponent = Math.floor(Math.log10(Math.abs(Number(value.toPrecision(6)))));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa = '0', power = '0'] = value.toExponential(5).split('e');
    const digits = Number(power);
    const sign = digits < 0 ? '-' : '+';
    return `${trimZeros(mantissa)}e${sign}${String(Math.abs(digits)).padStart(2, '0')}`;
  }
  return trimZeros(value.toFixed(Math.max(0, 5 - exponent)));
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

const UNITS: readonly [string, number][] = [
  ['ms', 1e-3],
  ['us', 1e-6],
  ['ns', 1e-9],
];

/** A duration in seconds as `2h`, `1m30s`, `1.5s`, `250ms`, `0`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return seconds > 0 ? 'inf' : '-inf';
  if (seconds === 0) return '0';
  if (seconds < 0) return `-${formatDuration(-seconds)}`;
  // Whole nanoseconds, which is the resolution a duration has.
  let nanos = Math.round(seconds * 1e9);
  if (nanos < 1e9) {
    for (const [unit, size] of UNITS) {
      const scale = size * 1e9;
      if (nanos >= scale || unit === 'ns') return `${fraction(nanos / scale)}${unit}`;
    }
  }
  let text = '';
  const hours = Math.floor(nanos / 3.6e12);
  nanos -= hours * 3.6e12;
  const minutes = Math.floor(nanos / 6e10);
  nanos -= minutes * 6e10;
  if (hours > 0) text += `${hours}h`;
  if (minutes > 0) text += `${minutes}m`;
  if (nanos > 0) text += `${fraction(nanos / 1e9)}s`;
  return text;
}

/** Up to nine decimals, trailing zeros trimmed. */
function fraction(value: number): string {
  return trimZeros(value.toFixed(9));
}
