/**
 * The checked program: what `compileFlow` produces and what the runtime executes.
 *
 * A {@link Program} is every flow and struct of one source file, resolved. Each
 * {@link FlowProgram} is a small dataflow graph, held in flat arrays and addressed by index
 * (a `RefId`, `StepId` or `BodyId` is a position in `refs`, `steps` or `bodies`):
 *
 * - **Refs** are streams: a port, a node, a call's port, a status, a header, a stage applied to
 *   another ref, a loop's per-pass value… Two mentions of one port or node are one ref, so its
 *   readers and writers can be counted on it. `unary` says the ref provably carries at most one
 *   value (a port without `stream`, a header, a status, a pipeline ending in `collect`, `count`
 *   or `first 1`…), which is what lets an expression read its value.
 * - **Steps** are statements: calls, pipes, skips, barriers, loops, branches, blocks. A step
 *   belongs to one body and may wait (`after`) for other steps of the flow.
 * - **Bodies** are blocks of steps: the flow's top level (`root`) and each loop, branch or block
 *   body. A step with bodies of its own (`for`, `repeat`, `if`, `block`) names them in `inner`.
 * - **Exprs** are expressions with every name already resolved to the ref it reads (`kind: 'ref'`
 *   reads that ref's value — its first one, for a stream).
 *
 * Every ref, step and expression keeps the source span it came from (`at`, UTF-16 offsets into
 * the source) so a runtime error can say where. Nothing here points back into the syntax tree,
 * so a program may outlive the tree, be cached, or be sent over a wire as JSON.
 *
 * The runtime's questions — which refs a step reads and writes, which refs an expression reads —
 * are answered once, in `program-queries.ts` (re-exported at the end of this file).
 */

import type { Constant, Span } from './syntax/ast.js';

// ---------------------------------------------------------------------------------------------
// Shared shapes

// A span and a constant are the syntax tree's own shapes: the program holds copies of them, never
// a node of the tree, so it still outlives the tree and travels as JSON.
export type { Constant, Span };

export type RefId = number;
export type StepId = number;
export type BodyId = number;

// ---------------------------------------------------------------------------------------------
// The program

export interface Program {
  /** The name the source was compiled under (`flow` for a gateway's `flow_check`). */
  readonly sourceName: string;
  /** Every flow, in declaration order; a duplicate declaration is left out (and reported). */
  readonly flows: readonly FlowProgram[];
  /** Every struct, in declaration order; a duplicate or a shadowing one is left out. */
  readonly structs: readonly StructShape[];
}

export interface FlowProgram {
  /** Empty for the entry flow `flow { … }`, which nothing can `run` or `call`. */
  readonly name: string;
  readonly entry: boolean;
  readonly description: string;
  readonly at: Span;
  /** Declared ports in declaration order; the entry flow's implicit `argc`/`argv` first. */
  readonly ports: readonly PortDeclaration[];
  readonly headers: readonly HeaderDeclaration[];
  /** Node maps the flow declares or places nodes in, in the order they appear. */
  readonly nodeMaps: readonly string[];
  readonly refs: readonly Ref[];
  readonly steps: readonly Step[];
  readonly bodies: readonly Body[];
  /** The flow's top-level body. */
  readonly root: BodyId;
  /** The flow as `flow.plan/v1` describes it (see `plan.ts`). */
  readonly described: readonly DescribedStep[];
}

export interface PortDeclaration {
  readonly name: string;
  readonly direction: 'inputs' | 'outputs';
  /** The type as written: `list[string]`, `a11.sdk.AudioBuffer`, `"audio/wav"` (its value). */
  readonly declared: string;
  /** What the type resolved to: a built-in name (lower case), a struct, a tag or a mimetype. */
  readonly type: string;
  /** The struct of this file the port carries, if it names one. */
  readonly struct: string | null;
  /** False when the port says `stream`. */
  readonly unary: boolean;
  readonly required: boolean;
  readonly description: string;
  /** Whether the language declared it (the entry flow's `argc` and `argv`). */
  readonly implicit: boolean;
  readonly at: Span;
  /** The ref this port is inside the flow. */
  readonly ref: RefId;
}

export interface HeaderDeclaration {
  /** The header's name as declared: `x-a11-deadline`. */
  readonly name: string;
  /** The name the flow reads it by. */
  readonly alias: string;
  readonly defaultValue: Constant | null;
  readonly description: string;
  readonly at: Span;
  readonly ref: RefId;
}

