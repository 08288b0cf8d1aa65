/**
 * Statements: each becomes graph steps and described steps, in the order written.
 * Loops and branches are in `loops.ts`; barriers in `barriers.ts`; calls in `calls.ts`.
 */

import type { Bind, Block, Expression, Let, NodeExpression, Pipeline, SkipTarget, Statement, Word } from '../syntax/ast.js';
import type { BodyId, FailCode, Span, StepId } from '../program.js';
import { statusCodeNamed, statusCodes } from '../vocabulary.js';
import { checkDrain, checkReachedByChoice, checkWait, expectCall, resolveAfter } from './barriers.js';
import { resolveCall, callPort } from './calls.js';
import { FlowContext, newSymbol, Scope } from './context.js';
import { describe, type DescribedDraft } from './described.js';
import { removeTry } from './report.js';
import { resolveExpression } from './expressions.js';
import { NO_REF, NO_STEP } from './graph.js';
import { checkCarry, checkFor, checkIf, checkRepeat, checkUntil } from './loops.js';
import { expressionLabel } from './labels.js';
import { nearest } from './suggest.js';
import { atStage, derive, patternOf, resolveDestination, resolveLogTail, resolvePipeline } from './streams.js';

/** A list of statements read into `body` (when given); `guarded` for an `if`/`for`/`repeat` body. */
export function resolveStatements(ctx: FlowContext, statements: readonly Statement[], scope: Scope, body: BodyId | null = null, guarded = false): DescribedDraft[] {
  const outerBody = ctx.body;
  if (body !== null) ctx.body = body;
  if (guarded) ctx.guarded++;
  const steps: DescribedDraft[] = [];
  for (const statement of statements) {
    const outerPending = ctx.pending;
    ctx.pending = steps;
    resolveStatement(ctx, statement, scope, steps);
    ctx.pending = outerPending;
  }
  if (guarded) ctx.guarded--;
  ctx.body = outerBody;
  return steps;
}

