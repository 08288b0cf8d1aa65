/**
 * The Flow language in one page, for a model to write flows from. Every word list comes from
 * the vocabulary module, so the reference cannot name a stage, builtin, type or code the
 * compiler does not know; the few explanations the vocabulary does not carry are keyed by the
 * vocabulary's own words, and a test holds the two sets equal.
 */
import {
  builtins,
  clauseWords,
  durationUnits,
  logLevels,
  matchPatternKinds,
  modifierWords,
  stages,
  statementWords,
  statusCodes,
  statusFields,
  types,
  type StageArgumentKind,
} from '../../flow/vocabulary.js';

/** How each statement word is used, in this reference's words. */
export const STATEMENT_USAGE: Readonly<Record<string, string>> = {
  run: '`x = run ACTION(port: expr, …)` — run an action where the flow runs; its outputs are `x.port`.',
  call: '`x = call ACTION(…)` — the same, but dispatched to the peer the flow came from.',
  try: '`x = try run …`, `try { … }`, `| try STAGE` — a failure becomes a value (`x.ok`, `status x`) instead of ending the flow.',
  let: '`let v = stream` — names one value of a stream, usable wherever an expression goes; `let a, b = rec` takes it apart.',
  advance: '`advance v` — rebinds a `let` name to the next value of its stream.',
  skip: '`skip x.port`, `skip x`, `skip 1 x.rows` — says an output is not read; a count drops that many values for every reader.',
  wait: '`wait x`, `wait first of a, b`, `wait all of a, b` — waits for a step or stream to finish; `timeout D` bounds it.',
  drain: '`drain n` — marks a node final and closes it.',
  abort: '`abort n CODE "message"` — ends a node this flow writes with a failure.',
  cancel: '`cancel x` — cancels a running step.',
  fail: '`fail CODE "message"` — fails the flow (put it in an `if`, or give it `after`).',
  log: '`log [LEVEL] expr` — writes to the flow log, never to an output.',
  logf: '`logf [LEVEL] "format %s" expr, …` — a formatted log line.',
  if: '`if expr { … } else { … }` — a branch.',
  for: '`for v in stream [parallel N] { … }` — a block per value (`index` counts from 0).',
  repeat: '`repeat [s = start] [max N] { … until expr }` — a loop; it needs `until`/`while` or `max`.',
  until: '`until expr` — inside a loop: stop after this pass when it holds.',
  while: '`while expr` — inside a loop: go on only while it holds.',
  nodes: '`nodes NAME { … }` — keeps the nodes made in the block private, off the wire.',
};

/** What each call modifier does. */
export const MODIFIER_USAGE: Readonly<Record<string, string>> = {
  tee: '`tee` — a `run` step also binds its outputs as streams others can read.',
  via: '`via NAME` — keeps the step\'s ports in the private node map NAME.',
  timeout: '`timeout 30s` — fails the step when it runs longer.',
  after: '`after a, b` — starts only once a and b have finished.',
  with: '`with "header": expr` — sets a header on the nested call.',
  id: '`id expr` — chooses the nested call\'s id.',
  'forward headers': '`forward headers "x-*"` — copies the caller\'s matching headers onto the nested call.',
};

/** What each clause word continues. */
export const CLAUSE_USAGE: Readonly<Record<string, string>> = {
  else: 'after an `if` block',
  parallel: '`for … parallel N`, `| map … parallel N`',
  unordered: '`parallel N unordered` — results as they finish',
  max: '`repeat max N`',
  of: '`wait first of a, b`, `skip a, b of x`',
  by: '`| sort by expr`',
  desc: '`| sort by expr desc`',
  into: '`| try map … into errors` — failures go to a node',
};

const STAGE_FORM: Readonly<Record<StageArgumentKind, (name: string) => string>> = {
  none: (name) => name,
  number: (name) => `${name} N`,
  expr: (name) => `${name} EXPR`,
  'expr?': (name) => `${name} [EXPR]`,
  string: (name) => `${name} "${name === 'strformat' ? 'FORMAT' : name === 'mime' ? 'TYPE/*' : 'PATTERN'}"`,
  'string?': (name) => `${name} ["SEPARATOR"]`,
  'sort-key': (name) => `${name} [by EXPR] [desc]`,
  fold: (name) => `${name} START as NAME, EXPR`,
  duration: (name) => `${name} DURATION`,
  stream: (name) => `${name} STREAM`,
  log: (name) => `${name} [LEVEL] [EXPR]`,
  logf: (name) => `${name} [LEVEL] "FORMAT" [EXPR, …]`,
};

