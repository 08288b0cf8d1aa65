/**
 * The external tokenizer of the Flow grammar, and its context tracker.
 *
 * Flow's words are keywords only where the grammar looks for one (see words.ts). Line breaks are
 * decided here: inside `(`, `[` and a record's `{` they are whitespace; a blank or comment-only
 * line is whitespace; a break before a continuation (`|`, `->`, a bare `then`/`where`, a call
 * modifier, `else`, a description alone on its line) is whitespace where the parser can take that
 * continuation; anything else ends a statement (`Newline`). Strings, numbers and durations are read
 * the reference lexer's way, and a `{` is told to be a block or a record.
 */
import { ExternalTokenizer, type InputStream, type Stack } from '@lezer/lr';
import { canShift } from './can-shift';
import * as vocabulary from '../src/flow/vocabulary';
import type { BracketContext } from './context';
import {
  ELLIPSIS,
  LEZER_NESTING_LIMIT,
  NEWLINE,
  isPunctuation,
  matches,
  nameLength,
  peekToken,
  readNumber,
  readString,
  skipLines,
  startsNumber,
  textOf,
  wordAt,
  isBlank,
  type CharSource,
  type PeekedToken,
} from './scan';
import { term } from './terms';
import { modifierTerms, wordTerm } from './words';

export { bracketContext } from './context';
export { keywordWords } from './words';

// --- line breaks --------------------------------------------------------------------------------

/** Tokens after which a word on the next line is not a continuation but a statement of its own. */
function startsStatementTail(input: CharSource, token: PeekedToken): boolean {
  return token.kind === 'punctuation' && ['->', '|', '=', '<-'].includes(textOf(input, token.from, token.to));
}

/** Whether the line starting at `offset` holds only a run of strings. */
function stringsAloneOnLine(input: CharSource, offset: number): boolean {
  let token = peekToken(input, offset);
  if (token.kind !== 'string') return false;
  while (token.kind === 'string') token = peekToken(input, token.to);
  return token.kind === 'newline' || token.kind === 'end' || isPunctuation(input, token, '}');
}

/** Whether the statement goes on past the line break at the current position. */
function continuesOnNextLine(input: CharSource, stack: Stack): boolean {
  const next = peekToken(input, skipLines(input, 0));
  if (next.kind === 'end') return true;
  if (isPunctuation(input, next, '|')) return canShift(stack, term.pipe);
  if (isPunctuation(input, next, '->')) return canShift(stack, term.arrow);
  if (next.kind === 'string') return canShift(stack, term.DescriptionText) && stringsAloneOnLine(input, next.from);
  const word = wordAt(input, next);
  if (!word) return false;
  if (word === 'else') return canShift(stack, term.Else);
  const folded = vocabulary.canonical(word);
  const after = peekToken(input, next.to);
  if (startsStatementTail(input, after)) return false;
  if (folded === 'then') return canShift(stack, term.BareThen);
  if (folded === 'where') return canShift(stack, term.BareWhere);
  const modifier = modifierTerms[folded];
  return modifier !== undefined && canShift(stack, modifier);
}

/** A line break: whitespace where it does not end a statement, else `Newline`. */
function lineBreak(input: InputStream, stack: Stack): void {
  const context = stack.context as BracketContext;
  if (context.bracket || context.lineStart || continuesOnNextLine(input, stack)) {
    input.acceptToken(term.softBreak, 1);
  } else {
    input.acceptToken(term.Newline, 1);
  }
}

// --- literals, braces ---------------------------------------------------------------------------

/** Whether a `{` at statement start opens a record (a pipe's source) rather than a block:
 * `{}`, `{...x}` and `{"key": …}` are records; anything else is a block. */
function bracesOpenRecord(input: CharSource): boolean {
  const next = peekToken(input, 1);
  if (isPunctuation(input, next, '}') || isPunctuation(input, next, '...')) return true;
  if (next.kind === 'punctuation' && input.peek(next.from) === ELLIPSIS) return true;
  if (next.kind !== 'string') return false;
  return isPunctuation(input, peekToken(input, next.to), ':');
}

/** Whether a `(` here opens `(o1, o2) of act` or `(o1, o2 of act)` rather than an expression. */
function parenthesesOpenOutputGroup(input: CharSource): boolean {
  let token = peekToken(input, skipLines(input, 1));
  if (token.kind !== 'word') return false;
  for (;;) {
    if (token.kind !== 'word') return false;
    token = peekToken(input, skipLines(input, token.to));
    if (wordAt(input, token) === 'of') return true;
    if (!isPunctuation(input, token, ',')) break;
    token = peekToken(input, skipLines(input, token.to));
  }
  if (!isPunctuation(input, token, ')')) return false;
  return wordAt(input, peekToken(input, token.to)) === 'of';
}

