/**
 * The words of the Flow language — the one table.
 *
 * Everything that needs to know a word reads it from here: the grammar's tests, the checker,
 * completion, hover text, the documentation and the model prompt. Nothing else keeps a list.
 * The data is plain (arrays and records of strings and numbers) so a generator, a test or the
 * browser can walk it without any of this module's helpers.
 *
 * There are no reserved words in Flow: a word is a keyword only where the grammar looks for
 * one, so these are sets to consult at a position, not a list a lexer could stamp on sight.
 * An ALL-UPPER-CASE word folds to lower case before it is looked up (`FOR` is `for`,
 * `NOT_FOUND` is `not_found`); a mixed-case word is always a name — see {@link canonical}.
 *
 * `vocabulary.test.ts` holds this table to the reference's `flow__vocabulary.json`.
 */

// ---------------------------------------------------------------------------------------------
// Stages

/**
 * What a stage takes after its name. The spellings are the reference's own (`flow.vocabulary/v1`).
 *
 * - `none` — nothing: `| collect`
 * - `number` — a whole number of values: `| first 3`
 * - `expr` — an expression with `it` bound: `| where it.ok`
 * - `expr?` — an optional expression with `it` bound: `| sum`, `| sum it.price`
 * - `string` — a string literal, required: `| match "{name}"`
 * - `string?` — a string literal, optional: `| join`, `| join ", "`
 * - `sort-key` — optional `by EXPR`, optional `desc`: `| sort by it.score desc`
 * - `fold` — `LITERAL as NAME, EXPR`: `| fold 0 as total, total + it`
 * - `duration` — a length of time: `| timeout 30s`
 * - `stream` — another stream to read after this one: `| then other`
 * - `log` — `[LEVEL] [EXPR]`: `| log warning it.error`
 * - `logf` — `[LEVEL] STRING [EXPR, …]`: `| logf "took %s" it.elapsed`
 */
export type StageArgumentKind =
  | 'none'
  | 'number'
  | 'expr'
  | 'expr?'
  | 'string'
  | 'string?'
  | 'sort-key'
  | 'fold'
  | 'duration'
  | 'stream'
  | 'log'
  | 'logf';

export interface StageWord {
  readonly name: string;
  readonly takes: StageArgumentKind;
  /** Whether `parallel N` may follow it: a stage that reshapes or judges each value on its own. */
  readonly parallel: boolean;
  /** Reads the whole stream and yields exactly one value. */
  readonly reducing: boolean;
  /** Chooses which values to keep, or groups them, rather than reshaping each one. */
  readonly positional: boolean;
  /** May be written without its `|`: `history then asked`, `hits where it.ok`. */
  readonly bare: boolean;
  /** One line: what it does. */
  readonly summary: string;
}

type StageRow = [name: string, takes: StageArgumentKind, summary: string];

// The order a listing reads best: what shortens a stream, what reshapes each value, what
// reduces it to one, what encodes it, what is about time.
const stageRows: StageRow[] = [
  ['first', 'number', 'The first n values, then the stream ends; `first 1` makes one value.'],
  ['last', 'number', 'The last n values, once the stream has ended.'],
  ['drop', 'number', 'Every value after the first n, for this reader only.'],
  ['truncate', 'number', 'Cuts each value to n characters, bytes, items or keys.'],
  ['batch', 'number', 'Gathers values into lists of n; a short last list still goes on.'],
  ['window', 'number', 'One list of the last n values per value, once n have arrived.'],
  ['flatten', 'none', 'A stream of lists becomes a stream of their items.'],
  ['group', 'expr', 'Gathers values into a list until the expression holds of the one just added.'],
  ['sort', 'sort-key', 'Reads the whole stream and yields it in order, stably.'],
  ['where', 'expr', 'Keeps the values the expression holds of.'],
  ['map', 'expr', 'Replaces each value with the expression, `it` being the value.'],
  ['scan', 'fold', 'A fold that yields the state it reached after every value.'],
  ['match', 'string', 'Reads named fields out of each text value; drops values that do not fit.'],
  ['distinct', 'none', 'Drops a value equal to one already seen.'],
  ['then', 'stream', 'This stream to its end, and then another one.'],
  ['log', 'log', 'Writes each value (or an expression of it) to the flow log, passing it on.'],
  ['logf', 'logf', 'Writes a formatted line per value to the flow log, passing it on.'],
  ['mime', 'string', 'Keeps the values whose mimetype matches the pattern (`text/*`).'],
  ['strformat', 'string', 'Formats each value with a printf format.'],
  ['chunk', 'number', 'Cuts each text or byte value into pieces of at most n.'],
  ['collect', 'none', 'Reads the whole stream into one list.'],
  ['count', 'none', 'How many values the stream had, as one number.'],
  ['sum', 'expr?', 'The sum of the values (or of the expression per value); 0 when empty.'],
  ['min', 'expr?', 'The smallest value (or expression per value); nothing when empty.'],
  ['max', 'expr?', 'The largest value (or expression per value); nothing when empty.'],
  ['avg', 'expr?', 'The mean of the values (or expression per value); nothing when empty.'],
  ['fold', 'fold', 'Carries a state through the stream and yields the last one.'],
  ['join', 'string?', 'Joins the values as text into one string, with an optional separator.'],
  ['text', 'none', 'Each value as text.'],
  ['json', 'none', 'Each value written as JSON.'],
  ['packb', 'none', 'Each value written as MessagePack (`application/x-msgpack`).'],
  ['timeout', 'duration', 'Fails with deadline_exceeded when no value arrives for this long.'],
  ['pace', 'duration', 'Spaces values at least this far apart, dropping none.'],
];

