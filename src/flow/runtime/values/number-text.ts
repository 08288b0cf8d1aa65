/**
 * Numbers as text, spelled the way the reference spells them: a double as Python's `repr` writes
 * it (`3.0`, `0.1`, `1e-05`, `1e+16`), an integer as its digits.
 */

/**
 * A double as the shortest text that reads back as the same number, with `.0` on a whole one,
 * and an exponent only outside 1e-4 ≤ |x| < 1e16 (where `repr` switches, not where `%g` would).
 */
export function formatDouble(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  // `toExponential()` with no argument gives exactly the digits needed to read the number back.
  const scientific = value.toExponential();
  const marker = scientific.indexOf('e');
  const mantissa = scientific.slice(0, marker);
  const exponent = Number(scientific.slice(marker + 1));
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const power = Math.abs(exponent);
    return `${sign}${body}e${exponent < 0 ? '-' : '+'}${power < 10 ? `0${power}` : power}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || '0'}`;
}

/** An integer as its digits, however large. */
export function formatInteger(value: number): string {
  if (Math.abs(value) < 1e21) return String(value);
  return BigInt(value).toString();
}

/** A number without a pointless `.0`: what a `%(ms)d`-style unit conversion writes. */
export function trimNumber(value: number): string {
  if (Number.isFinite(value) && Number.isInteger(value) && Math.abs(value) < 1e18) return formatInteger(value);
  return formatDouble(value);
}
