/**
 * What a `match` pattern makes of a line, as values: the pattern language (`../../pattern.ts`)
 * hands back the text each hole took, and this reads each as its hole says — `{n:int}` as a
 * number, `{t:time}` as an instant, `{j:json}` as JSON. A record when every hole is named, a
 * list read by position when any is not.
 */
import { StatusCode, StatusError } from '../../../wire/status.js';
import { allHolesNamed, compilePattern, matchPattern, type HoleKind, type Pattern } from '../../pattern.js';
import { asDuration, asJson, asNumber, asTime } from './convert.js';
import { newRecord, type Value } from './value.js';

function holeValue(kind: HoleKind, text: string): Value {
  switch (kind) {
    case 'int':
    case 'number':
      return asNumber(text);
    case 'bool':
      return text.toLowerCase() === 'true';
    case 'duration':
      return asDuration(text);
    case 'time':
      return asTime(text);
    case 'json':
      return asJson(text);
    default:
      return text;
  }
}

/** The fields `pattern` reads out of `subject`, or null where it does not fit. */
export function matchValue(pattern: Pattern, subject: string): Value {
  const captures = matchPattern(pattern, subject);
  if (captures === null) return null;
  if (!allHolesNamed(pattern)) return captures.map((text, index) => holeValue(pattern.holes[index]!.kind, text));
  const record = newRecord();
  captures.forEach((text, index) => {
    const hole = pattern.holes[index]!;
    record[hole.name] = holeValue(hole.kind, text);
  });
  return record;
}

const compiled = new Map<string, Pattern>();

/** A pattern compiled once per text; INVALID_ARGUMENT naming what is wrong with a bad one. */
export function patternFor(text: string): Pattern {
  const cached = compiled.get(text);
  if (cached) return cached;
  const result = compilePattern(text);
  if (!result.ok) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `The pattern '${text}' cannot be read: ${result.error}`);
  }
  if (compiled.size > 500) compiled.clear();
  compiled.set(text, result.pattern);
  return result.pattern;
}
