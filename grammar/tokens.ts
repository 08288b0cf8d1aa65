/**
 * The external tokenizers of the Flow grammar.
 *
 * Flow's words are keywords only where the grammar looks for one, an ALL-UPPER-CASE word folds to
 * lower case, and several decisions depend on what follows (a statement word is a keyword only
 * when the next token is not one of `-> | = <- . [`). So every word is read here: the word is
 * folded, and the first keyword term that the parse stack can shift (`stack.canShift`) and whose
 * lookahead condition holds is the token; otherwise it is an `Identifier`. The word lists come from
 * the vocabulary module, the one table of the language's words.
 *
 * Line breaks are decided here too: inside `(`, `[` and a record's `{` they are whitespace; a
 * blank or comment-only line is whitespace; a break before a continuation (`|`, `->`, a bare
 * `then`/`where`, a call modifier, `else`, a description alone on its line) is whitespace where
 * the parser can take that continuation; anything else ends a statement (`Newline`).
 */
import { ContextTracker, ExternalTokenizer, type InputStream, type Stack } from '@lezer/lr';
import * as vocabulary from '../src/flow/vocabulary';
import * as grammarTerms from './flow.grammar.terms';
import {
  ELLIPSIS,
  NEWLINE,
  isBlank,
  isNamePart,
  matches,
  nameLength,
  peekToken,
  readNumber,
  readString,
  skipLines,
  startsNumber,
  textOf,
  type CharSource,
  type PeekedToken,
} from './scan';

const termNames = [
  'nodeOpen',
  'indexOpen',
  'typeOpen',
  'FieldName',
  'Abort',
  'Advance',
  'After',
  'All',
  'And',
  'As',
  'BadCharacter',
  'BadDuration',
  'BareThen',
  'BareWhere',
  'BlockOpen',
  'By',
  'Call',
  'Cancel',
  'Comment',
  'Default',
  'Desc',
  'Describe',
  'DescriptionText',
  'Drain',
  'Duration',
  'Ellipsis',
  'Else',
  'Fail',
  'False',
  'First',
  'Flow',
  'For',
  'FormatString',
  'Forward',
  'FunctionName',
  'Header',
  'Headers',
  'Id',
  'Identifier',
  'If',
  'In',
  'Into',
  'It',
  'Let',
  'Log',
  'LogLevel',
  'Logf',
  'LogfLevel',
  'Matching',
  'Max',
  'MisplacedModifier',
  'Newline',
  'Node',
  'Nodes',
  'Not',
  'Null',
  'Number',
  'Of',
  'One',
  'Or',
  'OutputGroupOpen',
  'OutputName',
  'Parallel',
  'PortIn',
  'PortOut',
  'RecordOpen',
  'Repeat',
  'Required',
  'Run',
  'Skip',
  'StageCount',
  'StageDuration',
  'StageExpression',
  'StageFold',
  'StageLog',
  'StageLogf',
  'StageNone',
  'StageOptionalExpression',
  'StageOptionalString',
  'StageSort',
  'StageString',
  'StageThen',
  'Status',
  'Stream',
  'String',
  'Struct',
  'Tee',
  'Timeout',
  'True',
  'Try',
  'Unique',
  'UnknownStage',
  'Unordered',
  'Until',
  'Via',
  'Wait',
  'WaitValue',
  'While',
  'With',
  'Zip',
  'arrow',
  'braceClose',
  'bracketClose',
  'bracketOpen',
  'parenClose',
  'parenOpen',
  'pipe',
  'softBreak',
] as const;

/** The grammar's term ids this file uses, checked once when it loads (the terms module is
 * generated, so its names are only known at run time). */
function termIds<const Name extends string>(names: readonly Name[]): Record<Name, number> {
  const ids = {} as Record<Name, number>;
  for (const name of names) {
    const id = (grammarTerms as Record<string, number | undefined>)[name];
    if (id === undefined) throw new Error(`The Flow grammar has no term '${name}'.`);
    ids[name] = id;
  }
  return ids;
}

const term = termIds(termNames);

// --- context: brackets and line starts ---------------------------------------------------------

/**
 * What the parser is inside of. `bracket` frames (`(`, `[`, a record's `{`) make line breaks
 * whitespace; `block` frames (a body's `{`) make them statement ends. `lineStart` says the last
 * real token was a line break, so the next one is part of the same run (runs collapse).
 *
 * A frame closes when its closing token is shifted, or — when recovery never shifts one — when
 * the parser reduces a node that starts at or before the opening token, which is then complete.
 */
