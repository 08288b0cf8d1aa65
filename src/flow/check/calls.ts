/**
 * `run`/`call`: the step, the pipes feeding its arguments, and its ports checked against what it
 * names — a sibling flow of this file, or (when a catalogue was given) an action of the catalogue.
 */

import type { CallExpression } from '../syntax/ast.js';
import type { DescribedStep, Expr, RefId, Span } from '../program.js';
import { actionTarget, hasPort, portNames } from './catalogue.js';
import { type CallTarget, FlowContext, type FlowSymbol, type Resolved, type Scope, newSymbol, unresolved } from './context.js';
import { resolveAfter } from './barriers.js';
import { describe } from './described.js';
import { resolveExpression } from './expressions.js';
import { NO_REF } from './graph.js';
import { resolvePipeline } from './streams.js';
import { nearest } from './suggest.js';

/** What a call names: a sibling flow first (a file's own flows win), then a catalogue action. */
function targetOf(ctx: FlowContext, call: CallExpression): CallTarget | null {
  const sibling = ctx.known.flows.get(call.action);
  if (sibling) return sibling;
  const catalogue = ctx.known.catalogue;
  if (!catalogue || !call.action) return null;
  const action = catalogue.get(call.action);
  if (!action) {
    const near = nearest(call.action, [...catalogue.keys(), ...ctx.known.flows.keys()]);
    ctx.report(
      'flow.name.unknown-action',
      `There is no action '${call.action}' here, and no flow of that name in this file${near ? `; did you mean '${near}'?` : '.'}`,
      call.actionAt,
      ctx.fixFor(call.actionAt, call.action, near),
    );
    return null;
  }
  const target = actionTarget(action);
  if (call.mode === 'run' && target.runnable === false) {
    ctx.report(
      'flow.name.not-runnable',
      `'${call.action}' has no handler where this flow runs, so 'run' would fail. Say 'call ${call.action}(…)' to dispatch it to the peer.`,
      call.actionAt,
    );
  }
  return target;
}

/** A call bound to `label`: its symbol, its step, and one pipe per argument. Returns the symbol index. */
export function resolveCall(ctx: FlowContext, call: CallExpression, scope: Scope, label: string, steps: DescribedStep[]): number {
  const map = call.modifiers.nodeMap?.text || ctx.nodeMap;
  if (map) {
    const found = ctx.find(scope, map);
    if (!found || found.kind !== 'node-map') {
      ctx.report('flow.name.unknown-node-map', `There is no node map '${map}'; declare it first with 'nodes ${map}'.`, call.at);
    } else {
      found.reads++;
    }
  }
  const target = targetOf(ctx, call);
  const mode = call.mode ?? 'run';
  const index = ctx.define(
    scope,
    newSymbol('call', label, call.at, { action: call.action, tolerant: call.tolerant, target, readable: false }),
  );
  const headers: { name: string; value: Expr }[] = [];
  for (const header of call.modifiers.headers) {
    const value = resolveExpression(ctx, header.value, scope, false);
    if (value) headers.push({ name: header.name, value });
  }
  const actionId = resolveExpression(ctx, call.modifiers.actionId, scope, false);
  const made = ctx.graph.addStep({
    kind: 'call',
    label,
    body: ctx.body,
    after: [],
    at: call.at,
    action: call.action,
    sibling: target?.sibling ?? false,
    mode,
    nodeMap: map,
    timeout: call.modifiers.timeout,
    tee: call.modifiers.tee,
    tolerant: call.tolerant,
    headers,
    forward: call.modifiers.forward.map((word) => word.text),
    actionId,
    ports: {},
  });
  ctx.symbols[index]!.step = made;
  const after = resolveAfter(ctx, call.modifiers.after, scope, made);
  steps.push(
    describe(mode, label, call.at, {
      after,
      action: call.action,
      mode,
      nodeMap: map,
      timeout: call.modifiers.timeout,
      tolerant: call.tolerant,
      tee: call.modifiers.tee,
    }),
  );
  for (const argument of call.args) {
    const destination = callPort(ctx, index, argument.port.text, 'inputs', argument.port.at);
    const source = resolvePipeline(ctx, argument.pipeline, scope);
    const written = `${label}.${argument.port.text}`;
    const pipeLabel = `${source.label} -> ${written}`;
    ctx.graph.addStep({ kind: 'pipe', label: pipeLabel, body: ctx.body, after: [], at: argument.port.at, source: source.ref, destination: destination.ref, tolerant: false });
    steps.push(describe('pipe', pipeLabel, argument.port.at, { source: source.label, destination: written }));
  }
  return index;
}

/** An output, unless what the call names declares an input of that name and no output. */
export function inferDirection(symbol: FlowSymbol, name: string): 'inputs' | 'outputs' {
  const target = symbol.target;
  if (target && !hasPort(target, name, 'outputs') && hasPort(target, name, 'inputs')) return 'inputs';
  return 'outputs';
}

/** A port of a call, checked against what the call names where that is known. */
export function callPort(ctx: FlowContext, call: number, name: string, direction: 'inputs' | 'outputs', at: Span): Resolved {
  const symbol = ctx.symbols[call];
  if (!symbol) return unresolved('');
  const label = `${symbol.name}.${name}`;
  const target = symbol.target;
  if (target && !hasPort(target, name, direction)) {
    const declared = portNames(target, direction);
    const near = nearest(name, declared);
    ctx.report(
      'flow.name.unknown-port',
      `${symbol.action} has no ${direction === 'inputs' ? 'input' : 'output'} port '${name}'${near ? `; did you mean '${near}'?` : ''} (it declares: ${declared.length ? declared.join(', ') : 'none'}).`,
      at,
      ctx.fixFor(at, name, near),
    );
    return { ...unresolved(label) };
  }
  const resolved: Resolved = {
    kind: 'call-port',
    label,
    writable: direction === 'inputs',
    hasFront: true,
    ref: NO_REF,
    tolerant: false,
    shape: '',
  };
  const step = ctx.graph.step(symbol.step);
  if (!step || step.kind !== 'call') return resolved;
  const key = `${direction}:${name}`;
  const known: RefId | undefined = step.ports[key];
  if (known !== undefined) return { ...resolved, ref: known };
  const declared = target?.ports.find((port) => port.name === name && port.direction === direction);
  const ref = ctx.graph.addRef({
    kind: 'call-port',
    name,
    direction,
    call: symbol.step,
    label,
    owner: step.body,
    writable: direction === 'inputs',
    unary: declared?.unary ?? false,
    at,
  });
  step.ports = { ...step.ports, [key]: ref };
  return { ...resolved, ref };
}
