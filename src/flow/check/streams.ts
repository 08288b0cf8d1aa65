/**
 * Pipelines and the references they read and write: sources, stages, destinations, statuses.
 *
 * Every reference resolves to a {@link Resolved} (may it be read, written, skipped?) and to a ref
 * of the graph. A name that is a port, node, call or barrier is a stream; anything else in
 * source position is a value, which is a stream of one.
 */

import type { Expression, LogTail, Pipeline, Stage, Wait } from '../syntax/ast.js';
import { constantValue } from '../syntax/constant.js';
import type { Expr, LogSpec, RefId, Span, StageOp } from '../program.js';
import { compilePattern } from '../pattern.js';
import { logLevelNamed, logLevels, positionalStageNames, statusFields } from '../vocabulary.js';
import { checkWait } from './barriers.js';
import { callPort, inferDirection } from './calls.js';
import { FlowContext, type Resolved, Scope, newSymbol, unresolved } from './context.js';
import { resolveExpression } from './expressions.js';
import { NO_REF } from './graph.js';
import { expressionLabel, stageLabel } from './labels.js';
import { hasPort } from './catalogue.js';
import { nearest } from './suggest.js';

/** A pipeline: its source, then each stage applied in turn. */
export function resolvePipeline(ctx: FlowContext, pipeline: Pipeline, scope: Scope): Resolved {
  const resolved = resolveSource(ctx, pipeline.source, scope);
  // The pattern `it` comes out of, so a field read in a stage after a `match` can be checked.
  let previousPattern = pipeline.stages.length === 0 ? patternOf(pipeline) : '';
  for (const stage of pipeline.stages) {
    const op = resolveStage(ctx, stage, scope, previousPattern);
    previousPattern = stage.name === 'match' ? stageText(stage) : '';
    checkShapeStage(ctx, stage, resolved);
    checkPatternStage(ctx, stage);
    const failures = stage.failures ? resolveDestination(ctx, stage.failures, scope).ref : null;
    const source = resolved.ref;
    resolved.label += ` | ${stageLabel(stage)}`;
    resolved.kind = 'derived';
    resolved.hasFront = false;
    resolved.writable = false;
    resolved.tolerant = false;
    resolved.shape = shapeAfter(ctx, stage, resolved.shape);
    // The op was made for this stage alone (just above), so its failures port is filled in place.
    (op as { failures: RefId | null }).failures = failures;
    resolved.ref = derive(ctx, source, op, resolved.label, stage.at);
  }
  return resolved;
}

function stageText(stage: Stage): string {
  const argument = stage.argument;
  return argument && (argument.takes === 'string' || argument.takes === 'string?') ? (argument.text ?? '') : '';
}

/** The graph's stage for one written stage, with its argument resolved. */
function resolveStage(ctx: FlowContext, stage: Stage, scope: Scope, previousPattern: string): StageOp {
  const argument = stage.argument;
  if (argument?.takes === 'stream') {
    const stream = argument.source ? resolveSource(ctx, argument.source, scope).ref : NO_REF;
    return { name: stage.name, tolerant: stage.tolerant, failures: null, parallel: stage.parallel, ordered: stage.ordered, at: stage.at, takes: 'stream', stream };
  }
  // `it` in the argument is the value the stage before made: a `map` after a `match` knows its fields.
  const outer = ctx.itPattern;
  ctx.itPattern = previousPattern;
  try {
    return stageOp(ctx, stage, scope);
  } finally {
    ctx.itPattern = outer;
  }
}

