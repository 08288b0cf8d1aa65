/**
 * `+` and `-`, the only arithmetic the language has, and the one division it does (`| avg`).
 *
 * Numbers add as numbers (text is read as a number, never concatenated), durations as durations,
 * an instant and a duration as the shifted instant, and two instants subtract to a duration.
 */
import { fail } from '../../../wire/status.js';
import { asDouble, asDuration, asNumber } from './convert.js';
import { between, shiftInstant } from './time.js';
import { double, Duration, Instant, Real, type Value } from './value.js';

export type ArithmeticOperator = '+' | '-';

function isTimelike(value: Value): boolean {
  return value instanceof Duration || value instanceof Instant;
}

/** `left op right`; INVALID_ARGUMENT for the two combinations that mean nothing. */
export function arithmetic(op: ArithmeticOperator, left: Value, right: Value): Value {
  if (typeof left === 'number' && typeof right === 'number') {
    const result = op === '+' ? left + right : left - right;
    return Number.isInteger(left) && Number.isInteger(right) ? result : double(result);
  }
  if (isTimelike(left) || isTimelike(right)) {
    if (left instanceof Instant && right instanceof Instant) {
      if (op === '-') return between(left, right);
      fail('INVALID_ARGUMENT', 'Two instants can be subtracted, but not added.');
    }
    if (left instanceof Instant) return shiftInstant(left, asDuration(right), op === '+' ? 1 : -1);
    if (right instanceof Instant) {
      if (op === '+') return shiftInstant(right, asDuration(left));
      fail('INVALID_ARGUMENT', 'An instant cannot be subtracted from a duration.');
    }
    const first = asDuration(left).nanos;
    const second = asDuration(right).nanos;
    return new Duration(op === '+' ? first + second : first - second);
  }
  const first = asNumber(left);
  const second = asNumber(right);
  if (typeof first === 'number' && typeof second === 'number' && Number.isInteger(first) && Number.isInteger(second)) {
    return op === '+' ? first + second : first - second;
  }
  const one = first instanceof Real ? first.value : first;
  const two = second instanceof Real ? second.value : second;
  return double(op === '+' ? one + two : one - two);
}

export function add(left: Value, right: Value): Value {
  return arithmetic('+', left, right);
}

/** A total divided by a count, for `| avg`: a duration stays a duration; nothing for a zero count. */
export function divide(total: Value, count: number): Value {
  if (count === 0) return null;
  if (total instanceof Duration) return new Duration(total.isInfinite ? total.nanos : Math.round(total.nanos / count));
  return double(asDouble(total) / count);
}
