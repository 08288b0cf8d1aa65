/**
 * One running instance of a body: the flow's top level, a branch, a block, or one pass of a loop.
 *
 * A scope sets up what its body's analysis says — a bus per stream something reads (with exactly
 * as many reader slots as readers), a buffer per stream a nested body reads, a destination per
 * ref it writes, a handle per call — then runs every step at once. Order comes from the data,
 * from `after`, and from the barriers; the first failure stops the scope's own monitor, which
 * ends everything its steps were waiting on.
 */
import type { StreamNode } from '../../../wire/node.js';
import { Status, StatusCode, StatusError } from '../../../wire/status.js';
import type { Expr, Ref, RefId, StepId } from '../../program.js';
import { exprRefs } from '../../program.js';
import { evaluate, type EvalContext } from '../evaluate.js';
import { ReplayBuffer } from '../stream/buffer.js';
import { asStatusError, Bus } from '../stream/bus.js';
import { LazyValue } from '../stream/lazy.js';
import { Condition, waitUntil, type Monitor } from '../stream/monitor.js';
import { ListReader, type Maybe, type Reader } from '../stream/reader.js';
import { itemValue, type Item } from '../values/chunks.js';
import { asText } from '../values/convert.js';
import { lookup } from '../values/access.js';
import type { Value } from '../values/value.js';
import type { BodyAnalysis } from './analysis.js';
import { CallHandle } from './call-handle.js';
import { ValueCursor } from './cursor.js';
import { Destination } from './destination.js';
import type { Runner } from './runner.js';

/** The refs each expression reads, worked out once per expression rather than per evaluation. */
const refsOfExpr = new WeakMap<Expr, readonly RefId[]>();

function refsOf(expr: Expr): readonly RefId[] {
  let refs = refsOfExpr.get(expr);
  if (!refs) {
    refs = exprRefs(expr);
    refsOfExpr.set(expr, refs);
  }
  return refs;
}

/** The part of a scope the steps, producers and barriers (in their own files) work with. */
export class Scope {
  readonly monitor: Monitor;
  readonly analysis: BodyAnalysis;
  readonly buses = new Map<RefId, Bus>();
  readonly lazies = new Map<RefId, LazyValue>();
  readonly buffers = new Map<RefId, ReplayBuffer>();
  readonly destinations = new Map<RefId, Destination>();
  readonly calls = new Map<StepId, CallHandle>();
  readonly done = new Set<StepId>();
  readonly stepChanged: Condition;
  /** How a block, a loop or a tolerated pipe went, for a name bound to it. */
  readonly outcomes = new Map<StepId, Status>();
  /** What a pass captured, by slot: a `repeat`'s carry and the streams a condition reads. */
  readonly captures = new Map<string, Value>();
  /** Which subject each race of this body saw finish first. */
  readonly winners = new Map<StepId, number>();
  readonly cursors = new Map<RefId, Promise<ValueCursor>>();
  readonly nodes = new Map<RefId, Promise<StreamNode>>();
  readonly #tasks: Promise<void>[] = [];

  constructor(
    readonly runner: Runner,
    readonly body: number,
    readonly parent: Scope | null,
    readonly presets: ReadonlyMap<RefId, readonly Item[]> = new Map(),
  ) {
    this.monitor = parent ? parent.monitor.child() : runner.monitor.child();
    this.analysis = runner.analysisOf(body);
    this.stepChanged = new Condition(this.monitor);
  }

  get flow() {
    return this.runner.flow;
  }

  ref(id: RefId): Ref {
    return this.flow.refs[id]!;
  }

  // --- Finding things in scope -----------------------------------------------------------------

  /** The scope instance that owns `ref` (its body), searching outwards. */
  ownerOf(ref: RefId): Scope | undefined {
    const owner = this.ref(ref).owner;
    for (let at: Scope | null = this; at; at = at.parent) if (at.body === owner) return at;
    return undefined;
  }

  findDestination(ref: RefId): Destination | undefined {
    for (let at: Scope | null = this; at; at = at.parent) {
      const found = at.destinations.get(ref);
      if (found) return found;
    }
    return undefined;
  }

  destinationOf(ref: RefId): Destination {
    const found = this.findDestination(ref);
    if (!found) throw new StatusError(StatusCode.INTERNAL, `Internal flow error: nothing writes ${this.ref(ref).label}.`);
    return found;
  }