function stageOp(ctx: FlowContext, stage: Stage, scope: Scope): StageOp {
  // Written out rather than spread from a shared part: this runs for every stage of every check,
  // and a spread makes each op a copy of a copy.
  const { name, tolerant, parallel, ordered, at } = stage;
  const argument = stage.argument;
  switch (argument?.takes) {
    case undefined:
    case 'none':
    case 'stream':
      return { name, tolerant, failures: null, parallel, ordered, at, takes: 'none' };
    case 'number':
      return { name, tolerant, failures: null, parallel, ordered, at, takes: 'number', count: argument.count ?? 0 };
    case 'string':
    case 'string?':
      return { name, tolerant, failures: null, parallel, ordered, at, takes: argument.takes, text: argument.text };
    case 'duration':
      return { name, tolerant, failures: null, parallel, ordered, at, takes: 'duration', seconds: argument.seconds ?? 0 };
    case 'log':
    case 'logf':
      return { name, tolerant, failures: null, parallel, ordered, at, takes: argument.takes, log: resolveLogTail(ctx, argument.log, scope, true, stage.at) };
    case 'fold': {
      // The accumulator is an ordinary name in a scope of its own, bound to a value the runtime
      // fills in per value — so a typo in it is the same diagnostic as any other unknown name.
      const carry = ctx.graph.addRef({ kind: 'bound', role: 'fold', step: null, label: 'fold', owner: ctx.body, writable: false, unary: true, at: stage.at });
      const folding = new Scope(scope);
      if (argument.carried?.text) {
        ctx.define(folding, newSymbol('loop-variable', argument.carried.text, argument.carried.at, { ref: carry }));
      }
      const expr = resolveExpression(ctx, argument.expression, folding, true);
      const start = argument.start ?? { kind: 'null' as const };
      return { name, tolerant, failures: null, parallel, ordered, at, takes: 'fold', start, carried: argument.carried?.text ?? '', carry, expr };
    }
    case 'sort-key':
      return { name, tolerant, failures: null, parallel, ordered, at, takes: 'sort-key', by: resolveExpression(ctx, argument.by, scope, true), descending: argument.descending };
    case 'expr':
    case 'expr?':
      return { name, tolerant, failures: null, parallel, ordered, at, takes: argument.takes, expr: resolveExpression(ctx, argument.expression, scope, true) };
  }
}

/** A `log`/`logf` tail, statement or stage: the level checked, the arguments resolved. */
export function resolveLogTail(ctx: FlowContext, tail: LogTail, scope: Scope, allowIt: boolean, at: Span): LogSpec {
  let level: string | null = null;
  if (tail.level) {
    level = logLevelNamed(tail.level.text) ?? null;
    if (level === null) {
      const near = nearest(tail.level.text.toLowerCase(), logLevels);
      const suggestion = near && (tail.level.text === tail.level.text.toUpperCase() ? near.toUpperCase() : near);
      ctx.report(
        'flow.form.unknown-log-level',
        `'${tail.level.text}' is not a log level${suggestion ? `; did you mean '${suggestion}'?` : ';'} use one of ${logLevels.join(', ')} (in either case).`,
        tail.level.at,
        ctx.fixFor(tail.level.at, tail.level.text, suggestion),
      );
    }
  }
  const args: Expr[] = [];
  for (const argument of tail.arguments) {
    const expr = resolveExpression(ctx, argument, scope, allowIt);
    if (expr) args.push(expr);
  }
  return { level, format: tail.format, arguments: args, line: lineOf(ctx, at) };
}

function lineOf(ctx: FlowContext, at: Span): number {
  return ctx.source.line(at.from);
}

/** A `match` pattern is read where it is written, so a typo in it is found before a value is. */
function checkPatternStage(ctx: FlowContext, stage: Stage): void {
  if (stage.name !== 'match') return;
  const compiled = compilePattern(stageText(stage));
  if (!compiled.ok) ctx.report('flow.form.bad-pattern', compiled.error, stage.at);
}

/** `| json` on a stream of a struct that holds bytes, which JSON cannot carry. */
function checkShapeStage(ctx: FlowContext, stage: Stage, resolved: Resolved): void {
  if (!resolved.shape || stage.name !== 'json') return;
  const shape = ctx.known.structs.find((struct) => struct.name === resolved.shape);
  if (!shape?.binary) return;
  ctx.report('flow.form.not-json-representable', `'${shape.name}' holds bytes, which JSON has no way to carry. Write '| packb' instead.`, stage.at);
}

