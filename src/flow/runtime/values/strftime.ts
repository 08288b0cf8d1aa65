/**
 * `%(%H:%M:%S)s` and friends: an instant formatted with a strftime pattern, in UTC. The
 * conversions are the ones absl's FormatTime understands that make sense for a UTC instant.
 */
import type { CivilTime } from './time.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

function pad(value: number, width: number, fill = '0'): string {
  return String(value).padStart(width, fill);
}

function fraction(civil: CivilTime, digits: number | 'all'): string {
  const nanos = pad(civil.subsecond, 9);
  if (digits === 'all') {
    const trimmed = nanos.replace(/0+$/, '');
    return trimmed ? `.${trimmed}` : '';
  }
  return digits === 0 ? '' : `.${nanos.slice(0, digits).padEnd(digits, '0')}`;
}

/** `pattern` with each conversion replaced by a field of `civil`; unknown ones are kept as written. */
export function formatStrftime(pattern: string, civil: CivilTime): string {
  let out = '';
  for (let at = 0; at < pattern.length; at++) {
    const letter = pattern[at]!;
    if (letter !== '%' || at + 1 >= pattern.length) {
      out += letter;
      continue;
    }
    let code = pattern[++at]!;
    // absl's extensions: %Ez (offset with a colon), %E*S (seconds with all fractional digits),
    // %E#S (seconds with # digits), %E4Y (a four-digit year).
    if (code === 'E' && at + 1 < pattern.length) {
      const rest = pattern.slice(at + 1);
      if (rest.startsWith('z')) {
        out += '+00:00';
        at += 1;
        continue;
      }
      if (rest.startsWith('*S')) {
        out += pad(civil.second, 2) + fraction(civil, 'all');
        at += 2;
        continue;
      }
      if (rest.startsWith('4Y')) {
        out += pad(civil.year, 4);
        at += 2;
        continue;
      }
      const digits = /^(\d)S/.exec(rest);
      if (digits) {
        out += pad(civil.second, 2) + fraction(civil, Number(digits[1]));
        at += 2;
        continue;
      }
      code = 'E';
    }
    switch (code) {
      case '%':
        out += '%';
        break;
      case 'Y':
        out += String(civil.year);
        break;
      case 'y':
        out += pad(civil.year % 100, 2);
        break;
      case 'C':
        out += pad(Math.floor(civil.year / 100), 2);
        break;
      case 'm':
        out += pad(civil.month, 2);
        break;
      case 'd':
        out += pad(civil.day, 2);
        break;
      case 'e':
        out += pad(civil.day, 2, ' ');
        break;
      case 'H':
        out += pad(civil.hour, 2);
        break;
      case 'I':
        out += pad(civil.hour % 12 === 0 ? 12 : civil.hour % 12, 2);
        break;
      case 'M':
        out += pad(civil.minute, 2);
        break;
      case 'S':
        out += pad(civil.second, 2);
        break;
      case 'p':
        out += civil.hour < 12 ? 'AM' : 'PM';
        break;
      case 'j':
        out += pad(civil.yearDay, 3);
        break;
      case 'a':
        out += WEEKDAYS[civil.weekday]!.slice(0, 3);
        break;
      case 'A':
        out += WEEKDAYS[civil.weekday]!;
        break;
      case 'b':
      case 'h':
        out += MONTHS[civil.month - 1]!.slice(0, 3);
        break;
      case 'B':
        out += MONTHS[civil.month - 1]!;
        break;
      case 'u':
        out += String(civil.weekday === 0 ? 7 : civil.weekday);
        break;
      case 'w':
        out += String(civil.weekday);
        break;
      case 'z':
        out += '+0000';
        break;
      case 'Z':
        out += 'UTC';
        break;
      case 'F':
        out += `${pad(civil.year, 4)}-${pad(civil.month, 2)}-${pad(civil.day, 2)}`;
        break;
      case 'T':
        out += `${pad(civil.hour, 2)}:${pad(civil.minute, 2)}:${pad(civil.second, 2)}`;
        break;
      case 'R':
        out += `${pad(civil.hour, 2)}:${pad(civil.minute, 2)}`;
        break;
      case 'D':
        out += `${pad(civil.month, 2)}/${pad(civil.day, 2)}/${pad(civil.year % 100, 2)}`;
        break;
      case 's': {
        const days = Math.round((Date.UTC(civil.year, civil.month - 1, civil.day) / 86_400_000));
        out += String(days * 86400 + civil.hour * 3600 + civil.minute * 60 + civil.second);
        break;
      }
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      default:
        out += `%${code}`;
        break;
    }
  }
  return out;
}
