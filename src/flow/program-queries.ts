/**
 * The questions the runtime asks of a checked program — which flow a name means, which refs an
 * expression, a ref or a step reads and writes, which bodies a step runs — answered once here
 * rather than by each consumer, so the executor's reader and writer counts (`executor/analysis.ts`)
 * and the scopes that take them cannot disagree. Re-exported from `program.ts`.
 */

import type { BodyId, Expr, FlowProgram, ObjectEntry, Program, Ref, RefId, SpreadExpr, Step } from './program.js';

/** The flow of this name (never the entry flow, which nothing can name). */
export function findFlow(program: Program, name: string): FlowProgram | undefined {
  return name === '' ? undefined : program.flows.find((flow) => !flow.entry && flow.name === name);
}

/** The file's entry flow, if it declares one. */
export function entryFlow(program: Program): FlowProgram | undefined {
  return program.flows.find((flow) => flow.entry);
}

/** Every ref an expression reads the value of, in the order first mentioned. */
export function exprRefs(expr: Expr | null | undefined, into: RefId[] = []): RefId[] {
  if (!expr) return into;
  const pending: (Expr | SpreadExpr | ObjectEntry)[] = [expr];
  while (pending.length) {
    const node = pending.pop()!;
    switch (node.kind) {
      case 'ref':
        if (!into.includes(node.ref)) into.push(node.ref);
        break;
      case 'list':
        pending.push(...[...node.items].reverse());
        break;
      case 'object':
        pending.push(...[...node.entries].reverse());
        break;
      case 'spread':
      case 'entry':
        pending.push(node.value);
        break;
      case 'attr':
        pending.push(node.base);
        break;
      case 'index':
        pending.push(node.index, node.base);
        break;
      case 'builtin':
        pending.push(...[...node.args].reverse());
        break;
      case 'not':
        pending.push(node.operand);
        break;
      case 'binary':
        pending.push(node.right, node.left);
        break;
      case 'typed':
        pending.push(node.value);
        break;
      default:
        break;
    }
  }
  return into;
}

/** The refs a ref reads as streams to produce its own values. */
export function upstreamsOf(ref: Ref): RefId[] {
  switch (ref.kind) {
    case 'derived': {
      const found = [ref.source];
      if (ref.stage.takes === 'stream') found.push(ref.stage.stream);
      return found;
    }
    case 'zip':
    case 'merge':
      return [...ref.sources];
    default:
      return [];
  }
}

/**
 * The refs a ref reads one value of (through the expressions it evaluates). A node's `attach`
 * expression is left out: it is evaluated once, when the body that owns the node starts, so the
 * executor reads it there rather than as a value the node keeps reading.
 */
export function valueRefsOf(ref: Ref): RefId[] {
  switch (ref.kind) {
    case 'expr':
      return exprRefs(ref.expr);
    case 'derived': {
      const stage = ref.stage;
      const found: RefId[] = [];
      if ('expr' in stage) exprRefs(stage.expr, found);
      if (stage.takes === 'sort-key') exprRefs(stage.by, found);
      if (stage.takes === 'log' || stage.takes === 'logf') for (const argument of stage.log.arguments) exprRefs(argument, found);
      return stage.takes === 'fold' ? found.filter((id) => id !== stage.carry) : found;
    }
    default:
      return [];
  }
}

/**
 * The refs a step reads as streams, one entry per independent read (each is a reader of what
 * produces it). A counted `skip` reads nothing: its values are taken where the stream is made.
 */
export function stepSources(step: Step): RefId[] {
  switch (step.kind) {
    case 'pipe':
    case 'capture':
    case 'for':
      return [step.source];
    case 'skip':
      return step.count === null && step.source !== null ? [step.source] : [];
    case 'wait':
      if (step.subjects.length) return [...step.subjects];
      return step.outcome === null ? [] : [step.outcome];
    case 'drain':
      return step.outcome === null ? [] : [step.outcome];
    default:
      return [];
  }
}

/**
 * The refs a step reads one value of, through the expressions it evaluates: a call's headers and
 * id, a failure's code and message, an `if`'s condition, a log's arguments. A loop's `until` or
 * `while` condition is not among them: each pass evaluates it against what that pass captured.
 */
export function stepValueSources(step: Step): RefId[] {
  const found: RefId[] = [];
  switch (step.kind) {
    case 'call':
      for (const header of step.headers) exprRefs(header.value, found);
      exprRefs(step.actionId, found);
      break;
    case 'fail':
    case 'abort':
      if (step.code?.kind === 'expr') exprRefs(step.code.expr, found);
      exprRefs(step.message, found);
      break;
    case 'if':
      exprRefs(step.condition, found);
      break;
    case 'log':
      for (const argument of step.log.arguments) exprRefs(argument, found);
      break;
    default:
      break;
  }
  return found;
}

/** The refs a step writes (a pipe's destination); stages' `into` refs are `stageDestinations`. */
export function stepDestinations(step: Step): RefId[] {
  return step.kind === 'pipe' ? [step.destination] : [];
}

/**
 * The refs the stages a step reads write to (`try … into failures`), however deep in the chain
 * of derivations: a stage belongs to a stream rather than a statement, so its destination is
 * reached through what the step reads. Counted as writers beside `stepDestinations`, released
 * with the step.
 */
export function stageDestinations(flow: FlowProgram, step: Step): RefId[] {
  const found: RefId[] = [];
  const pending = [...stepSources(step), ...stepValueSources(step)];
  const seen = new Set<RefId>();
  while (pending.length) {
    const id = pending.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const ref = flow.refs[id];
    if (!ref) continue;
    if (ref.kind === 'derived' && ref.stage.failures !== null) found.push(ref.stage.failures);
    pending.push(...upstreamsOf(ref), ...valueRefsOf(ref));
  }
  return found;
}

/** A node a `wait`/`drain` watches without writing: it still has to be ended, and this says when. */
export function stepObserved(flow: FlowProgram, step: Step): RefId[] {
  if ((step.kind !== 'wait' && step.kind !== 'drain') || step.outcome === null) return [];
  const outcome = flow.refs[step.outcome];
  return outcome?.kind === 'status' && outcome.subjectRef !== null ? [outcome.subjectRef] : [];
}

/** The bodies a step runs, in reading order: a loop's or block's one, an `if`'s two. */
export function innerBodies(step: Step): BodyId[] {
  switch (step.kind) {
    case 'for':
    case 'repeat':
    case 'block':
      return [step.inner];
    case 'if':
      return [step.then, step.else];
    default:
      return [];
  }
}

/** Every body inside `body`, at any depth, depth first in reading order. */
export function nestedBodies(flow: FlowProgram, body: BodyId): BodyId[] {
  const found: BodyId[] = [];
  for (const step of flow.bodies[body]!.steps) {
    for (const inner of innerBodies(flow.steps[step]!)) found.push(inner, ...nestedBodies(flow, inner));
  }
  return found;
}