/** The struct a stream carries after a stage: kept by stages that choose values, lost by reshaping. */
function shapeAfter(ctx: FlowContext, stage: Stage, carried: string): string {
  const name = stage.name;
  if (name === 'map') {
    const argument = stage.argument;
    const made = argument && argument.takes === 'expr' ? argument.expression : null;
    if (made?.kind !== 'typed-value') return '';
    return ctx.known.structNames.has(made.type.name) ? made.type.name : '';
  }
  if (name === 'log' || name === 'logf') return carried;
  if (positionalStageNames.includes(name) || name === 'then' || name === 'batch' || name === 'group') {
    return name === 'batch' || name === 'group' || name === 'window' ? '' : carried;
  }
  return '';
}

/** The literal `match` pattern a pipeline's values come out of: its last stage, or a `match(…)` source. */
export function patternOf(pipeline: Pipeline): string {
  const last = pipeline.stages[pipeline.stages.length - 1];
  if (last) return last.name === 'match' ? stageText(last) : '';
  const source = pipeline.source;
  if (source.kind !== 'builtin' || source.name !== 'match') return '';
  const first = source.args[0];
  return first?.kind === 'literal' && first.value.kind === 'string' ? first.value.value : '';
}

/** One stage over another ref, as a fresh ref (a mention, not an identity). */
export function derive(ctx: FlowContext, source: RefId, stage: StageOp, label: string, at: Span): RefId {
  if (source === NO_REF) return NO_REF;
  return ctx.graph.addRef({ kind: 'derived', source, stage, label, owner: ctx.body, writable: false, at });
}

/** The `at` stage `x.field` and `x[i]` over a stream become. */
export function atStage(field: string, index: number | null, at: Span, namedOrIndexed = false): StageOp {
  return { name: 'at', takes: 'at', field, index, namedOrIndexed, tolerant: false, failures: null, parallel: 1, ordered: true, at };
}

/** A pipeline source: a stream, a path over one, or a value (a stream of one). */
export function resolveSource(ctx: FlowContext, expression: Expression, scope: Scope): Resolved {
  const stream = asStream(ctx, expression, scope);
  if (stream) return stream;
  const expr = resolveExpression(ctx, expression, scope, false);
  const label = expressionLabel(expression);
  const ref = expr ? ctx.graph.addRef({ kind: 'expr', expr, label, owner: ctx.body, writable: false, at: expression.at }) : NO_REF;
  return { kind: 'value', label, writable: false, hasFront: false, ref, tolerant: false, shape: '' };
}

/** A name, or a path rooted at one, as a stream; null when it is a value. */
export function asStream(ctx: FlowContext, expression: Expression, scope: Scope): Resolved | null {
  switch (expression.kind) {
    case 'pipeline-value':
      return resolvePipeline(ctx, expression.pipeline, scope);
    case 'zip':
      return resolveZip(ctx, expression, scope);
    case 'wait':
      return resolveRaceValue(ctx, expression, scope);
    case 'outcome':
      return resolveOutcome(ctx, expression.subject, scope);
    case 'name':
      return nameStream(ctx, expression.name, expression.at, scope);
    case 'attr': {
      const named = attrStream(ctx, expression, scope);
      if (named) return named;
      const inner = asStream(ctx, expression.base, scope);
      if (!inner) return null;
      const source = inner.ref;
      inner.label += `.${expression.name}`;
      Object.assign(inner, { kind: 'derived', hasFront: false, writable: false, tolerant: false });
      inner.ref = derive(ctx, source, atStage(expression.name, null, expression.at), inner.label, expression.at);
      return inner;
    }
    case 'index': {
      const inner = asStream(ctx, expression.base, scope);
      if (!inner) return null;
      requireConstant(ctx, expression.index);
      const key = constantValue(expression.index);
      const source = inner.ref;
      inner.label += `[${expressionLabel(expression.index)}]`;
      Object.assign(inner, { kind: 'derived', hasFront: false, writable: false, tolerant: false });
      const stage =
        key?.kind === 'integer'
          ? atStage(String(key.value), key.value, expression.at)
          : atStage(key?.kind === 'string' ? key.value : '', null, expression.at);
      inner.ref = derive(ctx, source, stage, inner.label, expression.at);
      return inner;
    }
    default:
      return null;
  }
}