export function resolveStatement(ctx: FlowContext, statement: Statement, scope: Scope, steps: DescribedDraft[]): void {
  switch (statement.kind) {
    case 'bind':
      return resolveBind(ctx, statement, scope, steps);
    case 'let':
      return resolveLet(ctx, statement, scope, steps);
    case 'advance':
      return resolveAdvance(ctx, statement.name, statement.at, scope, steps);
    case 'block':
      return resolveBlock(ctx, statement, scope, steps);
    case 'call-statement':
      resolveCall(ctx, statement.call, scope, ctx.label(statement.call.action), steps);
      return;
    case 'pipe': {
      if (statement.tolerant && ctx.binding === 0) {
        ctx.report(
          'flow.unused.try-pipe',
          "'try' lets this pipe fail without ending the flow, and nothing reads how it went: the destination just ends early, and its readers cannot tell. Name it (p = try …) and read 'status p'.",
          statement.at,
          removeTry(ctx.source.text, statement.at),
        );
      }
      const source = resolvePipeline(ctx, statement.pipeline, scope);
      const after = resolveAfter(ctx, statement.after, scope);
      const held = ctx.afterWaits;
      for (const target of statement.targets) {
        const destination = resolveDestination(ctx, target, scope);
        const label = `${source.label} -> ${destination.label}`;
        ctx.graph.addStep({ kind: 'pipe', label, body: ctx.body, after: held, at: statement.at, source: source.ref, destination: destination.ref, tolerant: statement.tolerant });
        steps.push(describe('pipe', label, statement.at, { source: source.label, destination: destination.label, after }));
      }
      return;
    }
    case 'skip': {
      const after = resolveAfter(ctx, statement.after, scope);
      const held = ctx.afterWaits;
      for (const target of statement.targets) resolveSkipTarget(ctx, target, statement.count, scope, after, held, steps);
      return;
    }
    case 'wait':
      checkWait(ctx, statement, scope, steps);
      return;
    case 'drain':
      return checkDrain(ctx, statement.target, statement.after, statement.at, scope, steps);
    case 'cancel': {
      const called = expectCall(ctx, statement.name.text, statement.at, scope);
      const target = called < 0 ? null : ctx.symbols[called]!.step;
      const made = ctx.graph.addStep({ kind: 'cancel', label: `cancel ${statement.name.text}`, body: ctx.body, after: [], at: statement.at, target });
      const after = resolveAfter(ctx, statement.after, scope, made);
      checkReachedByChoice(ctx, 'flow.form.unconditional-cancel', 'cancel', statement.after, statement.at);
      steps.push(describe('cancel', statement.name.text, statement.at, { after }));
      return;
    }
    case 'abort': {
      const target = resolveDestination(ctx, statement.target, scope);
      const code = resolveFailCode(ctx, statement.code, scope);
      const message = resolveExpression(ctx, statement.message, scope, false);
      const label = `abort ${target.label}`;
      const made = ctx.graph.addStep({ kind: 'abort', label, body: ctx.body, after: [], at: statement.at, destination: target.ref, code, message });
      const after = resolveAfter(ctx, statement.after, scope, made);
      checkReachedByChoice(ctx, 'flow.form.unconditional-abort', 'abort', statement.after, statement.at);
      steps.push(describe('abort', label, statement.at, { destination: target.label, after }));
      return;
    }
    case 'fail': {
      const code = resolveFailCode(ctx, statement.code, scope);
      const message = resolveExpression(ctx, statement.message, scope, false);
      const made = ctx.graph.addStep({ kind: 'fail', label: 'fail', body: ctx.body, after: [], at: statement.at, code, message });
      const after = resolveAfter(ctx, statement.after, scope, made);
      checkReachedByChoice(ctx, 'flow.form.unconditional-fail', 'fail', statement.after, statement.at);
      steps.push(describe('fail', statement.code ? expressionLabel(statement.code) : '', statement.at, { after }));
      return;
    }
    case 'log': {
      // Whether a format was written, not which word: a `logf` missing its format reads as a `log`.
      const formatted = statement.log.format !== null;
      const log = resolveLogTail(ctx, statement.log, scope, false, statement.at);
      const kind = formatted ? 'logf' : 'log';
      const made = ctx.graph.addStep({ kind: 'log', label: kind, body: ctx.body, after: [], at: statement.at, log });
      const after = resolveAfter(ctx, statement.after, scope, made);
      checkReachedByChoice(ctx, formatted ? 'flow.form.unconditional-logf' : 'flow.form.unconditional-log', kind, statement.after, statement.at);
      const first = statement.log.arguments[0];
      steps.push(describe(kind, formatted ? statement.log.format! : first ? expressionLabel(first) : '', statement.at, { after }));
      return;
    }
    case 'nodes':
      return resolveNodes(ctx, statement.name, statement.body, scope, steps);
    case 'for-each':
      return checkFor(ctx, statement, scope, steps);
    case 'repeat':
      return checkRepeat(ctx, statement, scope, steps);
    case 'carry':
      return checkCarry(ctx, statement, scope, steps);
    case 'until':
      return checkUntil(ctx, statement, scope);
    case 'if':
      return checkIf(ctx, statement, scope, steps);
    case 'error':
      // The parser has said what it could not read.
      return;
  }
}


/** A `fail`/`abort` code: a canonical code by name, or a value read at run time. */
function resolveFailCode(ctx: FlowContext, code: Expression | null, scope: Scope): FailCode | null {
  if (!code) return null;
  if (code.kind === 'name') {
    const named = statusCodeNamed(code.name);
    if (named) return { kind: 'named', code: named };
    if (ctx.lookup(scope, code.name) < 0) {
      const shouted = code.name === code.name.toUpperCase();
      const near = nearest(code.name.toLowerCase(), statusCodes);
      const suggestion = near && (shouted ? near.toUpperCase() : near);
      ctx.report(
        'flow.form.unknown-status-code',
        `'${code.name}' is not a status code and nothing here is called that${suggestion ? `; did you mean '${suggestion}'?` : '.'} A code is one of ${statusCodes.map((one) => one.toUpperCase()).sort().join(', ')} (either case), a number, or a status the flow read.`,
        code.at,
        ctx.fixFor(code.at, code.name, suggestion),
      );
      return null;
    }
  }
  const expr = resolveExpression(ctx, code, scope, false);
  return expr ? { kind: 'expr', expr } : null;
}