/** Stages a `parallel N` may follow. `at` is the internal stage `x.field` over a stream becomes. */
export const parallelStageNames: readonly string[] = [
  'at', 'chunk', 'flatten', 'json', 'map', 'match', 'mime', 'packb', 'strformat', 'text', 'truncate', 'where',
];
export const reducingStageNames: readonly string[] = ['avg', 'collect', 'count', 'fold', 'join', 'max', 'min', 'sum'];
export const positionalStageNames: readonly string[] = [
  'batch', 'count', 'distinct', 'drop', 'first', 'flatten', 'group', 'last', 'sort', 'window',
];
export const bareStageNames: readonly string[] = ['then', 'where'];

/** The 33 pipeline stages, in listing order. */
export const stages: readonly StageWord[] = stageRows.map(([name, takes, summary]) => ({
  name,
  takes,
  summary,
  parallel: parallelStageNames.includes(name),
  reducing: reducingStageNames.includes(name),
  positional: positionalStageNames.includes(name),
  bare: bareStageNames.includes(name),
}));

// ---------------------------------------------------------------------------------------------
// Built-in functions

export interface BuiltinWord {
  readonly name: string;
  /** Fewest arguments that mean anything. A missing argument reads as null at run time. */
  readonly minArgs: number;
  /** Most arguments it reads; `null` for as many as are given (`merge`, `strformat`). */
  readonly maxArgs: number | null;
  /** The arguments as a reader writes them, for completion and hover: `get(value, key, fallback?)`. */
  readonly signature: string;
  readonly summary: string;
}

type BuiltinRow = [name: string, min: number, max: number | null, signature: string, summary: string];

// Grouped the way a reference lists them: text, structure, then time.
const builtinRows: BuiltinRow[] = [
  ['len', 1, 1, 'len(value)', 'Characters of a string, bytes, items of a list or keys of a record.'],
  ['lower', 1, 1, 'lower(value)', 'The value as text, ASCII letters in lower case.'],
  ['upper', 1, 1, 'upper(value)', 'The value as text, ASCII letters in upper case.'],
  ['trim', 1, 1, 'trim(value)', 'The value as text without whitespace at either end.'],
  ['text', 1, 1, 'text(value)', 'The value as text; a record or list as JSON.'],
  ['number', 1, 1, 'number(value)', 'The value as a number.'],
  ['bool', 1, 1, 'bool(value)', 'Whether the value is truthy.'],
  ['keys', 1, 1, 'keys(record)', "A record's keys, sorted."],
  ['values', 1, 1, 'values(record)', "A record's values, by sorted key; a list's items."],
  ['get', 2, 3, 'get(value, key, fallback?)', 'A field or item, or the fallback when it is missing.'],
  ['join', 1, 2, 'join(list, separator?)', 'The items of a list as text, joined.'],
  ['split', 1, 2, 'split(text, separator?)', 'Text split on a separator, or on runs of whitespace.'],
  ['merge', 0, null, 'merge(record, …)', 'Records merged left to right; a later key wins.'],
  ['contains', 2, 2, 'contains(haystack, needle)', 'Whether text, a list or a record holds the needle.'],
  ['starts-with', 2, 2, 'starts-with(text, prefix)', 'Whether text starts with the prefix (or any of a list of them).'],
  ['ends-with', 2, 2, 'ends-with(text, suffix)', 'Whether text ends with the suffix (or any of a list of them).'],
  ['replace', 3, 3, 'replace(text, from, to)', 'Text with every occurrence of one piece replaced.'],
  ['match', 2, 2, 'match(pattern, text)', 'The fields a pattern reads out of text, or null where it does not fit.'],
  ['slice', 2, 3, 'slice(value, start, end?)', 'Part of text, bytes or a list; negative counts from the end.'],
  ['default', 2, 2, 'default(value, fallback)', 'The fallback when the value is null or empty.'],
  ['to_chunk', 1, 2, 'to_chunk(value, mimetype?)', 'A value written as a content chunk.'],
  ['from_chunk', 1, 1, 'from_chunk(chunk)', 'The value a content chunk holds.'],
  ['strformat', 1, null, 'strformat(format, value, …)', 'printf-style formatting.'],
  ['b64encode', 1, 1, 'b64encode(value)', 'Base64 text of a value.'],
  ['b64decode', 1, 1, 'b64decode(text)', 'The bytes base64 text encodes.'],
  ['b64urlencode', 1, 1, 'b64urlencode(value)', 'URL-safe base64 text of a value.'],
  ['b64urldecode', 1, 1, 'b64urldecode(text)', 'The bytes URL-safe base64 text encodes.'],
  ['now', 0, 0, 'now()', 'The current instant.'],
  ['duration', 1, 1, 'duration(value)', 'A duration from text like "1m30s" or a number of seconds.'],
  ['time', 1, 1, 'time(value)', 'An instant from RFC 3339 text or seconds since the epoch.'],
  ['seconds', 1, 1, 'seconds(duration)', 'A duration as a number of seconds.'],
];