/** Where the grammar needs a constant but the resolver is the one that can tell. */
export function requireConstant(ctx: FlowContext, expression: Expression | null): void {
  if (!expression || expression.kind === 'error' || constantValue(expression) !== null) return;
  ctx.report('flow.syntax.constant-required', 'This has to be a constant: a literal, or a list or record of literals.', expression.at);
}

function nameStream(ctx: FlowContext, name: string, at: Span, scope: Scope): Resolved {
  const index = ctx.lookup(scope, name);
  const found = ctx.symbols[index];
  if (!found) {
    ctx.unknownName(scope, name, at);
    return unresolved(name);
  }
  if (found.kind === 'call') {
    ctx.report('flow.name.call-as-stream', `'${name}' is a call, not a stream; name one of its ports, like ${name}.output.`, at);
    return unresolved(name);
  }
  if (found.kind === 'node-map') {
    ctx.report('flow.name.not-a-stream', `'${name}' is a node map, not a stream; only what is placed in it can be read.`, at);
    return unresolved(name);
  }
  if (!found.readable) {
    ctx.report('flow.name.not-a-stream', `'${name}' is an output this flow writes, not something it can read back. Write to a node of the flow's own (x = node()) and read that.`, at);
    return unresolved(name);
  }
  found.reads++;
  if (found.kind === 'barrier') found.statusReads++;
  const resolved: Resolved = { kind: 'value', label: name, writable: false, hasFront: false, ref: found.ref, tolerant: false, shape: '' };
  switch (found.kind) {
    case 'input-port':
    case 'output-port': {
      resolved.kind = 'port';
      resolved.hasFront = true;
      resolved.writable = found.writable;
      const port = ctx.portNamed(name, found.kind === 'input-port' ? 'inputs' : 'outputs');
      if (port?.struct) resolved.shape = port.struct;
      break;
    }
    case 'node':
      resolved.kind = 'node';
      resolved.hasFront = true;
      resolved.writable = true;
      break;
    case 'barrier':
      resolved.kind = 'status';
      resolved.tolerant = found.tolerant;
      break;
    default:
      break;
  }
  return resolved;
}

/** `x.y` where `x` is a call (its port or status), a node (`.id`) or a barrier (a field of its status). */
export function attrStream(ctx: FlowContext, attr: Extract<Expression, { kind: 'attr' }>, scope: Scope): Resolved | null {
  if (attr.base.kind !== 'name') return null;
  const baseName = attr.base.name;
  const index = ctx.lookup(scope, baseName);
  const symbol = ctx.symbols[index];
  if (!symbol) return null;
  if (symbol.kind === 'call') {
    symbol.reads++;
    if (attr.name === 'status') {
      symbol.statusReads++;
      return { kind: 'status', label: `status ${baseName}`, writable: false, hasFront: false, ref: ctx.statusOfStep(symbol.step, attr.at), tolerant: symbol.tolerant, shape: '' };
    }
    return callPort(ctx, index, attr.name, inferDirection(symbol, attr.name), attr.at);
  }
  if (symbol.kind === 'node' && attr.name === 'id') {
    symbol.reads++;
    const ref =
      symbol.ref === NO_REF
        ? NO_REF
        : ctx.graph.addRef({ kind: 'node-id', node: symbol.ref, label: `${baseName}.id`, owner: ctx.graph.ref(symbol.ref)!.owner, writable: false, at: attr.at });
    return { kind: 'node-id', label: `${baseName}.id`, writable: false, hasFront: false, ref, tolerant: false, shape: '' };
  }
  if (symbol.kind === 'barrier') {
    symbol.reads++;
    symbol.statusReads++;
    const label = `${baseName}.${attr.name}`;
    return { kind: 'derived', label, writable: false, hasFront: false, ref: derive(ctx, symbol.ref, atStage(attr.name, null, attr.at), label, attr.at), tolerant: false, shape: '' };
  }
  return null;
}

