/**
 * The state of checking one flow: its names and scopes, the loops around the statement in hand,
 * the graph being built, and where problems go. Every part of the checker (statements,
 * pipelines, expressions, calls, loops) works on one of these.
 */

import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { ProblemFix } from '../diagnostics/diagnostic.js';
import type { SourceText } from '../diagnostics/source-text.js';
import type { BodyId, DescribedStep, PortDeclaration, RefId, Span, StepId, StructShape } from '../program.js';
import type { CatalogueAction } from './catalogue.js';
import { GraphBuilder, NO_REF, NO_STEP } from './graph.js';
import { replaceWith, type Reporter } from './report.js';
import { nearest } from './suggest.js';

export type SymbolKind =
  | 'input-port'
  | 'output-port'
  | 'header'
  | 'call'
  | 'node'
  | 'node-map'
  | 'barrier'
  | 'loop-variable'
  | 'carry'
  | 'value';

/** What a sibling flow or a catalogue action declares: what a call to it is checked against. */
export interface CallTarget {
  /** What a message calls it: the action or flow name. */
  readonly name: string;
  readonly sibling: boolean;
  readonly ports: readonly { readonly name: string; readonly direction: 'inputs' | 'outputs'; readonly unary: boolean }[];
  /** For a catalogue action: whether a local handler exists (`run` needs one). */
  readonly runnable?: boolean;
}

/** One name a flow bound, what it is, and how it was used. */
export interface FlowSymbol {
  kind: SymbolKind;
  name: string;
  at: Span;
  /** Bound by the language (`index`), so nothing is said when it goes unread. */
  implicit: boolean;
  readable: boolean;
  writable: boolean;
  /** For a call: the action, whether it was `try`, and what it is checked against. */
  action: string;
  tolerant: boolean;
  target: CallTarget | null;
  reads: number;
  writes: number;
  /** For a call or barrier: how often something read its status. */
  statusReads: number;
  /** The ref this name reads and writes. */
  ref: RefId;
  /** The step this name is (a call, a bound barrier). */
  step: StepId;
  /** For a `let` value: the stream it is a value of, and which value. */
  valueSource: RefId;
  valueOffset: number;
  /** The literal `match` pattern a `let` value came out of (its fields are known). */
  pattern: string;
  /** One part of a destructured `let`, which has no next value of its own. */
  valuePart: boolean;
}

export function newSymbol(kind: SymbolKind, name: string, at: Span, extra: Partial<FlowSymbol> = {}): FlowSymbol {
  return {
    kind,
    name,
    at,
    implicit: false,
    readable: true,
    writable: false,
    action: '',
    tolerant: false,
    target: null,
    reads: 0,
    writes: 0,
    statusReads: 0,
    ref: NO_REF,
    step: NO_STEP,
    valueSource: NO_REF,
    valueOffset: 0,
    pattern: '',
    valuePart: false,
    ...extra,
  };
}

/** One lexical scope, chained to its parent. */
export class Scope {
  readonly names = new Map<string, number>();
  constructor(
    readonly parent: Scope | null = null,
    /** The body of a `for` or `repeat`: what `advance` has to know it crossed. */
    readonly loopBody = false,
  ) {}
}

/** A loop whose body is being checked: what `until`, `while` and `<-` look for. */
export interface LoopState {
  label: string;
  step: StepId;
  carries: string | null;
  carried: boolean;
  stopped: boolean;
  /** False for a `for`, which takes its value from its stream and carries nothing. */
  carriesAValue: boolean;
  parallel: number;
}

/** What a reference resolved to: enough to say whether it can be read, written, or skipped. */
export interface Resolved {
  kind: 'unknown' | 'port' | 'call-port' | 'node' | 'node-id' | 'status' | 'value' | 'derived';
  label: string;
  writable: boolean;
  /** Whether `skip N` may take values off it: only a port or node has a front to take them off. */
  hasFront: boolean;
  ref: RefId;
  /** For a status: whether a bad one is the flow's to handle (the subject was a `try`). */
  tolerant: boolean;
  /** The struct its values are, where the flow said so (for `| json` on bytes). */
  shape: string;
}

export function unresolved(label: string): Resolved {
  return { kind: 'unknown', label, writable: false, hasFront: false, ref: NO_REF, tolerant: false, shape: '' };
}

export interface ProgramKnowledge {
  readonly structs: readonly StructShape[];
  readonly structNames: ReadonlySet<string>;
  /** Sibling flows by name (never the entry flow). */
  readonly flows: ReadonlyMap<string, CallTarget>;
  /** Actions a catalogue says exist, when one was given. */
  readonly catalogue: ReadonlyMap<string, CatalogueAction> | null;
}

export class FlowContext {
  readonly graph = new GraphBuilder();
  readonly symbols: FlowSymbol[] = [];
  private readonly labels = new Map<string, number>();
  /** How many `if`, `for` or `repeat` bodies enclose the statement in hand. */
  guarded = 0;
  readonly loops: LoopState[] = [];
  /** The node map an enclosing `nodes` block places calls and nodes in. */
  nodeMap = '';
  /** Whether a statement is being checked on behalf of a name (`x = …`). */
  binding = 0;
  /** The `match` pattern `it` comes out of in the stage being checked. */
  itPattern = '';
  /** The body refs and steps are being added to. */
  body: BodyId = 0;
  /** The graph steps the last `after` resolved to. */
  afterWaits: StepId[] = [];
  /** The described steps the statement in hand appends to (a race read as a value adds one). */
  pending: DescribedStep[] | null = null;
  readonly nodeMaps: string[] = [];