function resolveBind(ctx: FlowContext, bind: Bind, scope: Scope, steps: DescribedDraft[]): void {
  const name = bind.name.text;
  if (ctx.lookup(scope, name) >= 0) {
    ctx.report('flow.name.taken', `'${name}' is already bound in this scope; choose another name.`, bind.at);
  }
  const value = bind.value;
  if (value.kind === 'call') {
    resolveCall(ctx, value, scope, name, steps);
    return;
  }
  if (value.kind === 'node') {
    resolveNode(ctx, value, scope, name, bind.name.at);
    return;
  }
  // A bound barrier, loop, block or `try` pipe: the step it makes is what the name reads as.
  const before = steps.length;
  const graphBefore = ctx.graph.steps.length;
  if (value.kind === 'pipe' && value.targets.length > 1) {
    ctx.report(
      'flow.form.bind-many-targets',
      `This pipe writes ${value.targets.length} destinations, which is ${value.targets.length} steps, so one name cannot stand for it. Write one pipe per destination, or leave it unnamed.`,
      bind.at,
    );
  }
  ctx.binding++;
  resolveStatement(ctx, value, scope, steps);
  ctx.binding--;
  const barrier = newSymbol('barrier', name, bind.name.at);
  const made = ctx.graph.step(graphBefore);
  if (made && graphBefore < ctx.graph.steps.length) {
    barrier.step = graphBefore;
    // A race reads as who won; a wait or drain as the outcome it held for; a block, loop or
    // pipe as its own outcome. Nothing else has one.
    if (made.kind === 'wait') barrier.ref = made.race ? ctx.winnerOf(graphBefore) : (made.outcome ?? NO_REF);
    else if (made.kind === 'drain') barrier.ref = made.outcome ?? NO_REF;
    else if (['block', 'for', 'repeat', 'pipe'].includes(made.kind)) barrier.ref = ctx.statusOfStep(graphBefore, bind.name.at);
    barrier.tolerant = made.kind === 'wait' || made.kind === 'block' || made.kind === 'pipe' ? made.tolerant : false;
    made.label = name;
  }
  ctx.define(scope, barrier);
  const described = steps[before];
  if (described) described.label = name;
}

/** `let a[, b] = pipeline`: one value of a stream, named (several names take it apart). */
function resolveLet(ctx: FlowContext, statement: Let, scope: Scope, steps: DescribedDraft[]): void {
  const taken = new Set<string>();
  for (const name of statement.names) {
    if (ctx.lookup(scope, name.text) >= 0 || taken.has(name.text)) {
      ctx.report('flow.name.taken', `'${name.text}' is already bound in this scope; choose another name.`, statement.at);
    }
    taken.add(name.text);
  }
  const source = resolvePipeline(ctx, statement.pipeline, scope);
  const written = statement.names.map((name) => name.text).join(', ');
  steps.push(describe('let', written, statement.at, { source: source.label, destination: written }));
  const pattern = patternOf(statement.pipeline);
  const firstLabel = `${source.label} | first 1`;
  const value = derive(ctx, source.ref, firstStage(statement.at), firstLabel, statement.at);
  statement.names.forEach((name, at) => {
    if (statement.names.length === 1) {
      ctx.define(scope, newSymbol('value', name.text, name.at, { ref: value, pattern, valueSource: source.ref, valueOffset: 0 }));
      return;
    }
    // By field where the value has one, by position where it is a list: the value decides.
    const part = derive(ctx, value, atStage(name.text, at, name.at, true), `${firstLabel} | ${name.text}`, name.at);
    ctx.define(scope, newSymbol('value', name.text, name.at, { ref: part, valuePart: true }));
  });
}