class BracketContext {
  private afterBreak: BracketContext | null = null;
  private afterToken: BracketContext | null = null;
  readonly hash: number;

  constructor(
    readonly parent: BracketContext | null,
    readonly bracket: boolean,
    readonly lineStart: boolean,
    readonly depth: number,
    /** Where the opening token is (-1 for the file). Not part of the hash: it moves with edits. */
    readonly openedAt: number,
  ) {
    // What a reused node depends on is which brackets it sits in (that decides what its line
    // breaks are); a node never starts with a line break, so `lineStart` is left out.
    this.hash = parent ? (depth * 2 + (bracket ? 1 : 0) + parent.hash * 7919) | 0 : 0;
  }

  withLineStart(lineStart: boolean): BracketContext {
    if (lineStart === this.lineStart) return this;
    if (lineStart) {
      this.afterBreak ??= new BracketContext(this.parent, this.bracket, true, this.depth, this.openedAt);
      return this.afterBreak;
    }
    this.afterToken ??= new BracketContext(this.parent, this.bracket, false, this.depth, this.openedAt);
    return this.afterToken;
  }

  push(bracket: boolean, openedAt: number): BracketContext {
    return new BracketContext(this, bracket, false, this.depth + 1, openedAt);
  }

  pop(): BracketContext {
    return (this.parent ?? this).withLineStart(false);
  }

  /** This context without the frames a node starting at `start` has completed. */
  closedFrom(start: number): BracketContext {
    let context: BracketContext = this;
    while (context.parent && context.openedAt >= start) context = context.parent.withLineStart(false);
    return context;
  }
}

const topContext = new BracketContext(null, false, true, 0, -1);

const openingBrackets = new Set([term.parenOpen, term.bracketOpen, term.RecordOpen, term.OutputGroupOpen]);
/** Brackets inside which the reference still reads a line break as one: `node(…)`, `x[…]`, `T[…]`. */
const tightBrackets = new Set([term.nodeOpen, term.indexOpen, term.typeOpen]);
const closingBrackets = new Set([term.parenClose, term.bracketClose, term.braceClose]);
const skippedTerms = new Set([term.softBreak, term.Comment]);

export const bracketContext = new ContextTracker<BracketContext>({
  start: topContext,
  shift(context, shifted, _stack, input) {
    // Recovery may insert an opening bracket that is not in the text; it opens nothing there.
    const written = input.next === 40 || input.next === 91 || input.next === 123;
    if (openingBrackets.has(shifted)) return written ? context.push(true, input.pos) : context;
    if (shifted === term.BlockOpen || tightBrackets.has(shifted)) return written ? context.push(false, input.pos) : context;
    if (closingBrackets.has(shifted)) return context.pop();
    if (shifted === term.Newline) return context.withLineStart(true);
    // Skipped tokens (whitespace has no exported term, so it is told by its first character)
    // leave the line as it was.
    if (skippedTerms.has(shifted) || isBlank(input.next)) return context;
    return context.withLineStart(false);
  },
  reduce(context, _reduced, _stack, input) {
    return context.openedAt >= input.pos ? context.closedFrom(input.pos) : context;
  },
  reuse(context) {
    // A reused node ends with a real token and holds balanced brackets.
    return context.withLineStart(false);
  },
  hash: (context) => context.hash,
});

// --- line breaks --------------------------------------------------------------------------------

const modifierTerms: Record<string, number> = {
  tee: term.Tee,
  via: term.Via,
  timeout: term.Timeout,
  after: term.After,
  with: term.With,
  id: term.Id,
  forward: term.Forward,
  headers: term.Headers,
};

/** Tokens after which a word on the next line is not a continuation but a statement of its own. */
function startsStatementTail(input: CharSource, token: PeekedToken): boolean {
  return token.kind === 'punctuation' && ['->', '|', '=', '<-'].includes(textOf(input, token.from, token.to));
}

function wordAt(input: CharSource, token: PeekedToken): string {
  return token.kind === 'word' ? textOf(input, token.from, token.to) : '';
}

/** Whether the line starting at `offset` holds only a run of strings. */
function stringsAloneOnLine(input: CharSource, offset: number): boolean {
  let token = peekToken(input, offset);
  if (token.kind !== 'string') return false;
  while (token.kind === 'string') token = peekToken(input, token.to);
  return token.kind === 'newline' || token.kind === 'end' || isPunctuation(input, token, '}');
}

function isPunctuation(input: CharSource, token: PeekedToken, text: string): boolean {
  return token.kind === 'punctuation' && token.to - token.from === text.length && matches(input, token.from, text);
}