export interface Body {
  readonly id: BodyId;
  /** `root`, `for.body`, `if#2.then`, `block.body`… */
  readonly label: string;
  readonly parent: BodyId | null;
  /** The step whose body this is; null for the root. */
  readonly ownerStep: StepId | null;
  /** Its steps, in the order they were written (nested statements of a `nodes` block inlined). */
  readonly steps: readonly StepId[];
}

// ---------------------------------------------------------------------------------------------
// Structs

export interface StructShape {
  readonly name: string;
  readonly description: string;
  readonly fields: readonly FieldShape[];
  /** Whether it holds bytes anywhere, directly or through a struct it names (then `| json` cannot render it). */
  readonly binary: boolean;
  readonly at: Span;
}

export interface FieldShape {
  readonly name: string;
  readonly declared: string;
  readonly type: string;
  /** For `list[T]`: T resolved; null otherwise. */
  readonly element: string | null;
  /** The struct the field (or the list's element) names, if any. */
  readonly struct: string | null;
  readonly elementStruct: string | null;
  readonly required: boolean;
  readonly unique: boolean;
  readonly bounds: { readonly minimum: Constant | null; readonly maximum: Constant | null } | null;
  readonly pattern: string | null;
  readonly oneOf: readonly Constant[] | null;
  readonly defaultValue: Constant | null;
  readonly description: string;
  readonly at: Span;
}

// ---------------------------------------------------------------------------------------------
// Refs: the streams

interface RefBase {
  readonly id: RefId;
  /** How a reader would say it: `search.hits | truncate 200`. */
  readonly label: string;
  /** The body it belongs to, which is where it is materialised. */
  readonly owner: BodyId;
  /** Whether this flow may write it: a destination, closed when its last writer finishes. */
  readonly writable: boolean;
  /** Whether it provably carries at most one value. A claim: false means "may be many". */
  readonly unary: boolean;
  /** How many of its first values `skip N` statements take off for every reader (summed). */
  readonly skip: number;
  readonly at: Span;
}

/** A declared port of this flow. */
export interface FlowPortRef extends RefBase {
  readonly kind: 'flow-port';
  readonly name: string;
  readonly direction: 'inputs' | 'outputs';
}

/** A port of a call this flow makes: `x.out` (an output, read) or `x.in` (an input, written). */
export interface CallPortRef extends RefBase {
  readonly kind: 'call-port';
  readonly name: string;
  readonly direction: 'inputs' | 'outputs';
  readonly call: StepId;
}

/** `x = node()` / `node(id)` — a stream of the flow's own, written and read back. */
export interface NodeRef extends RefBase {
  readonly kind: 'node';
  readonly name: string;
  /** `node(id)` attaches to the node with that id instead of making one; null for `node()`. */
  readonly attach: Expr | null;
  /** The node map it lands in; empty for the map of the action running the flow. */
  readonly nodeMap: string;
}

/** `x.id` of a node — its id, as one value. */
export interface NodeIdRef extends RefBase {
  readonly kind: 'node-id';
  readonly node: RefId;
}

/**
 * The outcome of something, as one status record `{ok, code, number, message}`: of a step (a
 * call, a block, a loop, a pipe, a barrier) or of a ref (a node or a port: how its stream ended).
 */
export interface StatusRef extends RefBase {
  readonly kind: 'status';
  readonly subjectStep: StepId | null;
  readonly subjectRef: RefId | null;
}

/** One header of the call running the flow, as one value (or its default). */
export interface HeaderRef extends RefBase {
  readonly kind: 'header';
  readonly header: string;
  readonly fallback: Constant | null;
}

/** An expression evaluated once, as a stream of one value. */
export interface ExprRef extends RefBase {
  readonly kind: 'expr';
  readonly expr: Expr;
}

/** One stage applied to another stream. */
export interface DerivedRef extends RefBase {
  readonly kind: 'derived';
  readonly source: RefId;
  readonly stage: StageOp;
}

/** `zip(a, b)`: the sources read in step, one list per round, until every source has ended. */
export interface ZipRef extends RefBase {
  readonly kind: 'zip';
  readonly sources: readonly RefId[];
}

