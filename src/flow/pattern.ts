/**
 * The pattern language of `match` (the stage and the function): literal text with holes.
 *
 * | written        | means                                                          |
 * |----------------|----------------------------------------------------------------|
 * | literal text   | itself                                                         |
 * | spaces / tabs  | any run of horizontal whitespace (at least one character)      |
 * | a line break   | a line break, with horizontal whitespace allowed either side   |
 * | `{name}`       | captures as little as it can, up to what follows, on one line  |
 * | `{name:KIND}`  | captures and is read as KIND (`int`, `word`, `rest`, …)         |
 * | `{}`           | captures by position: `it[0]`, `it[1]`, …                       |
 * | `{{` and `}}`  | a literal brace                                                |
 *
 * A pattern searches: it fits anywhere in the subject, and the earliest fit wins. This module
 * compiles a pattern (the checker reports what is wrong with one, and reads its field names) and
 * matches one, handing back the text each hole took; reading that text as a number, a duration
 * or JSON is the runtime's job.
 */

import { matchPatternKinds } from './vocabulary.js';

export type HoleKind = 'string' | 'int' | 'number' | 'bool' | 'word' | 'line' | 'rest' | 'duration' | 'time' | 'json';

export interface Hole {
  /** The field it fills; empty for `{}`, which is read by position. */
  name: string;
  kind: HoleKind;
  /** Which hole this is, from zero. */
  position: number;
}

export type PatternPiece = { hole: Hole } | { literal: string };

export interface Pattern {
  pieces: PatternPiece[];
  holes: Hole[];
}

export type CompiledPattern =
  | { ok: true; pattern: Pattern }
  | { ok: false; error: string; /** UTF-16 offset into the pattern text. */ column: number };

/** Whether every hole has a name — then a match is a record with those fields. */
export function allHolesNamed(pattern: Pattern): boolean {
  return pattern.holes.length > 0 && pattern.holes.every((hole) => hole.name !== '');
}

const FIELD_NAME = /^[A-Za-z0-9_-]+$/;

/** Compiles a pattern, saying what is wrong with it rather than throwing. */
export function compilePattern(text: string): CompiledPattern {
  const pieces: PatternPiece[] = [];
  const holes: Hole[] = [];
  const named = new Set<string>();
  let literal = '';
  const flush = () => {
    if (literal) pieces.push({ literal });
    literal = '';
  };
  let at = 0;
  while (at < text.length) {
    const letter = text[at]!;
    if ((letter === '{' || letter === '}') && text[at + 1] === letter) {
      literal += letter;
      at += 2;
      continue;
    }
    if (letter === '}') {
      return { ok: false, error: "This '}' closes no hole; write '}}' for a literal brace.", column: at };
    }
    if (letter !== '{') {
      literal += letter;
      at++;
      continue;
    }
    const opened = at;
    const closes = text.indexOf('}', at + 1);
    if (closes < 0) {
      return { ok: false, error: "This '{' opens a hole that is never closed; write '{{' for a literal brace.", column: opened };
    }
    const inside = text.slice(at + 1, closes);
    at = closes + 1;
    const colon = inside.indexOf(':');
    const name = colon < 0 ? inside : inside.slice(0, colon);
    let kind: HoleKind = 'string';
    if (colon >= 0) {
      const spelled = inside.slice(colon + 1);
      if (!(matchPatternKinds as readonly string[]).includes(spelled)) {
        return {
          ok: false,
          error: `A hole cannot be read as '${spelled}'; the kinds are ${matchPatternKinds.join(', ')}.`,
          column: opened,
        };
      }
      kind = spelled as HoleKind;
    }
    if (name !== '') {
      if (!FIELD_NAME.test(name)) {
        return { ok: false, error: `'${name}' cannot name a hole: use letters, digits, '_' and '-'.`, column: opened };
      }
      if (named.has(name)) {
        return { ok: false, error: `Two holes are named '${name}', and a record has one field of a name.`, column: opened };
      }
      named.add(name);
    }
    flush();
    const hole: Hole = { name, kind, position: holes.length };
    holes.push(hole);
    pieces.push({ hole });
  }
  flush();
  if (holes.length === 0) {
    return { ok: false, error: "This pattern has no '{…}' hole, so a match would capture nothing.", column: 0 };
  }
  const restAt = pieces.findIndex((piece) => 'hole' in piece && piece.hole.kind === 'rest');
  if (restAt >= 0 && restAt < pieces.length - 1) {
    return { ok: false, error: "A 'rest' hole takes everything that is left, so nothing may follow it.", column: 0 };
  }
  return { ok: true, pattern: { pieces, holes } };
}