/** Whether the statement goes on past the line break at the current position. */
function continuesOnNextLine(input: CharSource, stack: Stack): boolean {
  const next = peekToken(input, skipLines(input, 0));
  if (next.kind === 'end') return true;
  if (isPunctuation(input, next, '|')) return stack.canShift(term.pipe);
  if (isPunctuation(input, next, '->')) return stack.canShift(term.arrow);
  if (next.kind === 'string') return stack.canShift(term.DescriptionText) && stringsAloneOnLine(input, next.from);
  const word = wordAt(input, next);
  if (!word) return false;
  if (word === 'else') return stack.canShift(term.Else);
  const folded = vocabulary.canonical(word);
  const after = peekToken(input, next.to);
  if (startsStatementTail(input, after)) return false;
  if (folded === 'then') return stack.canShift(term.BareThen);
  if (folded === 'where') return stack.canShift(term.BareWhere);
  const modifier = modifierTerms[folded];
  return modifier !== undefined && stack.canShift(modifier);
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
  if (stack.canShift(term.FormatString)) return term.FormatString;
  if (stack.canShift(term.String)) return term.String;
  if (stack.canShift(term.DescriptionText)) return term.DescriptionText;
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
    if (stack.canShift(term.OutputGroupOpen) && parenthesesOpenOutputGroup(input)) input.acceptToken(term.OutputGroupOpen, 1);
    else if (stack.canShift(term.nodeOpen)) input.acceptToken(term.nodeOpen, 1);
  } else if (code === 91 /* [ */) {
    // After a value, `[` indexes it (even where a list could start a second value); after a
    // type name it takes type parameters or makes a list type.
    if (stack.canShift(term.indexOpen)) input.acceptToken(term.indexOpen, 1);
    else if (stack.canShift(term.typeOpen)) input.acceptToken(term.typeOpen, 1);
  }
}

function braceTerm(input: CharSource, stack: Stack): number {
  const block = stack.canShift(term.BlockOpen);
  const record = stack.canShift(term.RecordOpen);
  if (block && record) {
    // At the head of a statement the braces' contents decide; after an `if` condition or a
    // `for` source (where `Tag{…}` is off) the braces open the body.
    return stack.canShift(term.Let) && bracesOpenRecord(input) ? term.RecordOpen : term.BlockOpen;
  }
  if (record) return term.RecordOpen;
  return term.BlockOpen;
}

// --- words ----------------------------------------------------------------------------------------

type Lookahead = (input: CharSource, end: number) => boolean;

const always: Lookahead = () => true;

/** The token after the word being read. Several conditions ask about it, so the last answer is
 * kept (keyed by the stream and position it was asked at). */
let lastAsked: { input: CharSource | null; at: number; offset: number; token: PeekedToken } = { input: null, at: -1, offset: -1, token: { kind: 'end', from: 0, to: 0 } };

function next(input: CharSource, end: number): PeekedToken {
  const at = (input as InputStream).pos ?? -1;
  if (lastAsked.input === input && lastAsked.at === at && lastAsked.offset === end) return lastAsked.token;
  const token = peekToken(input, end);
  lastAsked = { input, at, offset: end, token };
  return token;
}

function nextIs(...texts: string[]): Lookahead {
  return (input, end) => {
    const token = next(input, end);
    return token.kind === 'punctuation' && texts.some((text) => isPunctuation(input, token, text));
  };
}

const nextIsWord: Lookahead = (input, end) => next(input, end).kind === 'word';
const nextIsString: Lookahead = (input, end) => next(input, end).kind === 'string';
const nextIsParen = nextIs('(');
const nextFoldsTo = (word: string): Lookahead => (input, end) => vocabulary.canonical(wordAt(input, next(input, end))) === word;

/** A statement word is a keyword only when what follows cannot make it a name being used. */
const opensStatement: Lookahead = (input, end) => !nextIs('->', '|', '=', '<-', '.', '[')(input, end);

/** `describe` opens a description when its string follows, here or alone on a following line. */
const describeFollows: Lookahead = (input, end) => {
  const token = next(input, end);
  if (token.kind === 'string') return true;
  if (token.kind !== 'newline') return false;
  const string = peekToken(input, skipLines(input, token.from));
  if (string.kind !== 'string') return false;
  const after = peekToken(input, string.to);
  return after.kind === 'newline' || after.kind === 'end' || isPunctuation(input, after, '}');
};