/** `interleave(a, b)`: every value of every source, in the order they arrive. */
export interface MergeRef extends RefBase {
  readonly kind: 'merge';
  readonly sources: readonly RefId[];
}

/** Which subject of a `wait first of` finished first, from zero, as one value. */
export interface WinnerRef extends RefBase {
  readonly kind: 'winner';
  readonly step: StepId;
}

/**
 * A value the runtime binds per pass or per value: a `for`'s `item` and `index`, a `repeat`'s
 * `carry` and `index`, or a `fold`/`scan` accumulator (`fold`, step null — the stage binds it).
 */
export interface BoundRef extends RefBase {
  readonly kind: 'bound';
  readonly role: 'item' | 'index' | 'carry' | 'fold';
  readonly step: StepId | null;
}

export type Ref =
  | FlowPortRef
  | CallPortRef
  | NodeRef
  | NodeIdRef
  | StatusRef
  | HeaderRef
  | ExprRef
  | DerivedRef
  | ZipRef
  | MergeRef
  | WinnerRef
  | BoundRef;

// ---------------------------------------------------------------------------------------------
// Stages

interface StageCommon {
  /** The stage's canonical name, or `at` — what `x.field` and `x[i]` over a stream become. */
  readonly name: string;
  /** `try`: a value the stage cannot do is dropped (and logged once) instead of failing the stream. */
  readonly tolerant: boolean;
  /** `try … into ref`: where the failures go, as status records. */
  readonly failures: RefId | null;
  /** How many values it may work on at once (1 unless `parallel N`). */
  readonly parallel: number;
  /** False for `parallel N unordered`: values leave as they finish. */
  readonly ordered: boolean;
  readonly at: Span;
}

export type StageOp = StageCommon &
  (
    | { readonly takes: 'none' }
    | { readonly takes: 'number'; readonly count: number }
    | { readonly takes: 'string' | 'string?'; readonly text: string | null }
    | { readonly takes: 'expr' | 'expr?'; readonly expr: Expr | null }
    | { readonly takes: 'sort-key'; readonly by: Expr | null; readonly descending: boolean }
    | {
        readonly takes: 'fold';
        readonly start: Constant;
        /** The name the accumulator has inside `expr`, and the bound ref that name reads. */
        readonly carried: string;
        readonly carry: RefId;
        readonly expr: Expr | null;
      }
    | { readonly takes: 'duration'; readonly seconds: number }
    | { readonly takes: 'stream'; readonly stream: RefId }
    | { readonly takes: 'log' | 'logf'; readonly log: LogSpec }
    | {
        readonly takes: 'at';
        /** The field to read; for an index, its text. */
        readonly field: string;
        /** The index to read, when written `x[2]` (or for a part of a destructured `let`). */
        readonly index: number | null;
        /** A destructuring `let a, b = v`: by field name where the value has one, else by position. */
        readonly namedOrIndexed: boolean;
      }
  );

/** What a `log`/`logf` writes, as a statement or a stage. */
export interface LogSpec {
  /** Canonical level, or null for the default (`info`). */
  readonly level: string | null;
  /** `logf`'s format; null for `log`. */
  readonly format: string | null;
  /** What to log, or what fills the format. In a stage, none means `it`. */
  readonly arguments: readonly Expr[];
  /** The 1-based line it was written on, which a log record carries. */
  readonly line: number;
}

// ---------------------------------------------------------------------------------------------
// Steps: the statements

interface StepBase {
  readonly id: StepId;
  /** The name it is known by: a bound name, the action, `for`, `if#2`… */
  readonly label: string;
  /** The body it belongs to. */
  readonly body: BodyId;
  /** Steps that must have finished before it starts. */
  readonly after: readonly StepId[];
  readonly at: Span;
}

