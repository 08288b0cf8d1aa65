/**
 * Who reads and who writes each stream a body owns.
 *
 * The counts are the load-bearing part: a stream gets exactly as many reader slots as the plan
 * says, and a written node closes exactly when the last of its writers finishes — a loop or a
 * branch counting as one writer for as long as it runs. A count that is wrong is a flow that
 * hangs, not one that is slightly off, so the rules live here and nowhere else:
 *
 * - every stream read by a step of the body is one slot;
 * - every stream a produced ref of the body derives from is one slot;
 * - every value read of a ref — by any number of expressions of the body — shares one slot (one
 *   cursor over the stream, so two reads are two values);
 * - a ref read from inside a nested body is read once, into a buffer every pass replays, so it
 *   has one slot whatever reads it.
 */
import type { BodyId, FlowProgram, RefId, StepId } from '../../program.js';
import {
  exprRefs,
  innerBodies,
  nestedBodies,
  stageDestinations,
  stepDestinations,
  stepObserved,
  stepSources,
  stepValueSources,
  upstreamsOf,
  valueRefsOf,
} from '../../program.js';

export interface BodyAnalysis {
  readonly body: BodyId;
  /** Every ref the body owns that something reads, in id order. */
  readonly refs: readonly RefId[];
  readonly readers: ReadonlyMap<RefId, number>;
  /** Read from inside a nested body: buffered once here and replayed. */
  readonly materialise: ReadonlySet<RefId>;
  readonly writers: ReadonlyMap<RefId, number>;
  /** Every ref the body writes (or watches, for a barrier that ends it). */
  readonly destinations: readonly RefId[];
  /** The destinations each step holds open until it finishes. */
  readonly held: ReadonlyMap<StepId, readonly RefId[]>;
  /** Nodes of the body's own (`node()`) that something reads and nothing writes: ended at start. */
  readonly unwritten: readonly RefId[];
}

/** Every ref the bodies read, following derivations to their sources. */
function refsUsedIn(flow: FlowProgram, bodies: readonly BodyId[]): Set<RefId> {
  const found = new Set<RefId>();
  const walk = (ref: RefId) => {
    if (found.has(ref)) return;
    found.add(ref);
    for (const up of upstreamsOf(flow.refs[ref]!)) walk(up);
    for (const value of valueRefsOf(flow.refs[ref]!)) walk(value);
  };
  for (const body of bodies) {
    for (const stepId of flow.bodies[body]!.steps) {
      const step = flow.steps[stepId]!;
      for (const ref of stepSources(step)) walk(ref);
      for (const ref of stepValueSources(step)) walk(ref);
    }
  }
  return found;
}

/** The nodes of its own that a body names, wherever it names them. */
function nodesIn(flow: FlowProgram, body: BodyId): RefId[] {
  const found: RefId[] = [];
  const visited = new Set<RefId>();
  const walk = (ref: RefId | null) => {
    if (ref === null || visited.has(ref)) return;
    visited.add(ref);
    const one = flow.refs[ref]!;
    if (one.kind === 'node' && one.owner === body) found.push(ref);
    if (one.kind === 'node-id') walk(one.node);
    if (one.kind === 'status') walk(one.subjectRef);
    for (const up of upstreamsOf(flow.refs[ref]!)) walk(up);
    for (const value of valueRefsOf(flow.refs[ref]!)) walk(value);
  };
  for (const stepId of flow.bodies[body]!.steps) {
    const step = flow.steps[stepId]!;
    for (const ref of [...stepSources(step), ...stepValueSources(step), ...stepDestinations(step), ...stepObserved(flow, step)]) {
      walk(ref);
    }
  }
  return found;
}

/** The refs the given bodies write, each once: pipes' destinations and stages' `into`. */
function writtenIn(flow: FlowProgram, bodies: readonly BodyId[]): RefId[] {
  const found = new Set<RefId>();
  for (const body of bodies) {
    for (const stepId of flow.bodies[body]!.steps) {
      const step = flow.steps[stepId]!;
      for (const ref of stepDestinations(step)) found.add(ref);
      for (const ref of stageDestinations(flow, step)) found.add(ref);
    }
  }
  return [...found];
}

