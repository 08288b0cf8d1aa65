/**
 * The typed syntax tree of a Flow source file.
 *
 * This is the contract between the syntax layer (grammar → tree → this) and everything after it:
 * the resolver and checks read it, the plan is built from it, the runtime executes what they make
 * of it. It models the facts of the reference parser's tree (`a11 flow parse --format json`, the
 * `flow.syntax/v1` envelope): the same constructs, the same node kinds (`kind` is the reference's
 * kebab-case name), and the same anchor position per node.
 *
 * Positions. Every offset is a UTF-16 offset into the source string (what a JS string and the
 * editor index by); a checker converts to 1-based line/column in code points and to UTF-8 byte
 * offsets. Ranges are half-open. Each node carries two spans:
 *
 * - `at` — the token the construct is anchored at, exactly where the reference's `at` points
 *   (usually the construct's first token, but the operator for a binary, the `.` for an attribute,
 *   the `[` for an index, `as` for a cast, the name for a bind). Diagnostics about a node point
 *   here, which is what keeps our line:column equal to the reference's.
 * - `range` — the whole extent of the construct as written, for editors (folding, hover,
 *   selection). A construct cut short by a syntax error ends where the parser stopped reading it.
 *
 * Words. Where the grammar takes a bare name rather than an expression (a bound name, an `after`
 * step, a loop variable, a port), it is a {@link Word}: the text exactly as written and its span.
 * Keywords, stage names and builtin names are stored canonically (ALL-UPPER-CASE folded to lower
 * case); names of things the author declares are kept as written (identifiers are case-sensitive).
 *
 * Recovery. A tree is produced for any input. Where the parser wanted a value and found none the
 * tree holds an {@link ErrorNode}; optional parts that were missing are `null`. Diagnostics for
 * every such place are reported by `parseFlow` — a consumer never has to re-diagnose syntax.
 */

import type { StageArgumentKind } from '../vocabulary';

/** The argument kinds of stages, as the vocabulary names them. */
export type { StageArgumentKind };

/** A half-open range of UTF-16 offsets into the source. */
export interface Span {
  readonly from: number;
  readonly to: number;
}

/** A name as written where the grammar takes a bare name, and where it was written. */
export interface Word {
  readonly text: string;
  readonly at: Span;
}

interface NodeBase<K extends string> {
  readonly kind: K;
  /** The token the construct is anchored at; see the module comment. */
  readonly at: Span;
  /** The whole construct as written. */
  readonly range: Span;
}

// --- Constants ----------------------------------------------------------------------------------

/**
 * A value the language can write out in full: a literal, or a list/object of literals (what the
 * constant positions of the grammar — a header or field default, `one of`, a fold start — hold).
 * `integer` is kept apart from `number` because counts must be whole numbers.
 */
export type Constant =
  | { readonly kind: 'null' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'integer'; readonly value: number }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'duration'; readonly seconds: number }
  | { readonly kind: 'list'; readonly items: readonly Constant[] }
  | { readonly kind: 'object'; readonly pairs: readonly (readonly [string, Constant])[] };

/** The constants a {@link Literal} can hold: everything but lists and objects. */
export type ScalarConstant = Extract<Constant, { kind: 'null' | 'bool' | 'integer' | 'number' | 'string' | 'duration' }>;

// --- Types --------------------------------------------------------------------------------------

/**
 * A port, field or cast type: `string`, `list[a11.NodeFragment]`, `string[]`, `"audio/wav"`.
 * Not a node (a type never stands where an expression does), but it has a position.
 */
export interface TypeExpression {
  /** Where the type starts (its first token), for `flow.form.unknown-type`. */
  readonly at: Span;
  /** The whole type as written. */
  readonly range: Span;
  /** What was written before the brackets: a built-in name, a struct, a dotted registry tag, or —
   * when `quoted` — a mimetype (the string's value). `T[]` is stored as `list` with one parameter. */
  readonly name: string;
  readonly parameters: readonly TypeExpression[];
  readonly quoted: boolean;
  /** Whether a `list[T]` was written `T[]` (only the formatter cares). */
  readonly sugared: boolean;
  /** The type as the reference writes it back: `list[string]`, `string[]`, `a11.sdk.AudioBuffer`. */
  readonly written: string;
}

// --- Expressions --------------------------------------------------------------------------------

/** A place the parser wanted something and found nothing it could read (already diagnosed). */
export interface ErrorNode extends NodeBase<'error'> {
  /** What was expected there, e.g. `a value`, `a statement`. */
  readonly expected: string;
}

