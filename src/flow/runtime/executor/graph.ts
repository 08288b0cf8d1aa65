/**
 * The questions the executor asks of a flow's graph: which refs a step reads as streams, which it
 * reads one value of, which it writes, which bodies sit inside which. One place, so the analysis
 * that counts readers and writers and the scopes that take them cannot disagree.
 */
import { exprRefs, upstreamsOf, type BodyId, type Expr, type FlowProgram, type RefId, type Step, type StepId } from '../../program.js';

/** The refs a step reads as streams: one entry per independent read. */
export function stepSources(step: Step): RefId[] {
  switch (step.kind) {
    case 'pipe':
    case 'capture':
    case 'for':
      return [step.source];
    case 'skip':
      // A counted skip takes its values where the stream is produced; it reads nothing itself.
      return step.count === null && step.source !== null ? [step.source] : [];
    case 'wait':
      if (step.subjects.length > 0) return [...step.subjects];
      return step.outcome === null ? [] : [step.outcome];
    case 'drain':
      return step.outcome === null ? [] : [step.outcome];
    default:
      return [];
  }
}

/** The expressions a step evaluates (its headers, id, code, message, condition, log arguments). */
export function stepExpressions(step: Step): Expr[] {
  const found: Expr[] = [];
  switch (step.kind) {
    case 'call':
      for (const header of step.headers) found.push(header.value);
      if (step.actionId) found.push(step.actionId);
      break;
    case 'fail':
    case 'abort':
      if (step.code?.kind === 'expr') found.push(step.code.expr);
      if (step.message) found.push(step.message);
      break;
    case 'if':
      found.push(step.condition);
      break;
    case 'log':
      found.push(...step.log.arguments);
      break;
    default:
      break;
  }
  return found;
}

/** The refs a step reads one value of. */
export function stepValueSources(step: Step): RefId[] {
  const found: RefId[] = [];
  for (const expr of stepExpressions(step)) exprRefs(expr, found);
  return found;
}

/** The refs a step writes: a pipe's destination. */
export function stepDestinations(step: Step): RefId[] {
  return step.kind === 'pipe' ? [step.destination] : [];
}

/** The refs a ref reads as streams to produce itself. */
export function refUpstreams(flow: FlowProgram, ref: RefId): RefId[] {
  return upstreamsOf(flow.refs[ref]!);
}

/** The refs a ref reads one value of to produce itself (a node's attach expression aside). */
export function refValueRefs(flow: FlowProgram, ref: RefId): RefId[] {
  const one = flow.refs[ref]!;
  switch (one.kind) {
    case 'expr':
      return exprRefs(one.expr);
    case 'derived': {
      const stage = one.stage;
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
 * The refs the stages a step reads write to: `try … into failures`, however deep in the chain of
 * derivations the stage sits.
 */
export function stageDestinations(flow: FlowProgram, step: Step): RefId[] {
  const found: RefId[] = [];
  const pending = [...stepSources(step), ...stepValueSources(step)];
  const seen = new Set<RefId>();
  while (pending.length) {
    const ref = pending.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const one = flow.refs[ref];
    if (!one) continue;
    if (one.kind === 'derived' && one.stage.failures !== null) found.push(one.stage.failures);
    pending.push(...refUpstreams(flow, ref), ...refValueRefs(flow, ref));
  }
  return found;
}

/** Written refs a barrier watches without writing: `wait n`/`drain n` on a node this flow writes. */
export function observedRefs(flow: FlowProgram, step: Step): RefId[] {
  if (step.kind !== 'wait' && step.kind !== 'drain') return [];
  if (step.outcome === null) return [];
  const outcome = flow.refs[step.outcome];
  return outcome?.kind === 'status' && outcome.subjectRef !== null ? [outcome.subjectRef] : [];
}

/** The bodies a step runs, in reading order (an `if` has two). */
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

/** Every body inside `body`, at any depth. */
export function nestedBodies(flow: FlowProgram, body: BodyId): BodyId[] {
  const found: BodyId[] = [];
  for (const step of flow.bodies[body]!.steps) {
    for (const inner of innerBodies(flow.steps[step]!)) {
      found.push(inner, ...nestedBodies(flow, inner));
    }
  }
  return found;
}

export function stepOf(flow: FlowProgram, step: StepId): Step {
  return flow.steps[step]!;
}