export function analyseBody(flow: FlowProgram, body: BodyId): BodyAnalysis {
  const nested = refsUsedIn(flow, nestedBodies(flow, body));
  const owns = (ref: RefId) => flow.refs[ref]!.owner === body;

  const local = new Map<RefId, number>();
  const owned = new Set<RefId>();
  const note = (ref: RefId) => {
    if (!owns(ref)) return;
    owned.add(ref);
    local.set(ref, (local.get(ref) ?? 0) + 1);
  };
  const valued = new Set<RefId>();
  const valueRead = (ref: RefId) => {
    if (!owns(ref)) return;
    owned.add(ref);
    if (valued.has(ref)) return;
    valued.add(ref);
    note(ref);
  };

  for (const stepId of flow.bodies[body]!.steps) {
    const step = flow.steps[stepId]!;
    for (const ref of stepSources(step)) note(ref);
    for (const ref of stepValueSources(step)) valueRead(ref);
  }

  const nodes = nodesIn(flow, body);
  for (const node of nodes) {
    const one = flow.refs[node]!;
    if (one.kind === 'node' && one.attach) for (const ref of exprRefs(one.attach)) valueRead(ref);
  }
  for (const ref of nested) if (owns(ref)) owned.add(ref);

  // A produced ref reads its own upstreams. Refs are built from refs made before them, so taking
  // the highest id still to do settles the whole chain, including refs only another reaches.
  const settled = new Set<RefId>();
  for (;;) {
    let next = -1;
    for (const ref of owned) if (!settled.has(ref) && ref > next) next = ref;
    if (next < 0) break;
    settled.add(next);
    if ((local.get(next) ?? 0) === 0 && !nested.has(next)) continue;
    for (const up of upstreamsOf(flow.refs[next]!)) note(up);
    for (const value of valueRefsOf(flow.refs[next]!)) valueRead(value);
  }

  const refs = [...owned].sort((a, b) => a - b);
  const readers = new Map<RefId, number>();
  const materialise = new Set<RefId>();
  for (const ref of refs) {
    if (nested.has(ref)) {
      materialise.add(ref);
      readers.set(ref, 1);
    } else {
      readers.set(ref, local.get(ref) ?? 0);
    }
  }

  const writers = new Map<RefId, number>();
  const destinations: RefId[] = [];
  const isDestination = new Set<RefId>();
  const countWriter = (ref: RefId) => {
    if (!owns(ref)) return;
    if (!isDestination.has(ref)) {
      isDestination.add(ref);
      destinations.push(ref);
    }
    writers.set(ref, (writers.get(ref) ?? 0) + 1);
  };
  const held = new Map<StepId, RefId[]>();
  for (const stepId of flow.bodies[body]!.steps) {
    const step = flow.steps[stepId]!;
    const holds: RefId[] = [];
    for (const ref of [...stepDestinations(step), ...stageDestinations(flow, step)]) {
      if (owns(ref)) holds.push(ref);
      countWriter(ref);
    }
    for (const ref of stepObserved(flow, step)) {
      if (owns(ref) && flow.refs[ref]!.writable && !isDestination.has(ref)) {
        isDestination.add(ref);
        destinations.push(ref);
      }
    }
    const inner = innerBodies(step);
    if (inner.length) {
      const deep = inner.flatMap((one) => [one, ...nestedBodies(flow, one)]);
      // A loop or a branch writing an outer ref counts as one writer of it while it runs.
      for (const ref of writtenIn(flow, deep)) {
        if (!owns(ref)) continue;
        holds.push(ref);
        countWriter(ref);
      }
    }
    held.set(stepId, holds);
  }

  const unwritten = nodes.filter((ref) => {
    const one = flow.refs[ref]!;
    return one.kind === 'node' && !one.attach && (readers.get(ref) ?? 0) > 0 && !isDestination.has(ref);
  });

  return { body, refs, readers, materialise, writers, destinations, held, unwritten };
}
