/**
 * Where a plan step was written, so a click on it in the plan view selects its source. A plan
 * (`flow.plan/v1`) carries no positions, so a step is matched to the typed syntax tree by what
 * it says: an action step by its label (the bound name, or the action of an unbound call), an
 * argument pipe (`x -> step.port`) by its call and port, any other pipe by its target, a skip by
 * what it skips, a control step by its kind in order.
 */
import type { CallExpression, FlowDeclaration, SourceFile, Span, Statement } from '../../flow/syntax/ast';
import type { PlanStepLike } from './graph';

const CONTROL_KIND: Record<string, Statement['kind']> = {
  wait: 'wait',
  drain: 'drain',
  cancel: 'cancel',
  abort: 'abort',
  fail: 'fail',
  log: 'log',
  logf: 'log',
  for: 'for-each',
  repeat: 'repeat',
  if: 'if',
  let: 'let',
  advance: 'advance',
  block: 'block',
};

function statementsOf(flow: FlowDeclaration): Statement[] {
  const all: Statement[] = [];
  const visit = (statements: readonly Statement[]) => {
    for (const statement of statements) {
      all.push(statement);
      const value = statement.kind === 'bind' ? statement.value : statement;
      if (value.kind === 'call' || value.kind === 'node') continue;
      if ('body' in value && Array.isArray(value.body)) visit(value.body as Statement[]);
      if (value.kind === 'if') {
        visit(value.thenBody);
        visit(value.elseBody);
      }
    }
  };
  visit(flow.body);
  return all;
}

function callIn(statement: Statement): { name: string; call: CallExpression } | undefined {
  if (statement.kind === 'bind' && statement.value.kind === 'call') return { name: statement.name.text, call: statement.value };
  if (statement.kind === 'call-statement') return { name: statement.call.action, call: statement.call };
  return undefined;
}

/** Walks a plan's steps in order with their paths (indexes through bodies). */
export function planStepAt(steps: readonly PlanStepLike[], path: readonly number[]): PlanStepLike | undefined {
  let list: readonly PlanStepLike[] | undefined = steps;
  let step: PlanStepLike | undefined;
  for (let depth = 0; depth < path.length; depth += 2) {
    step = list?.[path[depth]!];
    const which = path[depth + 1];
    if (which === undefined) break;
    list = which === 0 ? (step?.body ?? step?.then) : step?.else;
  }
  return step;
}

/** The source span of one plan step of `flowName`, or undefined when it cannot be told. */
export function locateStep(source: string, file: SourceFile, flowName: string, steps: readonly PlanStepLike[], path: readonly number[]): Span | undefined {
  const flow = file.flows.find((candidate) => candidate.name.text === flowName) ?? file.flows.find((candidate) => candidate.entry && !flowName);
  const step = planStepAt(steps, path);
  if (!flow || !step) return undefined;
  const statements = statementsOf(flow);
  const text = (span: Span) => source.slice(span.from, span.to).replace(/\s+/g, ' ').trim();

  if (step.action) {
    const labelled = statements.map(callIn).filter((found) => found && found.name === step.label.replace(/#\d+$/, ''));
    const index = /#(\d+)$/.exec(step.label) ? Number(/#(\d+)$/.exec(step.label)![1]) - 1 : 0;
    const found = labelled[index] ?? labelled[0];
    if (!found) return undefined;
    const statement = statements.find((candidate) => callIn(candidate)?.call === found.call);
    // A bind's own range may start at its value; the selection should take in the name too.
    if (statement?.kind === 'bind') return { from: Math.min(statement.name.at.from, statement.range.from), to: statement.range.to };
    return statement?.range ?? found.call.range;
  }
  if (step.step === 'pipe' && step.to) {
    const [owner, port] = step.to.split('.');
    if (owner && port) {
      for (const statement of statements) {
        const found = callIn(statement);
        const argument = found?.name === owner ? found.call.args.find((candidate) => candidate.port.text === port) : undefined;
        if (argument) return { from: argument.port.at.from, to: argument.pipeline.range.to };
      }
    }
    const pipe = statements.find((statement) => statement.kind === 'pipe' && statement.targets.some((target) => text(target.range) === step.to));
    if (pipe) return pipe.range;
  }
  if (step.step === 'skip') {
    const subject = step.of ?? step.label;
    return statements.find((statement) => statement.kind === 'skip' && text(statement.range).includes(subject.split('.').pop() ?? subject))?.range;
  }
  const kind = CONTROL_KIND[step.step];
  if (kind) {
    // The n-th step of this kind in the plan is the n-th statement of this kind in the source.
    const ofKind: PlanStepLike[] = [];
    const collect = (list: readonly PlanStepLike[]) => {
      for (const item of list) {
        if (item.step === step.step) ofKind.push(item);
        collect(item.body ?? []);
        collect(item.then ?? []);
        collect(item.else ?? []);
      }
    };
    collect(steps);
    const index = ofKind.indexOf(step);
    const matching = statements
      .map((statement) => (statement.kind === 'bind' && statement.value.kind !== 'call' && statement.value.kind !== 'node' ? statement.value : statement))
      .filter((statement) => statement.kind === kind && (step.step !== 'logf' || (statement.kind === 'log' && statement.formatted)));
    return matching[index]?.range;
  }
  return undefined;
}