const code = (word: string) => `\`${word}\``;

/** The reference, as Markdown. */
export function languageReference(): string {
  const stageLines = stages.map(
    (stage) => `- \`| ${STAGE_FORM[stage.takes](stage.name)}\` — ${stage.summary}${stage.parallel ? ' (takes `parallel N`)' : ''}`,
  );
  const builtinLines = builtins.map((builtin) => `- \`${builtin.signature}\` — ${builtin.summary}`);
  const units = Object.keys(durationUnits).map(code).join(' ');
  return [
    '### A file',
    '',
    'A file holds one or more `flow NAME { … }` declarations (and `struct NAME { field: type … }` records).',
    'Inside a flow, in any order:',
    '',
    '```',
    'describe "What it does."',
    'in  NAME: TYPE [stream] [required] ["description"]',
    'out NAME: TYPE [stream] ["description"]',
    'header "x-a11-llm-model" [as NAME] [default "…"]',
    'STATEMENTS',
    '```',
    '',
    'A statement ends at the end of its line. `#` starts a comment. Steps run concurrently: what a',
    'step reads decides when it can go, and `after`, `wait` and `| then` order the rest.',
    '',
    '### Moving values',
    '',
    '- `source -> target` pipes every value of a stream into a port or node; `source | STAGE | STAGE -> target` reshapes on the way.',
    '- `x = run action(port: source, …)` names the step; its output ports are `x.port`.',
    '- `n = node()` makes a node several readers can read; every reader sees every value.',
    '- A port without `stream` carries one value; with `stream`, any number.',
    '- A node closes when its last writer finishes; an output nobody writes ends empty.',
    '',
    '### Statements',
    '',
    ...statementWords.map((word) => `- ${STATEMENT_USAGE[word]}`),
    '',
    '### Call modifiers (after the `)`)',
    '',
    ...modifierWords.map((word) => `- ${MODIFIER_USAGE[word]}`),
    '',
    '### Clause words',
    '',
    ...clauseWords.map((word) => `- \`${word}\` — ${CLAUSE_USAGE[word]}`),
    '',
    '### Stages',
    '',
    '`it` is the value a stage is looking at. `where` and `then` may be written without their `|`.',
    '',
    ...stageLines,
    '',
    '### Expressions',
    '',
    '- Literals: `"text"`, `"""multi-line"""`, `42`, `1.5`, durations such as `1.5s`, `true`, `false`, `null`, lists `[a, b]`, records `{"key": value, ...other}`.',
    '- Operators, loosest first: `or`, `and`, `not`, one comparison (`== != < <= > >=`, `in`), `+ -` (with spaces around `-`), `expr as TYPE`, then `.field` and `[index]`.',
    '- `TAG{field: value}` builds a typed value (`a11.sdk.Interaction{role: "user", …}`); `expr as TAG` converts one.',
    `- A status (\`status x\`, or \`x\` after \`try\`) has the fields ${statusFields.map(code).join(', ')}.`,
    '',
    '### Built-in functions',
    '',
    ...builtinLines,
    '',
    '### Words',
    '',
    `- Types: ${types.map((type) => code(type.name)).join(' ')}; also a struct of the file, a dotted tag such as \`a11.sdk.AudioBuffer\`, or a quoted mimetype. \`list[T]\` and \`object[K, V]\` take parameters.`,
    `- Status codes: ${statusCodes.map(code).join(' ')} (either case).`,
    `- Log levels: ${logLevels.map(code).join(' ')}.`,
    `- Duration units: ${units}.`,
    `- \`match\` patterns read \`{name}\` or \`{name:KIND}\` holes; kinds: ${matchPatternKinds.map(code).join(' ')}.`,
    '- An ALL-CAPS word reads as its lower-case self (`FOR` is `for`); mixed case is always a name.',
  ].join('\n');
}