// ---------------------------------------------------------------------------------------------
// Matching

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

function flatRun(subject: string, at: number): number {
  let end = at;
  while (end < subject.length && isSpace(subject[end]) && subject[end] !== '\n') end++;
  return end - at;
}

function lineEnd(subject: string, at: number): number {
  const found = subject.indexOf('\n', at);
  return found < 0 ? subject.length : found;
}

/** Where a literal piece ends when matched at `at`, or -1. */
function matchLiteral(literal: string, subject: string, at: number): number {
  let index = 0;
  while (index < literal.length) {
    if (isSpace(literal[index])) {
      let breaks = false;
      while (index < literal.length && isSpace(literal[index])) {
        if (literal[index] === '\n') breaks = true;
        index++;
      }
      const before = at;
      at += flatRun(subject, at);
      if (breaks) {
        if (subject[at] !== '\n') return -1;
        at++;
        at += flatRun(subject, at);
      } else if (at === before) {
        return -1;
      }
      continue;
    }
    if (subject[at] !== literal[index]) return -1;
    index++;
    at++;
  }
  return at;
}

/** How far a hole whose kind has a shape of its own reaches from `at`; -1 when it does not fit,
 * undefined when the kind is bounded by what follows it instead. */
function typedRun(kind: HoleKind, subject: string, at: number): number | undefined {
  switch (kind) {
    case 'rest':
      return subject.length;
    case 'line':
      return lineEnd(subject, at);
    case 'word': {
      let end = at;
      while (end < subject.length && !isSpace(subject[end])) end++;
      return end;
    }
    case 'int':
    case 'number': {
      let end = at;
      if (subject[end] === '-' || subject[end] === '+') end++;
      const digits = end;
      while (isDigit(subject[end])) end++;
      if (end === digits) return -1;
      if (kind === 'number' && subject[end] === '.') {
        const point = end;
        end++;
        const after = end;
        while (isDigit(subject[end])) end++;
        // `1.` in "1. two" is the number and a full stop.
        if (end === after) end = point;
      }
      return end;
    }
    case 'bool': {
      for (const word of ['true', 'false']) {
        if (subject.slice(at, at + word.length).toLowerCase() === word) return at + word.length;
      }
      return -1;
    }
    default:
      return undefined;
  }
}

const EXACT: ReadonlySet<HoleKind> = new Set(['int', 'number', 'bool']);
const RUN: ReadonlySet<HoleKind> = new Set(['word', 'line', 'rest']);

function matchFrom(pattern: Pattern, piece: number, subject: string, at: number, captures: string[]): boolean {
  const one = pattern.pieces[piece];
  if (one === undefined) return true;
  if ('literal' in one) {
    const next = matchLiteral(one.literal, subject, at);
    return next >= 0 && matchFrom(pattern, piece + 1, subject, next, captures);
  }
  const take = (end: number) => {
    captures.push(subject.slice(at, end));
    if (matchFrom(pattern, piece + 1, subject, end, captures)) return true;
    captures.pop();
    return false;
  };
  const kind = one.hole.kind;
  const run = typedRun(kind, subject, at);
  if (EXACT.has(kind)) return run !== undefined && run > at && take(run);
  if (RUN.has(kind)) {
    if (run === undefined || run <= at) return false;
    // Longest first, giving characters back so `{level:word}` can stop before a following `:`.
    for (let end = run; end > at; end--) if (take(end)) return true;
    return false;
  }
  // Open: as little as it can, never past the end of the line; the last piece takes the line.
  const stop = lineEnd(subject, at);
  if (piece + 1 >= pattern.pieces.length) return stop > at && take(stop);
  for (let end = at + 1; end <= stop; end++) if (take(end)) return true;
  return false;
}

/**
 * The text each hole took at the earliest place the pattern fits `subject`, or null when it fits
 * nowhere (the stage drops such a value, the function answers null).
 */
export function matchPattern(pattern: Pattern, subject: string): string[] | null {
  for (let start = 0; start <= subject.length; start++) {
    const captures: string[] = [];
    if (matchFrom(pattern, 0, subject, start, captures)) return captures;
  }
  return null;
}