/** The 31 built-in functions. A flow cannot define functions of its own. */
export const builtins: readonly BuiltinWord[] = builtinRows.map(([name, minArgs, maxArgs, signature, summary]) => ({
  name,
  minArgs,
  maxArgs,
  signature,
  summary,
}));

// ---------------------------------------------------------------------------------------------
// Types

export interface TypeWord {
  readonly name: string;
  /** How many type parameters it may be given: `list[string]` takes one, `object[string, int]` two. */
  readonly parameterCounts: readonly number[];
}

const typeNameList = [
  'string', 'text', 'number', 'integer', 'int', 'bool', 'boolean', 'duration', 'time',
  'object', 'json', 'list', 'array', 'bytes', 'any',
] as const;

function parameterCountsOf(name: string): number[] {
  if (name === 'list' || name === 'array') return [0, 1];
  if (name === 'object' || name === 'json') return [0, 1, 2];
  return [0];
}

/**
 * The built-in type names. A port may also name a `struct` of the file, a dotted registry tag
 * (`a11.sdk.AudioBuffer`, carried as written) or a quoted mimetype.
 */
export const types: readonly TypeWord[] = typeNameList.map((name) => ({ name, parameterCounts: parameterCountsOf(name) }));

// ---------------------------------------------------------------------------------------------
// Statements, clauses, declarations, modifiers

/** Words that open a statement — keywords only at a statement's start, and only when the next
 * token is not one of `-> | = <- . [` (so `skip -> out` pipes a node called `skip`). */
export const statementWords: readonly string[] = [
  'run', 'call', 'try', 'let', 'advance', 'skip', 'wait', 'drain', 'abort', 'cancel', 'fail', 'log',
  'logf', 'if', 'for', 'repeat', 'until', 'while', 'nodes',
];

/** Words that continue a statement without opening one. */
export const clauseWords: readonly string[] = ['else', 'parallel', 'unordered', 'max', 'of', 'by', 'desc', 'into'];

/** Words that declare something, in the order a flow is written. */
export const declarationWords: readonly string[] = [
  'flow', 'struct', 'describe', 'in', 'out', 'header', 'as', 'default', 'stream', 'required', 'node', 'nodes',
];

/** What may follow a call's `)`, in reading order; `forward headers` is two words. */
export const modifierWords: readonly string[] = ['tee', 'via', 'timeout', 'after', 'with', 'id', 'forward headers'];

/** What a port says about itself after its type. */
export const portModifierWords: readonly string[] = ['stream', 'required'];

/** What a struct field says about itself after its type, in the order they must be written. */
export const fieldModifierWords: readonly string[] = ['required', 'unique', 'matching', 'one of', 'default'];

/** Words that open a pipeline source rather than naming one. */
export const sourceWords: readonly string[] = ['interleave', 'status', 'zip'];

/** Literals that are words. `it` is the value a stage is looking at. */
export const constantWords: readonly string[] = ['false', 'it', 'null', 'true'];

export const operatorWords: readonly string[] = ['and', 'not', 'or'];

// ---------------------------------------------------------------------------------------------
// Status codes, log levels, status fields, durations, symbols

