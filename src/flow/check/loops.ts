/**
 * Loops and branches: `for`, `repeat`, the `<-` a repeat carries, the `until`/`while` that ends
 * either loop, and `if`. Their bodies are "guarded": what is inside runs because of something.
 */

import type { Carry, ForEach, If, Repeat, Until } from '../syntax/ast.js';
import { exprRefs } from '../program.js';
import { resolveAfter } from './barriers.js';
import { FlowContext, type LoopState, newSymbol, Scope } from './context.js';
import { describe, type DescribedDraft } from './described.js';
import { resolveExpression } from './expressions.js';
import { NO_REF } from './graph.js';
import { resolveStatements, setInner } from './statements.js';
import { atStage, derive, requireConstant, resolvePipeline } from './streams.js';

function newLoop(label: string, step: number, carriesAValue: boolean, parallel: number): LoopState {
  return { label, step, carries: null, carried: false, stopped: false, carriesAValue, parallel };
}

function defineIndex(ctx: FlowContext, scope: Scope, at: ForEach['at'], ref: number): void {
  ctx.define(scope, newSymbol('loop-variable', 'index', at, { implicit: true, ref }));
}

export function checkFor(ctx: FlowContext, loop: ForEach, scope: Scope, steps: DescribedDraft[]): void {
  const source = resolvePipeline(ctx, loop.pipeline, scope);
  const label = ctx.label('for');
  const made = ctx.graph.addStep({
    kind: 'for', label, body: ctx.body, after: [], at: loop.at, source: source.ref, inner: -1, item: NO_REF, index: NO_REF,
    parallel: loop.parallel, condition: null, stopWhen: true,
  });
  const inner = ctx.graph.addBody(`${label}.body`, ctx.body, made);
  setInner(ctx, made, inner);
  const item = ctx.graph.addRef({ kind: 'bound', role: 'item', step: made, label: 'item', owner: inner, writable: false, at: loop.at });
  const index = ctx.graph.addRef({ kind: 'bound', role: 'index', step: made, label: 'index', owner: inner, writable: false, at: loop.at });
  const step = ctx.graph.step(made)!;
  if (step.kind === 'for') Object.assign(step, { item, index });
  const body = new Scope(scope, true);
  // One name is the value; several take it apart by position, each a stream over the one bound.
  const outer = ctx.body;
  ctx.body = inner;
  loop.variables.forEach((variable, at) => {
    const ref = loop.variables.length === 1 ? item : derive(ctx, item, atStage(String(at), at, variable.at), variable.text, variable.at);
    ctx.define(body, newSymbol('loop-variable', variable.text, variable.at, { ref }));
  });
  ctx.body = outer;
  defineIndex(ctx, body, loop.at, index);
  ctx.loops.push(newLoop(label, made, false, Math.max(loop.parallel, 1)));
  const described = resolveStatements(ctx, loop.body, body, inner, true);
  ctx.loops.pop();
  // After the loop's own step: the waits an `after` grows must not be what a name binds to.
  const after = resolveAfter(ctx, loop.after, scope, made);
  steps.push(describe('for', label, loop.at, { source: source.label, after, bodies: [described] }));
}

export function checkRepeat(ctx: FlowContext, repeat: Repeat, scope: Scope, steps: DescribedDraft[]): void {
  requireConstant(ctx, repeat.start);
  const label = ctx.label('repeat');
  const start = repeat.start?.kind === 'literal' ? repeat.start.value : repeat.start ? constantOf(repeat.start) : null;
  const made = ctx.graph.addStep({
    kind: 'repeat', label, body: ctx.body, after: [], at: repeat.at, inner: -1, carry: null, carrySource: null,
    start, max: repeat.max, index: NO_REF, condition: null, stopWhen: true,
  });
  const inner = ctx.graph.addBody(`${label}.body`, ctx.body, made);
  setInner(ctx, made, inner);
  const carry = repeat.variable ? ctx.graph.addRef({ kind: 'bound', role: 'carry', step: made, label: 'carry', owner: inner, writable: false, at: repeat.variable.at }) : null;
  const index = ctx.graph.addRef({ kind: 'bound', role: 'index', step: made, label: 'index', owner: inner, writable: false, at: repeat.at });
  const step = ctx.graph.step(made)!;
  if (step.kind === 'repeat') Object.assign(step, { carry, index });
  const body = new Scope(scope, true);
  const state = newLoop(label, made, true, 1);
  if (repeat.variable) {
    ctx.define(body, newSymbol('carry', repeat.variable.text, repeat.variable.at, { ref: carry ?? NO_REF }));
    state.carries = repeat.variable.text;
  }
  defineIndex(ctx, body, repeat.at, index);
  ctx.loops.push(state);
  const described = resolveStatements(ctx, repeat.body, body, inner, true);
  ctx.loops.pop();
  if (!state.stopped && repeat.max === null) {
    ctx.report(
      'flow.form.unbounded-repeat',
      "Nothing ends this 'repeat': it has no 'until', no 'while' and no 'max'. Say when it stops, or bound it with 'max n'.",
      repeat.at,
    );
  }
  const after = resolveAfter(ctx, repeat.after, scope, made);
  steps.push(describe('repeat', label, repeat.at, { after, bodies: [described] }));
}