function stringTerm(stack: Stack): number {
  if (canShift(stack, term.FormatString)) return term.FormatString;
  if (canShift(stack, term.String)) return term.String;
  if (canShift(stack, term.DescriptionText)) return term.DescriptionText;
  return term.String;
}

/** Strings, numbers and durations, the spread, and the brackets whose meaning depends on where they are. */
function literal(input: InputStream, stack: Stack): void {
  const code = input.next;
  if (code === 34 /* " */) {
    input.acceptToken(stringTerm(stack), readString(input, 0).length);
  } else if (startsNumber(input, 0)) {
    const shape = readNumber(input, 0);
    const unit = shape.unitLength === 0 ? '' : textOf(input, shape.numberLength, shape.length);
    const kind = unit === '' ? term.Number : vocabulary.durationUnitSeconds(unit) === undefined ? term.BadDuration : term.Duration;
    input.acceptToken(kind, shape.length);
  } else if (code === ELLIPSIS) {
    input.acceptToken(term.Ellipsis, 1);
  } else if (code === 46 /* . */ && matches(input, 0, '...')) {
    input.acceptToken(term.Ellipsis, 3);
  } else if (code === 123 /* { */) {
    input.acceptToken(braceTerm(input, stack), 1);
  } else if (code === 40 /* ( */) {
    if (canShift(stack, term.OutputGroupOpen) && parenthesesOpenOutputGroup(input)) input.acceptToken(term.OutputGroupOpen, 1);
    else if (canShift(stack, term.nodeOpen)) input.acceptToken(term.nodeOpen, 1);
  } else if (code === 91 /* [ */) {
    // After a value, `[` indexes it (even where a list could start a second value); after a
    // type name it takes type parameters or makes a list type.
    if (canShift(stack, term.indexOpen)) input.acceptToken(term.indexOpen, 1);
    else if (canShift(stack, term.typeOpen)) input.acceptToken(term.typeOpen, 1);
  }
}

function braceTerm(input: CharSource, stack: Stack): number {
  const block = canShift(stack, term.BlockOpen);
  const record = canShift(stack, term.RecordOpen);
  if (block && record) {
    // At the head of a statement the braces' contents decide; after an `if` condition or a
    // `for` source (where `Tag{…}` is off) the braces open the body.
    return canShift(stack, term.Let) && bracesOpenRecord(input) ? term.RecordOpen : term.BlockOpen;
  }
  if (record) return term.RecordOpen;
  return term.BlockOpen;
}

/** How far the text runs on from the stream position, found in logarithmically many peeks
 * (recovery asks for the overflow token many times; reading to the end each time was quadratic). */
function restLength(input: CharSource): number {
  let past = 1;
  while (input.peek(past - 1) >= 0) past *= 2;
  // The end is after `past / 2 - 1` and at or before `past - 1`.
  let low = past / 2 - 1;
  let high = past - 1;
  if (input.peek(0) < 0) return 0;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (input.peek(middle) >= 0) low = middle;
    else high = middle;
  }
  return high;
}

/**
 * How many times the tokenizer has run: a measure of parsing work that does not depend on the
 * clock. A clean parse runs it about once per two characters; recovery from a long run of
 * mistakes runs it many times per token, which is what `parseFlow` budgets against.
 */
export const tokenizerWork = { calls: 0 };

/**
 * The one external tokenizer: every word, every literal, every line break and the brackets that
 * need deciding. One tokenizer rather than three, so the parser asks once per token.
 */
export const flowTokens = new ExternalTokenizer(
  (input, stack) => {
    tokenizerWork.calls += 1;
    if ((stack.context as BracketContext).depth > LEZER_NESTING_LIMIT) {
      // Nested deeper than Lezer can build a tree of (it builds recursively) and far deeper than
      // the language reads: the rest of the text is one token no rule takes.
      input.acceptToken(term.Overflow, restLength(input));
      return;
    }
    const code = input.next;
    if (code === NEWLINE) {
      lineBreak(input, stack);
      return;
    }
    const length = nameLength(input, 0);
    if (length > 0) {
      input.acceptToken(wordTerm(input, stack, length), length);
      return;
    }
    literal(input, stack);
  },
  { contextual: true },
);

// --- anything else --------------------------------------------------------------------------------

/** A character the language has no meaning for: one token, so the rest of the line still reads. */
export const strays = new ExternalTokenizer((input) => {
  const code = input.next;
  if (code < 0 || code === NEWLINE || isBlank(code)) return;
  input.acceptToken(term.BadCharacter, 1);
});