/** Abseil's 17 canonical status codes, lower case, in numeric order (`ok` is 0). */
export const statusCodes: readonly string[] = [
  'ok', 'cancelled', 'unknown', 'invalid_argument', 'deadline_exceeded', 'not_found', 'already_exists',
  'permission_denied', 'resource_exhausted', 'failed_precondition', 'aborted', 'out_of_range',
  'unimplemented', 'internal', 'unavailable', 'data_loss', 'unauthenticated',
];

/** The levels a `log`/`logf` may name, quietest first. */
export const logLevels: readonly string[] = ['debug', 'info', 'warning', 'error', 'critical'];

/** The fields of a status record, in the order it is written. */
export const statusFields: readonly string[] = ['ok', 'code', 'number', 'message'];

/** Duration suffixes and the seconds one of each is, shortest first. */
export const durationUnits: Readonly<Record<string, number>> = {
  ns: 1e-9,
  us: 1e-6,
  ms: 0.001,
  s: 1,
  m: 60,
  h: 3600,
};

/** Punctuation and non-word operators, in listing order (the lexer matches the longest). */
export const symbols: readonly string[] = [
  '|', '->', '<-', '=', '==', '!=', '<', '<=', '>', '>=', '+', '-', '.', '..', '...', ':', ',', '{', '}', '(', ')', '[', ']',
];

/** The kinds a `match` pattern hole may read itself as: `{age:int}`; `string` is the default. */
export const matchPatternKinds: readonly string[] = [
  'string', 'int', 'number', 'bool', 'word', 'line', 'rest', 'duration', 'time', 'json',
];

export interface EntryPortWord {
  readonly name: string;
  readonly type: string;
  readonly unary: boolean;
  readonly description: string;
}

/** The ports the entry flow `flow { … }` has without declaring them. */
export const entryPorts: readonly EntryPortWord[] = [
  { name: 'argc', type: 'integer', unary: true, description: "How many arguments there are, counting the program's own name." },
  { name: 'argv', type: 'string', unary: false, description: "The arguments in order, the program's own name first." },
];

// ---------------------------------------------------------------------------------------------
// Lookups

/**
 * The word as the language reads it: an all-upper-case word folds to lower case, anything else
 * is unchanged. `FOR` → `for`, `NOT_FOUND` → `not_found`, `For` → `For` (a name).
 */
export function canonical(word: string): string {
  let upper = false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 97 && c <= 122) return word;
    if (c >= 65 && c <= 90) upper = true;
  }
  return upper ? word.replace(/[A-Z]/g, (letter) => letter.toLowerCase()) : word;
}

/** Whether the word is written entirely in upper case (and so folds). */
export function isShouted(word: string): boolean {
  return canonical(word) !== word;
}

const stageByName = new Map(stages.map((stage) => [stage.name, stage]));
const builtinByName = new Map(builtins.map((builtin) => [builtin.name, builtin]));
const typeByName = new Map(types.map((type) => [type.name, type]));

/** The stage a word names (after folding), or undefined. */
export function stageNamed(word: string): StageWord | undefined {
  return stageByName.get(canonical(word));
}

/** The built-in function a word names (after folding), or undefined. */
export function builtinNamed(word: string): BuiltinWord | undefined {
  return builtinByName.get(canonical(word));
}

/** The built-in type a word names (after folding), or undefined. */
export function builtinTypeNamed(word: string): TypeWord | undefined {
  return typeByName.get(canonical(word));
}

/** The canonical status code a word names (either case, `-` for `_`), or undefined. */
export function statusCodeNamed(word: string): string | undefined {
  const normalised = canonical(word).replace(/-/g, '_');
  return statusCodes.includes(normalised) ? normalised : undefined;
}

/** The number Abseil gives a canonical status code, or undefined. */
export function statusCodeNumber(word: string): number | undefined {
  const code = statusCodeNamed(word);
  return code === undefined ? undefined : statusCodes.indexOf(code);
}

/** The log level a word names (either case), or undefined. */
export function logLevelNamed(word: string): string | undefined {
  const folded = canonical(word);
  return logLevels.includes(folded) ? folded : undefined;
}

/** Seconds in one of a duration unit, or undefined when the suffix is not a unit. */
export function durationUnitSeconds(unit: string): number | undefined {
  return Object.hasOwn(durationUnits, unit) ? durationUnits[unit] : undefined;
}

/** Every stage name, sorted — what a message listing the known ones writes. */
export function sortedStageNames(): string[] {
  return stages.map((stage) => stage.name).sort();
}

/** Every built-in function name, sorted. */
export function sortedBuiltinNames(): string[] {
  return builtins.map((builtin) => builtin.name).sort();
}

/** Every built-in type name, sorted. */
export function sortedTypeNames(): string[] {
  return types.map((type) => type.name).sort();
}