/** `zip(a, b)` / `interleave(a, b)`: each argument resolved as a stream of its own. */
function resolveZip(ctx: FlowContext, zip: Extract<Expression, { kind: 'zip' }>, scope: Scope): Resolved {
  const labels: string[] = [];
  const sources: RefId[] = [];
  for (const source of zip.sources) {
    const one = resolveSource(ctx, source, scope);
    labels.push(one.label);
    sources.push(one.ref);
  }
  const label = `${zip.name}(${labels.join(', ')})`;
  const common = { sources, label, owner: ctx.body, writable: false, at: zip.at };
  const ref = ctx.graph.addRef(zip.name === 'interleave' ? { kind: 'merge', ...common } : { kind: 'zip', ...common });
  // A zip has a front, but no one node upstream a counted `skip` could take values off.
  return { kind: 'derived', label, writable: false, hasFront: false, ref, tolerant: false, shape: '' };
}

/** `wait first of a, b` where a value is expected: the barrier is a step, and the value is who won. */
function resolveRaceValue(ctx: FlowContext, wait: Wait, scope: Scope): Resolved {
  if (!wait.race) {
    ctx.report(
      'flow.form.wait-all-has-no-value',
      "'wait all of' waits for every one of them, so there is no single winner to read. Use 'wait first of a, b' for a value, or 'wait all of' on its own line as a barrier.",
      wait.at,
    );
    return unresolved('wait all of');
  }
  const made = checkWait(ctx, wait, scope);
  // The label the plan gives a race read as a value is its opening words, not its subjects.
  const winner = made === null ? NO_REF : ctx.winnerOf(made);
  return { kind: 'value', label: 'wait first of', writable: false, hasFront: true, ref: winner, tolerant: false, shape: '' };
}

/**
 * The status of what `expression` names. The longest prefix that names something with a status
 * wins; the rest reads into the record: `status x.ok` is x's status asked whether it is ok.
 */
export function resolveOutcome(ctx: FlowContext, expression: Expression, scope: Scope): Resolved {
  const path: string[] = [];
  let cursor = expression;
  // A trailing status field belongs to the record, not to a port of that name.
  while (cursor.kind === 'attr' && statusFields.includes(cursor.name) && hasStatus(ctx, cursor.base, scope)) {
    path.push(cursor.name);
    cursor = cursor.base;
  }
  while (!hasStatus(ctx, cursor, scope)) {
    if (cursor.kind === 'attr') {
      path.push(cursor.name);
      cursor = cursor.base;
      continue;
    }
    if (cursor.kind === 'name') {
      if (ctx.lookup(scope, cursor.name) < 0) ctx.unknownName(scope, cursor.name, expression.at);
      else ctx.report('flow.name.no-status', `'${cursor.name}' has no status; a status belongs to a call, a node, a port or a barrier. Ask it of what produced '${cursor.name}'.`, expression.at);
      return unresolved(expressionLabel(expression));
    }
    ctx.report('flow.name.no-status', 'Only a call, a node, a port or a barrier has a status to read.', expression.at);
    return unresolved(expressionLabel(expression));
  }
  const counted = cursor.kind === 'name' ? cursor.name : cursor.kind === 'attr' && cursor.base.kind === 'name' ? cursor.base.name : null;
  if (counted !== null) {
    const found = ctx.find(scope, counted);
    if (found) {
      found.reads++;
      found.statusReads++;
    }
  }
  const resolved: Resolved = { kind: 'status', label: `status ${expressionLabel(cursor)}`, writable: false, hasFront: false, ref: NO_REF, tolerant: false, shape: '' };
  statusSubject(ctx, cursor, scope, resolved);
  for (const field of path.reverse()) {
    const source = resolved.ref;
    resolved.label += `.${field}`;
    resolved.ref = derive(ctx, source, atStage(field, null, expression.at), resolved.label, expression.at);
  }
  return resolved;
}

