/**
 * Words: every word of Flow is read here, and becomes the keyword term it is where it stands, or
 * an identifier. There are no reserved words: the word is folded (ALL-CAPS to lower case), and the
 * first keyword term the parse stack can shift (`stack.canShift`) whose lookahead condition holds
 * is the token. The word lists are the vocabulary module's.
 */
import type { InputStream, Stack } from '@lezer/lr';
import { canShift } from './can-shift';
import * as vocabulary from '../src/flow/vocabulary';
import {
  NEWLINE,
  isBlank,
  isNamePart,
  isPunctuation,
  peekToken,
  skipLines,
  textOf,
  wordAt,
  type CharSource,
  type PeekedToken,
} from './scan';
import { term } from './terms';

/** The call modifiers, by word. */
export const modifierTerms: Record<string, number> = {
  tee: term.Tee,
  via: term.Via,
  timeout: term.Timeout,
  after: term.After,
  with: term.With,
  id: term.Id,
  forward: term.Forward,
  headers: term.Headers,
};

type Lookahead = (input: CharSource, end: number) => boolean;

const always: Lookahead = () => true;

/** The token after the word being read. Several conditions ask about it, so the last answer is
 * kept (keyed by the stream and position it was asked at; one record, updated in place, since
 * this runs for every word of every parse). */
const lastAsked: { input: CharSource | null; at: number; offset: number; token: PeekedToken } = { input: null, at: -1, offset: -1, token: { kind: 'end', from: 0, to: 0 } };

function next(input: CharSource, end: number): PeekedToken {
  const at = (input as InputStream).pos ?? -1;
  if (lastAsked.input === input && lastAsked.at === at && lastAsked.offset === end) return lastAsked.token;
  const token = peekToken(input, end);
  lastAsked.input = input;
  lastAsked.at = at;
  lastAsked.offset = end;
  lastAsked.token = token;
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

/** Whether the word at the stream position follows a `|` (or `| try`): where a stage is named.
 * Looked for in the text first, so the parse stack is asked only there. */
function afterPipe(input: InputStream): boolean {
  let at = -1;
  for (;;) {
    while (at > -64 && (isBlank(input.peek(at)) || input.peek(at) === NEWLINE)) at -= 1;
    const code = input.peek(at);
    if (code === 124 /* | */) return true;
    // `| try map`: step over the `try` and look again.
    if ((code === 121 || code === 89) && /^try$/i.test(textOf(input, at - 2, at + 1)) && !isNamePart(input.peek(at - 3))) {
      at -= 3;
      continue;
    }
    return false;
  }
}

/** The one-character punctuation after a word that decides what the word is (`=`, `:`, `,`,
 * `(`, `)`), as its code; 0 for anything else (longer punctuation such as `==` included). */
function decidingPunctuation(input: CharSource, following: PeekedToken): number {
  if (following.kind !== 'punctuation' || following.to - following.from !== 1) return 0;
  return input.peek(following.from);
}

const EQUALS = 61;
const COLON = 58;
const COMMA = 44;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;

export function wordTerm(input: InputStream, stack: Stack, length: number): number {
  const word = textOf(input, 0, length);
  const folded = vocabulary.canonical(word);
  const following = next(input, length);
  const punctuation = decidingPunctuation(input, following);

  if (afterPipe(input) && canShift(stack, term.StageNone)) {
    // `| try map …`: a `try` straight after the bar fronts the stage.
    if (folded === 'try' && canShift(stack, term.Try)) return term.Try;
    const stage = vocabulary.stageNamed(folded);
    return stage ? stageTermByArgument[stage.takes] : term.UnknownStage;
  }

  // A word followed by `=` is the name being bound (`x = …`, `repeat s = …`).
  if (punctuation === EQUALS && canShift(stack, term.Identifier)) return term.Identifier;

  // A level is shiftable only straight after `log`/`logf` (and in the stages of the same name),
  // so asking the stack first spares the lookahead for every other word.
  if (!valueWords.has(folded) && canShift(stack, term.LogLevel) && logLevel(input, length, folded)) return term.LogLevel;
  if (levelWords.has(folded) && canShift(stack, term.LogfLevel) && logfLevel(input, length, folded)) return term.LogfLevel;

  const candidates = roles.get(folded);
  if (candidates) {
    for (const [keyword, condition] of candidates) {
      if (canShift(stack, keyword) && condition(input, length, folded)) return keyword;
    }
  }

  // A struct's field is `name: type`; any other word there is not one.
  if (punctuation === COLON && canShift(stack, term.FieldName)) return term.FieldName;
  // The names of `skip o1, o2 of act` run up to the `of`.
  const inGroup = punctuation === COMMA || punctuation === CLOSE_PAREN || (following.kind === 'word' && following.to - following.from === 2 && textOf(input, following.from, following.to) === 'of');
  if (inGroup && canShift(stack, term.OutputName) && (!canShift(stack, term.Identifier) || outputGroupAhead(input, length))) {
    return term.OutputName;
  }
  if (punctuation === OPEN_PAREN && canShift(stack, term.FunctionName)) return term.FunctionName;
  return term.Identifier;
}