/** `run`/`call ACTION(…)`. Its inputs are fed by the `pipe` steps that follow it. */
export interface CallStep extends StepBase {
  readonly kind: 'call';
  /** The action, or the name of a sibling flow of this file. */
  readonly action: string;
  /** Whether `action` names a flow of this file (so the runtime runs that flow). */
  readonly sibling: boolean;
  /** `run`: the handler registered where the flow runs. `call`: dispatched on the flow's stream. */
  readonly mode: 'run' | 'call';
  /** The node map its ports live in (`via`, or an enclosing `nodes`); empty for the action's own. */
  readonly nodeMap: string;
  /** `timeout D`, in seconds. */
  readonly timeout: number | null;
  /** `tee`: a `run` step's nodes also go on the wire. */
  readonly tee: boolean;
  /** `try`: a failure is this flow's to read, not the end of it. */
  readonly tolerant: boolean;
  /** `with "h": expr`, evaluated where the call is written. */
  readonly headers: readonly { readonly name: string; readonly value: Expr }[];
  /** `forward headers "a", "x-*"` — names or `*` patterns, matched without regard to case. */
  readonly forward: readonly string[];
  /** `id EXPR` — the id of the nested action. */
  readonly actionId: Expr | null;
  /** Every port of the call the flow wires, keyed `inputs:name` / `outputs:name`. */
  readonly ports: Readonly<Record<string, RefId>>;
}

/** `source -> destination`, one per destination (a call's arguments are pipes too). */
export interface PipeStep extends StepBase {
  readonly kind: 'pipe';
  readonly source: RefId;
  readonly destination: RefId;
  /** `try src -> dest`: a failure of the source or destination is this step's outcome, not the flow's. */
  readonly tolerant: boolean;
}

/** `skip X` reads X to its end and keeps nothing; `skip N X` takes N values off X for everyone. */
export interface SkipStep extends StepBase {
  readonly kind: 'skip';
  /** What it reads; null for `skip act` of an action whose outputs are unknown here. */
  readonly source: RefId | null;
  /** `skip N port`: the count (already added to the ref's `skip`), and the step reads nothing. */
  readonly count: number | null;
  /** `skip act` where act's outputs are not known here: every output of that call. */
  readonly call: StepId | null;
}

/** `wait X`, `wait first of a, b`, `wait all of a, b`. */
export interface WaitStep extends StepBase {
  readonly kind: 'wait';
  /** The status read (for the race forms: the first subject's, which the runtime sets to the winner's). */
  readonly outcome: RefId | null;
  /** The race forms' subjects' statuses, in order; empty for `wait X`. */
  readonly subjects: readonly RefId[];
  /** `wait first of`. */
  readonly race: boolean;
  readonly timeout: number | null;
  /** Whether a bad outcome is this flow's to handle (every subject is a `try`). */
  readonly tolerant: boolean;
  /** For a race: the ref of which subject won. */
  readonly winner: RefId | null;
}

/** `drain X`: mark X final, close its writer, read what is left; the outcome is X's status. */
export interface DrainStep extends StepBase {
  readonly kind: 'drain';
  readonly target: RefId | null;
  readonly outcome: RefId | null;
}

/** `cancel x`: cancel a call, ending the run `cancelled`. */
export interface CancelStep extends StepBase {
  readonly kind: 'cancel';
  readonly target: StepId | null;
}

/** A `fail`/`abort` code: a canonical code named outright, a value read at run time, or none. */
export type FailCode =
  | { readonly kind: 'named'; /** canonical, lower case */ readonly code: string }
  | { readonly kind: 'expr'; readonly expr: Expr };

/** `abort node [code] [message]`: end a node this flow writes with a failure. */
export interface AbortStep extends StepBase {
  readonly kind: 'abort';
  readonly destination: RefId | null;
  readonly code: FailCode | null;
  readonly message: Expr | null;
}

/** `fail [code] [message]`: end the flow with a status. */
export interface FailStep extends StepBase {
  readonly kind: 'fail';
  readonly code: FailCode | null;
  readonly message: Expr | null;
}

/** `log`/`logf` as a statement. */
export interface LogStep extends StepBase {
  readonly kind: 'log';
  readonly log: LogSpec;
}

/** Remembers a stream's first value for the loop owning this body: `<-` and `until` read these. */
export interface CaptureStep extends StepBase {
  readonly kind: 'capture';
  readonly source: RefId;
  /** `carry`, or `condition:<refId>` for a stream an `until`/`while` condition reads. */
  readonly slot: string;
}

/** `for v[, w] in source [parallel N] { … }`. */
export interface ForStep extends StepBase {
  readonly kind: 'for';
  readonly source: RefId;
  readonly inner: BodyId;
  /** The value each pass binds, and its index from 0. */
  readonly item: RefId;
  readonly index: RefId;
  readonly parallel: number;
  /** `until`/`while`, asked at the tail of each pass. */
  readonly condition: Expr | null;
  /** True for `until` (stop when it holds), false for `while` (stop when it does not). */
  readonly stopWhen: boolean;
}