/** `first`/`all` in `wait first of …`. */
const ofFollows: Lookahead = nextFoldsTo('of');

/** `wait first of …` / `wait all of …` where a value is expected. */
const raceFollows: Lookahead = (input, end) => {
  const token = next(input, end);
  const word = vocabulary.canonical(wordAt(input, token));
  return (word === 'first' || word === 'all') && nextFoldsTo('of')(input, token.to);
};

/** A bare `then`/`where` takes an operand, so at the end of a statement it is a name. */
const bareStageFollows: Lookahead = (input, end) => {
  const token = next(input, end);
  return token.kind !== 'newline' && token.kind !== 'end' && !isPunctuation(input, token, '}') &&
    !isPunctuation(input, token, '->') && !isPunctuation(input, token, ',');
};

/** A port modifier written where the type belongs (`in a: stream string`). */
const misplacedModifier: Lookahead = (input, end) => !nextIs('.', '[')(input, end);

const levelWords = new Set(vocabulary.logLevels);
const expressionContinuations = new Set(['or', 'and', 'in', 'as', 'after']);

/**
 * A `log` level: one of the five (unless the word is the start of a longer value, `error.x`), or a
 * bare word followed by the value to log (`log verbose it` — the checker reports the level).
 */
function logLevelFollows(formatted: boolean): (input: CharSource, end: number, word: string) => boolean {
  return (input, end, word) => {
    const token = next(input, end);
    if (levelWords.has(word)) return !nextIs('.', '[', '(')(input, end);
    if (formatted) return false;
    if (token.kind === 'string' || token.kind === 'number') return true;
    return token.kind === 'word' && !expressionContinuations.has(vocabulary.canonical(wordAt(input, token)));
  };
}

/** The words that stand where a value starts and so can never be a log level. */
const valueWords = new Set(['not', 'true', 'false', 'null', 'it', 'status', 'wait', 'zip', 'interleave', 'after']);

type Role = readonly [number, (input: CharSource, end: number, word: string) => boolean];

const statementWord = (keyword: number): Role => [keyword, opensStatement];

/** Every keyword role a word can play, in the order they are tried. */
const roles = new Map<string, Role[]>();

function role(word: string, ...entries: Role[]): void {
  roles.set(word, [...(roles.get(word) ?? []), ...entries]);
}

role('struct', [term.Struct, nextIsWord]);
role('flow', [term.Flow, always]);
role('describe', [term.Describe, describeFollows]);
role('in', [term.PortIn, nextIsWord], [term.In, always]);
role('out', [term.PortOut, nextIsWord]);
role('header', [term.Header, nextIsString]);
role('as', [term.As, always]);
role('default', [term.Default, always]);
role('stream', [term.MisplacedModifier, misplacedModifier], [term.Stream, always]);
role('required', [term.MisplacedModifier, misplacedModifier], [term.Required, always]);
role('unique', [term.Unique, always]);
role('matching', [term.Matching, always]);
role('one', [term.One, ofFollows]);
role('of', [term.Of, always]);
role('run', statementWord(term.Run));
role('call', statementWord(term.Call));
role('try', statementWord(term.Try));
role('let', statementWord(term.Let));
role('advance', statementWord(term.Advance));
role('skip', statementWord(term.Skip));
role('wait', statementWord(term.Wait), [term.WaitValue, raceFollows]);
role('drain', statementWord(term.Drain));
role('abort', statementWord(term.Abort));
role('cancel', statementWord(term.Cancel));
role('fail', statementWord(term.Fail));
role('log', statementWord(term.Log));
role('logf', statementWord(term.Logf));
role('if', statementWord(term.If));
role('else', [term.Else, always]);
role('for', statementWord(term.For));
role('repeat', statementWord(term.Repeat));
role('until', statementWord(term.Until));
role('while', statementWord(term.While));
role('nodes', statementWord(term.Nodes));
role('node', [term.Node, always]);
role('max', [term.Max, always]);
for (const [word, keyword] of Object.entries(modifierTerms)) role(word, [keyword, always]);
role('first', [term.First, ofFollows]);
role('all', [term.All, ofFollows]);
role('parallel', [term.Parallel, always]);
role('unordered', [term.Unordered, always]);
role('into', [term.Into, always]);
role('by', [term.By, always]);
role('desc', [term.Desc, always]);
role('or', [term.Or, always]);
role('and', [term.And, always]);
role('not', [term.Not, always]);
role('status', [term.Status, nextIsWord]);
role('zip', [term.Zip, nextIsParen]);
role('interleave', [term.Zip, nextIsParen]);
role('true', [term.True, always]);
role('false', [term.False, always]);
role('null', [term.Null, always]);
role('it', [term.It, always]);
role('then', [term.BareThen, bareStageFollows]);
role('where', [term.BareWhere, bareStageFollows]);