/** A number, string (adjacent literals already joined, escapes resolved), bool, null or duration. */
export interface Literal extends NodeBase<'literal'> {
  readonly value: ScalarConstant;
}

/** `...expr` inside a list or object literal: everything `expr` holds, spread in here. */
export interface Spread extends NodeBase<'spread'> {
  /** A postfix expression (`...a.b`), never an arithmetic one. */
  readonly value: Expression;
}

/** `[a, ...rest, c]`. */
export interface ListLiteral extends NodeBase<'list'> {
  readonly items: readonly (Expression | Spread)[];
}

/** One `key: value` of an object literal. `at` is the key's token. */
export interface ObjectPair extends NodeBase<'pair'> {
  /** The key's value: a quoted key with escapes resolved, or a bare name as written. */
  readonly key: string;
  readonly value: Expression;
}

/** `{ "key": expr, name: expr, ...rest }`. Later pairs win over earlier ones and over spreads. */
export interface ObjectLiteral extends NodeBase<'object'> {
  readonly pairs: readonly (ObjectPair | Spread)[];
}

/** `it` — the value a stage is looking at. */
export type It = NodeBase<'it'>;

/** A bare name, as written: a port, a step, a loop variable, a header alias, a `let` value. */
export interface Name extends NodeBase<'name'> {
  readonly name: string;
}

/** `base.name`. `at` is the `.` token (as in the reference); `nameAt` is the name after it. */
export interface Attr extends NodeBase<'attr'> {
  readonly base: Expression;
  /** Empty when the name after the `.` was missing (diagnosed). */
  readonly name: string;
  readonly nameAt: Span;
}

/** `base[index]`. `at` is the `[` token. */
export interface Index extends NodeBase<'index'> {
  readonly base: Expression;
  readonly index: Expression;
}

/** `name(arg, …)` — one of the language's fixed functions. An unknown name is still a builtin node
 * (the parser reports `flow.form.unknown-builtin`); `name` is canonical (upper-case folded). */
export interface Builtin extends NodeBase<'builtin'> {
  readonly name: string;
  readonly args: readonly Expression[];
}

/** `zip(a, b)` / `interleave(a, b)` — several streams read as one. Arguments are streams. */
export interface Zip extends NodeBase<'zip'> {
  readonly name: 'zip' | 'interleave';
  readonly sources: readonly Expression[];
}

/**
 * A value made into a value of a type: `Tag{…}` (`form: 'braces'`, `value` is the object literal,
 * `at` is the anchor of the tag expression) or `expr as TYPE` (`form: 'cast'`, `at` is `as`).
 */
export interface TypedValue extends NodeBase<'typed-value'> {
  readonly form: 'braces' | 'cast';
  readonly type: TypeExpression;
  readonly value: Expression;
}

/** `not operand`. */
export interface Unary extends NodeBase<'unary'> {
  readonly op: 'not';
  readonly operand: Expression;
}

export type BinaryOperator = 'or' | 'and' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | '+' | '-';