/** `repeat [s = START] [max N] { … }`. */
export interface RepeatStep extends StepBase {
  readonly kind: 'repeat';
  readonly inner: BodyId;
  /** What it carries (null when nothing), and where the next pass's value comes from (`s <- …`). */
  readonly carry: RefId | null;
  readonly carrySource: RefId | null;
  readonly start: Constant | null;
  readonly max: number | null;
  readonly index: RefId;
  readonly condition: Expr | null;
  readonly stopWhen: boolean;
}

/** `if cond { … } else { … }`. */
export interface IfStep extends StepBase {
  readonly kind: 'if';
  readonly condition: Expr;
  readonly then: BodyId;
  readonly else: BodyId;
}

/** `[try] { … }`: statements run as one step with an outcome of their own. */
export interface BlockStep extends StepBase {
  readonly kind: 'block';
  readonly inner: BodyId;
  readonly tolerant: boolean;
}

export type Step =
  | CallStep
  | PipeStep
  | SkipStep
  | WaitStep
  | DrainStep
  | CancelStep
  | AbortStep
  | FailStep
  | LogStep
  | CaptureStep
  | ForStep
  | RepeatStep
  | IfStep
  | BlockStep;

// ---------------------------------------------------------------------------------------------
// Expressions

interface ExprBase {
  readonly at: Span;
}

export type BinaryOperator = 'or' | 'and' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | '+' | '-';

export type Expr = ExprBase &
  (
    | { readonly kind: 'literal'; readonly value: Constant }
    | { readonly kind: 'list'; readonly items: readonly (Expr | SpreadExpr)[] }
    | { readonly kind: 'object'; readonly entries: readonly (ObjectEntry | SpreadExpr)[] }
    | { readonly kind: 'it' }
    /** The value of a ref: its one value, or the first value of a stream. */
    | { readonly kind: 'ref'; readonly ref: RefId }
    | { readonly kind: 'attr'; readonly base: Expr; readonly name: string }
    | { readonly kind: 'index'; readonly base: Expr; readonly index: Expr }
    | { readonly kind: 'builtin'; readonly name: string; readonly args: readonly Expr[] }
    | { readonly kind: 'not'; readonly operand: Expr }
    | { readonly kind: 'binary'; readonly op: BinaryOperator; readonly left: Expr; readonly right: Expr }
    /** `Type{…}` or `expr as Type`: the value validated into the type. */
    | { readonly kind: 'typed'; readonly type: TypeRef; readonly value: Expr }
  );

export interface SpreadExpr {
  readonly kind: 'spread';
  readonly value: Expr;
  readonly at: Span;
}

export interface ObjectEntry {
  readonly kind: 'entry';
  readonly key: string;
  readonly value: Expr;
  readonly at: Span;
}

/** A type as a cast names it. */
export interface TypeRef {
  /** As written: `list[a11.NodeFragment]`. */
  readonly declared: string;
  /** What it resolved to: a built-in name, a struct, a registry tag or a mimetype. */
  readonly name: string;
  /** The struct of this file it names, if any. */
  readonly struct: string | null;
  readonly parameters: readonly TypeRef[];
}

// ---------------------------------------------------------------------------------------------
// The described form (flow.plan/v1)

/** One step as `flow.plan/v1` describes it; `plan.ts` writes these as JSON. */
export interface DescribedStep {
  /** `run call pipe skip wait drain cancel abort fail log logf for repeat if capture let advance block`. */
  readonly kind: string;
  readonly label: string;
  readonly after: readonly string[];
  readonly action: string;
  readonly mode: string;
  readonly nodeMap: string;
  /** Seconds. */
  readonly timeout: number | null;
  readonly tolerant: boolean;
  readonly tee: boolean;
  /** What it reads and writes, as a reader would say them. */
  readonly source: string;
  readonly destination: string;
  /** Nested bodies: one for a loop or block, two (then, else) for an `if`. */
  readonly bodies: readonly (readonly DescribedStep[])[];
  /** Where the statement that made it was written. */
  readonly at: Span;
}

// ---------------------------------------------------------------------------------------------
// Questions the runtime asks of a program: in `program-queries.ts`, re-exported here.

export * from './program-queries.js';