/** Every word the grammar reads as a keyword somewhere (after folding). */
export const keywordWords: ReadonlySet<string> = new Set(roles.keys());

/** The term a stage name is read as after `|`, by what the stage takes. */
const stageTermByArgument: Record<vocabulary.StageArgumentKind, number> = {
  none: term.StageNone,
  number: term.StageCount,
  expr: term.StageExpression,
  'expr?': term.StageOptionalExpression,
  string: term.StageString,
  'string?': term.StageOptionalString,
  'sort-key': term.StageSort,
  fold: term.StageFold,
  duration: term.StageDuration,
  stream: term.StageThen,
  log: term.StageLog,
  logf: term.StageLogf,
};

const logLevel = logLevelFollows(false);
const logfLevel = logLevelFollows(true);

/** Whether the names from here on are `o1, o2 of act` (the outputs of a call, for `skip`). */
function outputGroupAhead(input: CharSource, end: number): boolean {
  let token = next(input, end);
  for (;;) {
    if (wordAt(input, token) === 'of') return true;
    if (!isPunctuation(input, token, ',')) return false;
    token = peekToken(input, skipLines(input, token.to));
    if (token.kind !== 'word') return false;
    token = next(input, token.to);
  }
}

/** The text between two offsets from the stream position. `InputStream.read` slices the
 * underlying chunk (it is not in the published types); reading code by code is the fallback. */
function readText(input: InputStream, from: number, to: number): string {
  const reader = (input as unknown as { read?: (from: number, to: number) => string }).read;
  return reader ? reader.call(input, input.pos + from, input.pos + to) : textOf(input, from, to);
}

/** Whether the word at the stream position follows a `|` (or `| try`): where a stage is named.
 * Looked for in the text first, so the parse stack is asked only there. */
function afterPipe(input: InputStream): boolean {
  let at = -1;
  for (;;) {
    while (at > -64 && (isBlank(input.peek(at)) || input.peek(at) === NEWLINE)) at -= 1;
    const code = input.peek(at);
    if (code === 124 /* | */) return true;
    // `| try map`: step over the `try` and look again.
    if ((code === 121 || code === 89) && /^try$/i.test(readText(input, at - 2, at + 1)) && !isNamePart(input.peek(at - 3))) {
      at -= 3;
      continue;
    }
    return false;
  }
}

function wordTerm(input: InputStream, stack: Stack, length: number): number {
  const word = readText(input, 0, length);
  const folded = vocabulary.canonical(word);
  const following = next(input, length);
  const punctuation = following.kind === 'punctuation' ? readText(input, following.from, following.to) : '';

  if (afterPipe(input) && stack.canShift(term.StageNone)) {
    // `| try map …`: a `try` straight after the bar fronts the stage.
    if (folded === 'try' && stack.canShift(term.Try)) return term.Try;
    const stage = vocabulary.stageNamed(folded);
    return stage ? stageTermByArgument[stage.takes] : term.UnknownStage;
  }

  // A word followed by `=` is the name being bound (`x = …`, `repeat s = …`).
  if (punctuation === '=' && stack.canShift(term.Identifier)) return term.Identifier;

  if (!valueWords.has(folded) && logLevel(input, length, folded) && stack.canShift(term.LogLevel)) return term.LogLevel;
  if (levelWords.has(folded) && logfLevel(input, length, folded) && stack.canShift(term.LogfLevel)) return term.LogfLevel;

  const candidates = roles.get(folded);
  if (candidates) {
    for (const [keyword, condition] of candidates) {
      if (stack.canShift(keyword) && condition(input, length, folded)) return keyword;
    }
  }

  // A struct's field is `name: type`; any other word there is not one.
  if (punctuation === ':' && stack.canShift(term.FieldName)) return term.FieldName;
  // The names of `skip o1, o2 of act` run up to the `of`.
  const inGroup = punctuation === ',' || punctuation === ')' || (following.kind === 'word' && readText(input, following.from, following.to) === 'of');
  if (inGroup && stack.canShift(term.OutputName) && (!stack.canShift(term.Identifier) || outputGroupAhead(input, length))) {
    return term.OutputName;
  }
  if (punctuation === '(' && stack.canShift(term.FunctionName)) return term.FunctionName;
  return term.Identifier;
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