function firstStage(at: Span) {
  return { name: 'first', takes: 'number' as const, count: 1, tolerant: false, failures: null, parallel: 1, ordered: true, at };
}

/** `advance x`: the same stream's next value, under the same name — an offset fixed at compile time. */
function resolveAdvance(ctx: FlowContext, word: Word, at: Span, scope: Scope, steps: DescribedDraft[]): void {
  const held = ctx.find(scope, word.text);
  if (!held) {
    ctx.unknownName(scope, word.text, at);
    return;
  }
  if (held.kind !== 'value') {
    ctx.report('flow.name.not-advanceable', `'${word.text}' is a ${held.kind.replace('-', ' ')}; only a value a 'let' bound has a next one.`, at);
    return;
  }
  if (ctx.declaredOutsideTheLoop(scope, word.text)) {
    ctx.report(
      'flow.form.advance-in-loop',
      `'${word.text}' was bound outside this loop, and 'advance' moves by a step fixed when the file is compiled, so every pass would see the same value. Walk the stream with 'for x in ${word.text}' instead, and stop early with 'until'.`,
      at,
    );
    return;
  }
  if (held.valuePart) {
    ctx.report('flow.name.not-advanceable', `'${word.text}' was taken apart from another value and has no next value of its own; advance the value it came from.`, at);
    return;
  }
  const from = held.valueSource;
  const offset = held.valueOffset + 1;
  steps.push(describe('advance', held.name, at));
  let ref = NO_REF;
  if (from !== NO_REF) {
    const fromLabel = ctx.graph.ref(from)!.label;
    const dropped = derive(ctx, from, { name: 'drop', takes: 'number', count: offset, tolerant: false, failures: null, parallel: 1, ordered: true, at }, `${fromLabel} | drop ${offset}`, at);
    ref = derive(ctx, dropped, firstStage(at), `${fromLabel} | drop ${offset} | first 1`, at);
  }
  ctx.define(scope, newSymbol('value', held.name, word.at, { ref, valueSource: from, valueOffset: offset }));
}

/** `[try] { … }`: its statements run as one step, with an outcome of its own. */
function resolveBlock(ctx: FlowContext, block: Block, scope: Scope, steps: DescribedDraft[]): void {
  const label = ctx.label('block');
  const made = ctx.graph.addStep({ kind: 'block', label, body: ctx.body, after: [], at: block.at, inner: -1, tolerant: block.tolerant });
  const inner = ctx.graph.addBody(`${label}.body`, ctx.body, made);
  setInner(ctx, made, inner);
  const body = resolveStatements(ctx, block.body, new Scope(scope), inner);
  steps.push(describe('block', label, block.at, { bodies: [body] }));
}

export function setInner(ctx: FlowContext, step: StepId, inner: BodyId): void {
  const made = ctx.graph.step(step);
  if (made && 'inner' in made) made.inner = inner;
}

/** `nodes m [{ … }]`: a private node map, and the statements placed in it (which join this body). */
function resolveNodes(ctx: FlowContext, name: Word, body: readonly Statement[], scope: Scope, steps: DescribedDraft[]): void {
  ctx.addNodeMap(name.text);
  ctx.define(scope, newSymbol('node-map', name.text, name.at, { readable: false }));
  if (body.length === 0) return;
  const outer = ctx.nodeMap;
  ctx.nodeMap = name.text;
  for (const statement of body) resolveStatement(ctx, statement, scope, steps);
  ctx.nodeMap = outer;
}