  /** The flow's declared ports, for the struct a port carries. */
  ports: readonly PortDeclaration[] = [];
  private readonly stepStatus = new Map<StepId, RefId>();
  private readonly stepWinner = new Map<StepId, RefId>();

  constructor(
    readonly flowName: string,
    readonly known: ProgramKnowledge,
    readonly source: SourceText,
    private readonly reporter: Reporter,
  ) {}

  portNamed(name: string, direction: 'inputs' | 'outputs'): PortDeclaration | undefined {
    return this.ports.find((port) => port.name === name && port.direction === direction);
  }

  /** A step's outcome as one ref, the same one however often it is asked for (`x.status`). */
  statusOfStep(step: StepId, at: Span): RefId {
    if (step === NO_STEP) return NO_REF;
    const known = this.stepStatus.get(step);
    if (known !== undefined) return known;
    const made = this.freshStatusOfStep(step, at);
    this.stepStatus.set(step, made);
    return made;
  }

  /** A step's outcome as a new ref for this mention (`wait x`, `status x`). */
  freshStatusOfStep(step: StepId, at: Span): RefId {
    const subject = this.graph.step(step);
    if (!subject) return NO_REF;
    return this.graph.addRef({ kind: 'status', subjectStep: step, subjectRef: null, label: `status ${subject.label}`, owner: subject.body, writable: false, at });
  }

  /** How a node's or a port's stream ended, as a status. */
  statusOfRef(ref: RefId, label: string, at: Span): RefId {
    const subject = this.graph.ref(ref);
    if (!subject) return NO_REF;
    return this.graph.addRef({ kind: 'status', subjectStep: null, subjectRef: ref, label: `status ${label}`, owner: subject.owner, writable: false, at });
  }

  /** Which subject of a race won, one ref per race. */
  winnerOf(step: StepId): RefId {
    if (step === NO_STEP) return NO_REF;
    const known = this.stepWinner.get(step);
    if (known !== undefined) return known;
    const race = this.graph.step(step)!;
    const made = this.graph.addRef({ kind: 'winner', step, label: `winner of ${race.label}`, owner: race.body, writable: false, at: race.at });
    this.stepWinner.set(step, made);
    if (race.kind === 'wait') race.winner = made;
    return made;
  }

  report(code: DiagnosticCode, message: string, at: Span, fixes?: ProblemFix[]): void {
    this.reporter(code, message, at, this.flowName, fixes);
  }

  /** The fix replacing `at` with `suggestion`, when `at` is exactly `word` as written. */
  fixFor(at: Span, word: string, suggestion: string | null): ProblemFix[] | undefined {
    if (!suggestion || this.source.text.slice(at.from, at.to) !== word) return undefined;
    return replaceWith(at, suggestion, word);
  }

  define(scope: Scope, symbol: FlowSymbol): number {
    this.symbols.push(symbol);
    const index = this.symbols.length - 1;
    scope.names.set(symbol.name, index);
    return index;
  }

  lookup(scope: Scope, name: string): number {
    for (let at: Scope | null = scope; at; at = at.parent) {
      const found = at.names.get(name);
      if (found !== undefined) return found;
    }
    return -1;
  }

  find(scope: Scope, name: string): FlowSymbol | undefined {
    const index = this.lookup(scope, name);
    return index < 0 ? undefined : this.symbols[index];
  }

  /** Whether `name` was bound outside the innermost loop body around `scope`. */
  declaredOutsideTheLoop(scope: Scope, name: string): boolean {
    let crossed = false;
    for (let at: Scope | null = scope; at; at = at.parent) {
      if (at.names.has(name)) return crossed;
      if (at.loopBody) crossed = true;
    }
    return false;
  }

  /** Every name in scope, sorted, for a message listing what there was. */
  namesInScope(scope: Scope): string {
    const names = new Set<string>();
    for (let at: Scope | null = scope; at; at = at.parent) for (const name of at.names.keys()) names.add(name);
    return [...names].sort().join(', ');
  }

  /** `for`, then `for#2`…: a label unique within the flow. */
  label(base: string): string {
    const count = (this.labels.get(base) ?? 0) + 1;
    this.labels.set(base, count);
    return count === 1 ? base : `${base}#${count}`;
  }

  unknownName(scope: Scope, name: string, at: Span, what = 'name'): void {
    const known = this.namesInScope(scope);
    const suggestion = nearest(name, known ? known.split(', ') : []);
    this.report(
      'flow.name.unknown',
      `Unknown ${what} '${name}'${suggestion ? `; did you mean '${suggestion}'?` : ''}${known ? ` (known here: ${known})` : ''}. A flow reads top to bottom, so a name must be bound before it is used.`,
      at,
      this.fixFor(at, name, suggestion),
    );
  }

  addNodeMap(name: string): void {
    if (!this.nodeMaps.includes(name)) this.nodeMaps.push(name);
  }
}