  callOf(step: StepId): CallHandle {
    for (let at: Scope | null = this; at; at = at.parent) {
      const found = at.calls.get(step);
      if (found) return found;
    }
    throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${this.flow.steps[step]!.label} was never started.`);
  }

  /** Waits until `step` (of this body or an enclosing one) has finished. */
  async stepDone(step: StepId): Promise<Scope> {
    for (let at: Scope | null = this; at; at = at.parent) {
      if (this.flow.steps[step]!.body !== at.body) continue;
      const owner = at;
      await waitUntil(owner.stepChanged, () => owner.done.has(step), this.monitor);
      return owner;
    }
    throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${this.flow.steps[step]!.label} is not in scope.`);
  }

  // --- Reading -------------------------------------------------------------------------------

  /** One reader's independent view of a ref's values. */
  subscribe(ref: RefId): Maybe<Reader> {
    const owner = this.ownerOf(ref);
    if (!owner) {
      throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${this.ref(ref).label} is not in scope here.`);
    }
    const preset = owner.presets.get(ref);
    if (preset) return new ListReader(preset);
    const lazy = owner.lazies.get(ref);
    if (lazy) return lazy.replay();
    const buffer = owner.buffers.get(ref);
    if (buffer) return buffer.replay(this.monitor);
    const bus = owner.buses.get(ref);
    if (!bus) {
      throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${this.ref(ref).label} has no reader slot left.`);
    }
    return bus.take(this.monitor);
  }

  /** The value an item holds, with the run's host types. */
  value(item: Item): Value {
    return itemValue(item, this.runner.setup.types);
  }

  /** The next value of a ref for an expression (the one value of a unary one). */
  valueOf(ref: RefId): Maybe<Value> {
    const owner = this.ownerOf(ref) ?? this;
    const preset = owner.presets.get(ref);
    if (preset) return preset.length ? owner.value(preset[0]!) : null;
    let cursor = owner.cursors.get(ref);
    if (!cursor) {
      cursor = (async () => {
        const reader = await owner.subscribe(ref);
        const one = this.ref(ref);
        return new ValueCursor(reader, one.unary, one.label, (item) => owner.value(item));
      })();
      owner.cursors.set(ref, cursor);
    }
    return cursor.then((open) => open.next());
  }

  /** An evaluation context: `it`, and the values the expression's refs have this time. */
  context(it: Value, values?: ReadonlyMap<RefId, Value>): EvalContext {
    return {
      it,
      ref: (ref) => values?.get(ref) ?? null,
      coercion: this.runner.setup.coercion,
      builtins: { types: this.runner.setup.types },
    };
  }

  /** `expr` with `it` bound; one value per ref it reads, read first (however often it names it). */
  evaluate(expr: Expr, it: Value = null, overrides?: ReadonlyMap<RefId, Value>): Maybe<Value> {
    const refs = refsOf(expr);
    if (refs.length === 0) return evaluate(expr, this.context(it));
    const pending = refs.filter((ref) => !overrides?.has(ref));
    if (pending.length === 0) return evaluate(expr, this.context(it, overrides));
    return (async () => {
      const values = new Map<RefId, Value>(overrides);
      for (const ref of pending) values.set(ref, await this.valueOf(ref));
      return evaluate(expr, this.context(it, values));
    })();
  }

  // --- Nodes ---------------------------------------------------------------------------------

  /** The node of a `node()`/`node(id)` ref, made (or attached to) once per owning scope. */
  localNode(ref: RefId): Promise<StreamNode> {
    const owner = this.ownerOf(ref) ?? this;
    let node = owner.nodes.get(ref);
    if (!node) {
      node = owner.#makeLocalNode(ref);
      owner.nodes.set(ref, node);
    }
    return node;
  }

  async #makeLocalNode(ref: RefId): Promise<StreamNode> {
    const one = this.ref(ref);
    if (one.kind !== 'node') throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${one.label} is not a node.`);
    const map = this.runner.nodeMap(one.nodeMap);
    if (!one.attach) return map.get(this.runner.freshNodeId(one.name));
    // `node(x)` attaches to the node `x` names — an id, or a record with an `id` — and writes there.
    const named = await this.evaluate(one.attach);
    const field = lookup(named, 'id');
    const id = asText(field === null ? named : field);
    if (!id) throw new StatusError(StatusCode.INVALID_ARGUMENT, `${one.label} was given no node id to attach to.`);
    return map.get(id);
  }

  // --- Running -------------------------------------------------------------------------------

  /** Starts a task that belongs to this scope's lifetime (a producer, a buffer's fill). */
  spawn(task: Promise<void>): void {
    this.#tasks.push(task);
  }

  get tasks(): readonly Promise<void>[] {
    return this.#tasks;
  }

  /** Marks a step finished and wakes whatever waits for it. */
  markDone(step: StepId): void {
    this.done.add(step);
    this.stepChanged.notify();
  }

  /** Remembers how a nested body (or a tolerated pipe) went, for a name bound to it. */
  record(step: StepId, outcome: Status): void {
    this.outcomes.set(step, outcome);
  }

  /** The first real failure among several: a cancellation is not a reason when there is one. */
  static firstFailure(failures: readonly StatusError[]): StatusError | undefined {
    return failures.find((failure) => failure.code !== StatusCode.CANCELLED) ?? failures[0];
  }

  static failureOf(error: unknown): StatusError {
    return asStatusError(error);
  }

  static cancelled(): Status {
    return new Status(StatusCode.CANCELLED, 'The flow stopped.');
  }
}