/** `x = node()` / `node(id) [in m]`: a stream of the flow's own. */
function resolveNode(ctx: FlowContext, node: NodeExpression, scope: Scope, name: string, at: Span): void {
  const map = node.nodeMap?.text || ctx.nodeMap;
  if (map) {
    const found = ctx.find(scope, map);
    if (!found || found.kind !== 'node-map') {
      ctx.report('flow.name.unknown-node-map', `There is no node map '${map}'; declare it first with 'nodes ${map}'.`, node.at);
    } else {
      found.reads++;
      ctx.addNodeMap(map);
    }
  }
  const attach = resolveExpression(ctx, node.id, scope, false);
  const ref = ctx.graph.addRef({ kind: 'node', name, attach, nodeMap: map, label: name, owner: ctx.body, writable: true, at });
  ctx.define(scope, newSymbol('node', name, at, { readable: true, writable: true, ref }));
}

/** One target of a `skip`: a stream, every output of a call, or named outputs of one. */
function resolveSkipTarget(
  ctx: FlowContext,
  target: SkipTarget,
  count: number | null,
  scope: Scope,
  after: string[],
  held: StepId[],
  steps: DescribedDraft[],
): void {
  if (target.form === 'pipeline') {
    const source = target.pipeline.source;
    if (target.pipeline.stages.length === 0 && source.kind === 'name') {
      const index = ctx.lookup(scope, source.name);
      const symbol = ctx.symbols[index];
      if (symbol?.kind === 'call') {
        symbol.reads++;
        skipCallOutputs(ctx, index, [], source.at, after, held, steps);
        return;
      }
    }
    skipPipeline(ctx, target.pipeline, count, scope, after, held, steps);
    return;
  }
  const index = expectCall(ctx, target.call.text, target.call.at, scope);
  if (index < 0) return;
  skipCallOutputs(ctx, index, target.outputs, target.call.at, after, held, steps);
}

function skipPipeline(ctx: FlowContext, pipeline: Pipeline, count: number | null, scope: Scope, after: string[], held: StepId[], steps: DescribedDraft[]): void {
  const source = resolvePipeline(ctx, pipeline, scope);
  if (count !== null && !source.hasFront) {
    ctx.report(
      'flow.sequence.skip-count-target',
      `'skip ${count}' takes values off a port or a node, and ${source.label} is neither. Use '| drop ${count}' to drop values from a pipeline.`,
      pipeline.at,
    );
  } else if (count !== null) {
    const ref = ctx.graph.ref(source.ref);
    if (ref) ref.skip += count;
  }
  ctx.graph.addStep({ kind: 'skip', label: count !== null ? `skip ${count} of ${source.label}` : `skip ${source.label}`, body: ctx.body, after: held, at: pipeline.at, source: source.ref, count, call: null });
  steps.push(describe('skip', source.label, pipeline.at, { source: source.label, after }));
}

/** Named outputs of a call, or every one a sibling flow declares; of a registry action, the call itself. */
function skipCallOutputs(ctx: FlowContext, call: number, outputs: readonly Word[], at: Span, after: string[], held: StepId[], steps: DescribedDraft[]): void {
  const symbol = ctx.symbols[call]!;
  let names: { text: string; at: Span }[] = [...outputs];
  if (names.length === 0 && symbol.target?.sibling) {
    names = symbol.target.ports
      .filter((port) => port.direction === 'outputs')
      .map((port) => port.name)
      .sort()
      .map((text) => ({ text, at }));
  }
  if (names.length === 0) {
    ctx.graph.addStep({ kind: 'skip', label: `skip ${symbol.name}`, body: ctx.body, after: held, at, source: null, count: null, call: symbol.step === NO_STEP ? null : symbol.step });
    steps.push(describe('skip', symbol.name, at, { source: symbol.name, after }));
    return;
  }
  for (const name of names) {
    const port = callPort(ctx, call, name.text, 'outputs', name.at);
    ctx.graph.addStep({ kind: 'skip', label: `skip ${port.label}`, body: ctx.body, after: held, at: name.at, source: port.ref, count: null, call: null });
    steps.push(describe('skip', port.label, name.at, { source: port.label, after }));
  }
}
