/**
 * A duration in the spelling a time-out message uses (absl's `FormatDuration`): `30s`, `1.5s`,
 * `2m`, `1h0m0.5s`, `250ms`, `1.5ms` — unlike a value's text, the seconds carry a fraction rather
 * than breaking into smaller units.
 */
function trimFraction(value: number): string {
  return String(Number(value.toFixed(9)));
}

export function messageDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return seconds > 0 ? 'inf' : '-inf';
  if (seconds === 0) return '0';
  const sign = seconds < 0 ? '-' : '';
  let left = Math.abs(seconds);
  if (left < 1) {
    if (left >= 1e-3) return `${sign}${trimFraction(left * 1e3)}ms`;
    if (left >= 1e-6) return `${sign}${trimFraction(left * 1e6)}us`;
    return `${sign}${trimFraction(left * 1e9)}ns`;
  }
  let out = sign;
  const hours = Math.floor(left / 3600);
  if (hours > 0) {
    out += `${hours}h`;
    left -= hours * 3600;
  }
  const minutes = Math.floor(left / 60);
  if (minutes > 0 || (hours > 0 && left > 0)) {
    out += `${minutes}m`;
    left -= minutes * 60;
  }
  if (left > 0 || (hours === 0 && minutes === 0)) out += `${trimFraction(left)}s`;
  return out;
}