import { constantValue } from '../syntax/constant.js';
function constantOf(expression: NonNullable<Repeat['start']>) {
  return constantValue(expression);
}

export function checkCarry(ctx: FlowContext, carry: Carry, scope: Scope, steps: DescribedDraft[]): void {
  const loop = ctx.loops[ctx.loops.length - 1];
  if (!loop || !loop.carriesAValue) {
    ctx.report(
      'flow.barrier.carry-outside-repeat',
      loop
        ? `'<-' hands a value to the next pass of a 'repeat', and the loop here is ${loop.label}, a 'for': each pass takes its value from the stream, so there is nothing to hand on.`
        : "'<-' hands a value to the next pass of a 'repeat', and there is no 'repeat' around it.",
      carry.at,
    );
    resolvePipeline(ctx, carry.pipeline, scope);
    return;
  }
  const name = carry.name.text;
  if (loop.carries === null || loop.carries !== name) {
    ctx.report('flow.barrier.wrong-carry', `This repeat carries ${loop.carries === null ? 'nothing' : `'${loop.carries}'`}, not '${name}'. ${loop.carries === null ? `Declare it: 'repeat ${name} = START …'.` : `Write '${loop.carries} <- …'.`}`, carry.at);
  } else if (loop.carried) {
    ctx.report('flow.barrier.duplicate-carry', `'${name}' is already carried to the next pass; keep one '<-'.`, carry.at);
  }
  loop.carried = true;
  const source = resolvePipeline(ctx, carry.pipeline, scope);
  ctx.graph.addStep({ kind: 'capture', label: 'capture carry', body: ctx.body, after: [], at: carry.at, source: source.ref, slot: 'carry' });
  const owner = ctx.graph.step(loop.step);
  if (owner?.kind === 'repeat') owner.carrySource = source.ref;
  steps.push(describe('capture', `${name} <- ${source.label}`, carry.at, { source: source.label }));
}

export function checkUntil(ctx: FlowContext, until: Until, scope: Scope): void {
  const loop = ctx.loops[ctx.loops.length - 1];
  if (!loop) {
    ctx.report('flow.barrier.until-outside-repeat', `'${until.stopWhen ? 'until' : 'while'}' ends a loop, and there is no 'repeat' or 'for' around it.`, until.at);
  } else if (loop.stopped) {
    ctx.report('flow.barrier.duplicate-until', `${loop.label} already has a stop condition; combine them with 'and' or 'or'.`, until.at);
  } else if (loop.parallel > 1) {
    ctx.report(
      'flow.barrier.until-parallel',
      `${loop.label} runs its passes in parallel, so there is no single pass that just finished for '${until.stopWhen ? 'until' : 'while'}' to ask about. Drop 'parallel', or filter the stream with 'first n' or 'where'.`,
      until.at,
    );
  } else {
    loop.stopped = true;
  }
  const condition = resolveExpression(ctx, until.condition, scope, false);
  const owner = loop ? ctx.graph.step(loop.step) : undefined;
  if (owner && (owner.kind === 'for' || owner.kind === 'repeat')) {
    owner.condition = condition;
    owner.stopWhen = until.stopWhen;
    // Each stream the condition reads is captured inside the pass: it is asked once the pass is over.
    for (const ref of exprRefs(condition)) {
      ctx.graph.addStep({ kind: 'capture', label: 'capture condition', body: ctx.body, after: [], at: until.at, source: ref, slot: `condition:${ref}` });
    }
  }
}

export function checkIf(ctx: FlowContext, branch: If, scope: Scope, steps: DescribedDraft[]): void {
  const condition = resolveExpression(ctx, branch.condition, scope, false) ?? { kind: 'literal' as const, value: { kind: 'null' as const }, at: branch.at };
  const label = ctx.label('if');
  const made = ctx.graph.addStep({ kind: 'if', label, body: ctx.body, after: [], at: branch.at, condition, then: -1, else: -1 });
  const thenBody = ctx.graph.addBody(`${label}.then`, ctx.body, made);
  const elseBody = ctx.graph.addBody(`${label}.else`, ctx.body, made);
  const step = ctx.graph.step(made)!;
  if (step.kind === 'if') Object.assign(step, { then: thenBody, else: elseBody });
  const thenSteps = resolveStatements(ctx, branch.thenBody, new Scope(scope), thenBody, true);
  const elseSteps = resolveStatements(ctx, branch.elseBody, new Scope(scope), elseBody, true);
  steps.push(describe('if', label, branch.at, { bodies: [thenSteps, elseSteps] }));
}