/** The graph's status ref for what `cursor` names. */
function statusSubject(ctx: FlowContext, cursor: Expression, scope: Scope, out: Resolved): void {
  if (cursor.kind === 'name') {
    const symbol = ctx.find(scope, cursor.name);
    if (!symbol) return;
    if (symbol.kind === 'call') {
      out.tolerant = symbol.tolerant;
      out.ref = ctx.freshStatusOfStep(symbol.step, cursor.at);
    } else if (symbol.kind === 'barrier') {
      out.tolerant = symbol.tolerant;
      out.ref = symbol.ref;
    } else {
      out.ref = ctx.statusOfRef(symbol.ref, symbol.name, cursor.at);
    }
    return;
  }
  if (cursor.kind !== 'attr' || cursor.base.kind !== 'name') return;
  const index = ctx.lookup(scope, cursor.base.name);
  const symbol = ctx.symbols[index];
  if (!symbol || symbol.kind !== 'call') return;
  if (cursor.name === 'status') {
    out.tolerant = symbol.tolerant;
    out.ref = ctx.freshStatusOfStep(symbol.step, cursor.at);
    return;
  }
  const port = callPort(ctx, index, cursor.name, inferDirection(symbol, cursor.name), cursor.at);
  out.ref = ctx.statusOfRef(port.ref, port.label, cursor.at);
}

/** Whether `expression` names something a status belongs to. */
export function hasStatus(ctx: FlowContext, expression: Expression, scope: Scope): boolean {
  if (expression.kind === 'name') {
    const symbol = ctx.find(scope, expression.name);
    return symbol !== undefined && ['call', 'barrier', 'node', 'input-port', 'output-port'].includes(symbol.kind);
  }
  if (expression.kind === 'attr' && expression.base.kind === 'name') {
    const symbol = ctx.find(scope, expression.base.name);
    if (!symbol || symbol.kind !== 'call') return false;
    if (expression.name === 'status' || !symbol.target) return true;
    return hasPort(symbol.target, expression.name, 'outputs') || hasPort(symbol.target, expression.name, 'inputs');
  }
  return false;
}

/** Somewhere a pipe may write: an `out` port, a node of the flow's own, or a call's input port. */
export function resolveDestination(ctx: FlowContext, expression: Expression, scope: Scope): Resolved {
  if (expression.kind === 'name') {
    const name = expression.name;
    const index = ctx.lookup(scope, name);
    const found = ctx.symbols[index];
    if (!found) {
      ctx.unknownName(scope, name, expression.at, 'destination');
      return unresolved(name);
    }
    if (found.kind === 'call') {
      ctx.report('flow.name.call-as-stream', `'${name}' is a call; name the input port to write, like ${name}.input.`, expression.at);
      return unresolved(name);
    }
    if (found.kind === 'barrier') {
      ctx.report('flow.name.not-writable', `'${name}' is a barrier, which is read, not written.`, expression.at);
      return unresolved(name);
    }
    if (!found.writable) {
      ctx.report('flow.name.not-writable', `'${name}' cannot be written by this flow: an 'in' port, a header or a value is read, not written. Write to an 'out' port or a node.`, expression.at);
      return unresolved(name);
    }
    found.writes++;
    return { kind: found.kind === 'node' ? 'node' : 'port', label: name, writable: true, hasFront: true, ref: found.ref, tolerant: false, shape: '' };
  }
  if (expression.kind === 'attr' && expression.base.kind === 'name') {
    const baseName = expression.base.name;
    const index = ctx.lookup(scope, baseName);
    const symbol = ctx.symbols[index];
    if (!symbol) {
      ctx.unknownName(scope, baseName, expression.at, 'destination');
      return unresolved(baseName);
    }
    if (symbol.kind !== 'call') {
      ctx.report('flow.name.not-writable', `'${baseName}' is not a call, so '${expression.name}' is not a port of it to write.`, expression.at);
      return unresolved(baseName);
    }
    symbol.reads++;
    return callPort(ctx, index, expression.name, 'inputs', expression.at);
  }
  ctx.report('flow.name.not-writable', "A destination is an 'out' port, a node of the flow's own, or a call's input port (x.port).", expression.at);
  return unresolved(expressionLabel(expression));
}