/** `left op right`. `at` is the operator token. */
export interface Binary extends NodeBase<'binary'> {
  readonly op: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

/** `status subject` — the status record of a call, a node or a barrier. */
export interface Outcome extends NodeBase<'outcome'> {
  readonly subject: Expression;
}

/** `(stream | stage …)` used where a value is expected. `at` is the `(`. */
export interface PipelineValue extends NodeBase<'pipeline-value'> {
  readonly pipeline: Pipeline;
}

/**
 * Anything that stands where a value is read. A {@link Wait} appears here only in its race form
 * (`wait first of a, b` / `wait all of a, b`), which is a value as well as a barrier.
 */
export type Expression =
  | ErrorNode
  | Literal
  | ListLiteral
  | ObjectLiteral
  | It
  | Name
  | Attr
  | Index
  | Builtin
  | Zip
  | TypedValue
  | Unary
  | Binary
  | Outcome
  | PipelineValue
  | Wait;

// --- Pipelines ----------------------------------------------------------------------------------

/**
 * What `log`/`logf` carry, as a statement and as a stage (one shape for both).
 * For `log` `format` is null and `arguments` holds at most the one value (none in a stage means
 * `it`); for `logf` `format` is the format string (null when missing — diagnosed).
 */
export interface LogTail {
  /** The level as written (`warning`, `WARNING`, or an unknown word the checker reports). */
  readonly level: Word | null;
  readonly format: string | null;
  readonly arguments: readonly Expression[];
}

/**
 * A stage's argument, shaped by what the stage takes. A value that was required but missing is
 * `null` (and was diagnosed as `flow.form.stage-argument` / `fold-start` / `fold-name`).
 */
export type StageArgument =
  | { readonly takes: 'none' }
  | { readonly takes: 'number'; readonly count: number | null; readonly isInteger: boolean; readonly at: Span | null }
  | { readonly takes: 'string' | 'string?'; readonly text: string | null; readonly at: Span | null }
  | { readonly takes: 'expr' | 'expr?'; readonly expression: Expression | null }
  | { readonly takes: 'stream'; readonly source: Expression | null }
  | { readonly takes: 'sort-key'; readonly by: Expression | null; readonly descending: boolean }
  | {
      readonly takes: 'fold';
      /** The literal (or constant record) the fold starts from. */
      readonly start: Constant | null;
      /** The name bound to what the last value produced. */
      readonly carried: Word | null;
      readonly expression: Expression | null;
    }
  | { readonly takes: 'duration'; readonly seconds: number | null; readonly at: Span | null }
  | { readonly takes: 'log' | 'logf'; readonly log: LogTail };

/** One stage of a pipeline: `| name arg [parallel n] [unordered] [into ref]`, or a bare
 * `then`/`where`. `at` is the stage name. */
export interface Stage extends NodeBase<'stage'> {
  /** Canonical stage name (upper-case folded); for an unknown stage, what was written, folded. */
  readonly name: string;
  /** Whether a `|` introduced it (false for a bare `then`/`where`). */
  readonly piped: boolean;
  /** The argument, or `null` for a stage the language does not have (`flow.form.unknown-stage`). */
  readonly argument: StageArgument | null;
  /** `| try stage`: a value the stage cannot do is dropped rather than failing the pipeline. */
  readonly tolerant: boolean;
  /** `into ref`: where tolerated failures go, as status records. */
  readonly failures: Expression | null;
  /** `parallel n`; 1 when not written (or when refused: `flow.form.stage-not-parallel`). */
  readonly parallel: number;
  /** False only when `unordered` was written on a parallel stage. */
  readonly ordered: boolean;
}

/** A source and the stages its values pass through. `at` is the first token of the source. */
export interface Pipeline extends NodeBase<'pipeline'> {
  readonly source: Expression;
  readonly stages: readonly Stage[];
}

// --- Calls --------------------------------------------------------------------------------------

/** A header set on a call: `with "name": value`. */
export interface HeaderAssignment {
  readonly name: string;
  readonly nameAt: Span;
  readonly value: Expression;
}

/** The `tee`/`via`/`timeout`/`after`/`with`/`id`/`forward headers` tail of a call.
 * `at` is the first token after the call's `)` (possibly a line break), as in the reference. */
export interface CallModifiers extends NodeBase<'call-modifiers'> {
  readonly tee: boolean;
  /** `via MAP`. */
  readonly nodeMap: Word | null;
  /** `timeout D`, in seconds. */
  readonly timeout: number | null;
  readonly after: readonly Word[];
  readonly headers: readonly HeaderAssignment[];
  /** `id EXPR`. */
  readonly actionId: Expression | null;
  /** `forward headers "a", "x-*"`: names or `*` patterns. */
  readonly forward: readonly Word[];
}

/** One `port: pipeline` argument of a call. */
export interface CallArgument {
  readonly port: Word;
  readonly pipeline: Pipeline;
}

/**
 * `[try] run|call ACTION(port: pipeline, …) modifiers`. `at` is `try` when written, else the verb.
 * `mode` is null when the verb was missing (`x = 5` — diagnosed).
 */
export interface CallExpression extends NodeBase<'call'> {
  /** The action (or sibling flow) name, dotted names joined with `.`; a quoted name's value. */
  readonly action: string;
  readonly actionAt: Span;
  readonly mode: 'run' | 'call' | null;
  readonly args: readonly CallArgument[];
  readonly modifiers: CallModifiers;
  readonly tolerant: boolean;
}

// --- Statements ---------------------------------------------------------------------------------

/** `node()` / `node(id)` / `… in MAP` — a node of the flow's own (only as a bind's value). */
export interface NodeExpression extends NodeBase<'node'> {
  readonly id: Expression | null;
  readonly nodeMap: Word | null;
}

/** What `name = …` can bind: a call, a node, or a statement that reads as its outcome (a block,
 * `wait`, `drain`, `for`, `repeat`, a `try` pipe). `at` of the bind is the name. */
export type BindValue = CallExpression | NodeExpression | Statement;

/** `name = …`. */
export interface Bind extends NodeBase<'bind'> {
  readonly name: Word;
  readonly value: BindValue;
}

/** `let a[, b…] = pipeline` — one value of a stream, named (several names take it apart). */
export interface Let extends NodeBase<'let'> {
  readonly names: readonly Word[];
  readonly pipeline: Pipeline;
}

/** `advance name` — rebind a `let` value to the next value of its stream. */
export interface Advance extends NodeBase<'advance'> {
  readonly name: Word;
}

/** `[try] { … }` — statements that run as one step. `at` is `try` when written, else `{`. */
export interface Block extends NodeBase<'block'> {
  readonly tolerant: boolean;
  readonly body: readonly Statement[];
}

/** An unbound call: its outputs are drained. */
export interface CallStatement extends NodeBase<'call-statement'> {
  readonly call: CallExpression;
}

/** `[try] pipeline -> target[, target…] [after …]`. `at` is the statement's first token. */
export interface Pipe extends NodeBase<'pipe'> {
  readonly pipeline: Pipeline;
  readonly targets: readonly Expression[];
  readonly after: readonly Word[];
  readonly tolerant: boolean;
}

/** One subject of a `skip`: a pipeline (`skip a.b`, `skip act`), or named outputs of a call
 * (`skip o1, o2 of act`, `skip (o1, o2) of act`). */
export type SkipTarget =
  | { readonly form: 'pipeline'; readonly pipeline: Pipeline }
  | { readonly form: 'outputs'; readonly outputs: readonly Word[]; readonly call: Word };

/** `skip …`; with `count` it is `skip N ref` (one target, whose pipeline is a bare reference). */
export interface Skip extends NodeBase<'skip'> {
  readonly targets: readonly SkipTarget[];
  readonly after: readonly Word[];
  /** The count of a counted skip; null for a plain one or a refused count (diagnosed). */
  readonly count: number | null;
  /** Whether a count was written at all (even a refused one). */
  readonly counted: boolean;
}

/**
 * `wait subject [timeout D] [-> targets] [after …]`, or the race forms `wait first of a, b` /
 * `wait all of a, b` (also valid as an expression).
 */
export interface Wait extends NodeBase<'wait'> {
  readonly form: 'one' | 'first' | 'all';
  /** The subject of the single form; null for the race forms. */
  readonly subject: Expression | null;
  /** The subjects of the race forms; empty for the single form. */
  readonly subjects: readonly Expression[];
  /** True for `wait first of`. */
  readonly race: boolean;
  /** Seconds. */
  readonly timeout: number | null;
  readonly targets: readonly Expression[];
  readonly after: readonly Word[];
}

/** `drain target [after …]`. */
export interface Drain extends NodeBase<'drain'> {
  readonly target: Expression;
  readonly after: readonly Word[];
}

/** `cancel name [after …]`. */
export interface Cancel extends NodeBase<'cancel'> {
  readonly name: Word;
  readonly after: readonly Word[];
}

/** `abort node [code [message]] [after …]`. */
export interface Abort extends NodeBase<'abort'> {
  readonly target: Expression;
  readonly code: Expression | null;
  readonly message: Expression | null;
  readonly after: readonly Word[];
}

/** `fail [code [message]] [after …]` (a code is a Name the checker resolves, a number, or a status). */
export interface Fail extends NodeBase<'fail'> {
  readonly code: Expression | null;
  readonly message: Expression | null;
  readonly after: readonly Word[];
}

/** `log [LEVEL] expr [after …]` and `logf [LEVEL] "format" [args…] [after …]`. */
export interface Log extends NodeBase<'log'> {
  /** True for `logf`. */
  readonly formatted: boolean;
  readonly log: LogTail;
  readonly after: readonly Word[];
}

/** `for a[, b…] in pipeline [parallel n] { … } [after …]`. */
export interface ForEach extends NodeBase<'for-each'> {
  readonly variables: readonly Word[];
  readonly pipeline: Pipeline;
  /** 1 when not written. */
  readonly parallel: number;
  readonly body: readonly Statement[];
  readonly after: readonly Word[];
}

/** `repeat [name = start] [max n] { … } [after …]`. */
export interface Repeat extends NodeBase<'repeat'> {
  readonly variable: Word | null;
  readonly start: Expression | null;
  readonly max: number | null;
  readonly body: readonly Statement[];
  readonly after: readonly Word[];
}

/** `name <- pipeline` — what the next pass of a `repeat` carries. `at` is the name. */
export interface Carry extends NodeBase<'carry'> {
  readonly name: Word;
  readonly pipeline: Pipeline;
}

/** `until expr` (`stopWhen: true`) / `while expr` (`stopWhen: false`). */
export interface Until extends NodeBase<'until'> {
  readonly condition: Expression;
  readonly stopWhen: boolean;
}

/** `if expr { … } [else { … } | else if …]`. An `else if` is an {@link If} alone in `elseBody`. */
export interface If extends NodeBase<'if'> {
  readonly condition: Expression;
  readonly thenBody: readonly Statement[];
  readonly elseBody: readonly Statement[];
  /** Whether `else` was written (an empty `else {}` still counts). */
  readonly hasElse: boolean;
}

/** `nodes name [{ … }]` — a private node map, and optionally the statements placed in it. */
export interface Nodes extends NodeBase<'nodes'> {
  readonly name: Word;
  readonly body: readonly Statement[];
  readonly hasBody: boolean;
}

export type Statement =
  | ErrorNode
  | Bind
  | Let
  | Advance
  | Block
  | CallStatement
  | Pipe
  | Skip
  | Wait
  | Drain
  | Cancel
  | Abort
  | Fail
  | Log
  | ForEach
  | Repeat
  | Carry
  | Until
  | If
  | Nodes;

// --- Declarations -------------------------------------------------------------------------------

/** `in|out name: TYPE [stream] [required] [description]`. `at` is `in`/`out`. */
export interface PortDeclaration extends NodeBase<'port'> {
  readonly name: Word;
  /** As the plan spells it. */
  readonly direction: 'inputs' | 'outputs';
  readonly type: TypeExpression;
  /** False when `stream` was written. */
  readonly unary: boolean;
  readonly required: boolean;
  /** Empty when none was written. */
  readonly description: string;
}

/** `header "x-name" [as alias] [default CONST] [description]`. `at` is `header`. */
export interface HeaderDeclaration extends NodeBase<'header'> {
  readonly name: string;
  readonly nameAt: Span;
  /** The alias; when not written, the header name with `-`/`.` turned into `_`, anchored at `header`. */
  readonly alias: Word;
  readonly defaultValue: Constant | null;
  readonly description: string;
}

/** `flow NAME { … }`, or the file's entry point `flow { … }`. `at` is `flow`. */
export interface FlowDeclaration extends NodeBase<'flow'> {
  /** The name (a dotted name joined with `.`, or a quoted name's value); for the entry flow the
   * text is empty and the span is the `flow` keyword. */
  readonly name: Word;
  readonly entry: boolean;
  readonly description: string;
  readonly ports: readonly PortDeclaration[];
  readonly headers: readonly HeaderDeclaration[];
  readonly body: readonly Statement[];
}

/** A field's bound: `1..200`, `1..`, `..200` (numbers or durations). */
export interface FieldRange {
  readonly minimum: Constant | null;
  readonly maximum: Constant | null;
}

/** `name: TYPE [required] [unique] [A..B] [matching "re"] [one of [..]] [default C] [description]`.
 * `at` is the field name. */
export interface FieldDeclaration extends NodeBase<'field'> {
  readonly name: Word;
  readonly type: TypeExpression;
  readonly required: boolean;
  readonly unique: boolean;
  /** The `A..B` bound (the reference's `range`; renamed because `range` is the node's extent). */
  readonly bounds: FieldRange | null;
  readonly pattern: string | null;
  readonly oneOf: readonly Constant[] | null;
  readonly defaultValue: Constant | null;
  readonly description: string;
}

/** `struct NAME { describe …; fields… }`. `at` is `struct`. */
export interface StructDeclaration extends NodeBase<'struct'> {
  readonly name: Word;
  readonly description: string;
  readonly fields: readonly FieldDeclaration[];
}

/** A whole file: its flows and structs, each in source order. */
export interface SourceFile extends NodeBase<'source'> {
  readonly flows: readonly FlowDeclaration[];
  readonly structs: readonly StructDeclaration[];
}

/** Every node kind of the tree. */
export type SyntaxNode =
  | SourceFile
  | StructDeclaration
  | FieldDeclaration
  | FlowDeclaration
  | PortDeclaration
  | HeaderDeclaration
  | Statement
  | Expression
  | Spread
  | ObjectPair
  | Stage
  | Pipeline
  | CallExpression
  | CallModifiers
  | NodeExpression;
