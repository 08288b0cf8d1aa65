/**
 * What a flow does that it probably did not mean to: things that compile and run but do nothing,
 * or cannot do what they look like — an `out` port nothing writes, a `try` nobody reads, a
 * `| drop 3` after a `| collect` left one value. Warnings, never errors.
 *
 * Run only on a file with no errors: an unknown name reads as "nothing uses" the thing it meant,
 * and every such warning would be noise on top of the real problem.
 */

import type { CallExpression, Expression, Pipeline, Stage, Statement, StructDeclaration } from '../syntax/ast.js';
import { forEachNode } from '../syntax/walk.js';
import type { DescribedStep, Span } from '../program.js';
import { positionalStageNames, reducingStageNames } from '../vocabulary.js';
import { removeTry, type Reporter } from './report.js';
import type { ProblemFix } from '../diagnostics/diagnostic.js';
import type { CheckedFlow, Resolution } from './resolve.js';

const IDEMPOTENT: ReadonlySet<string> = new Set(['collect', 'distinct', 'text', 'json', 'packb', 'sort']);

export function inspect(resolution: Resolution, structs: readonly StructDeclaration[], report: Reporter): void {
  for (const flow of resolution.flows) {
    const name = flow.program.name;
    const say: Say = (code, message, at, fixes) => report(code, message, at, name, fixes);
    unusedNames(flow, say);
    statements(flow.declaration.body, say);
    barriers(flow.program.described, say);
  }
  unusedStructs(resolution, structs, report);
}

type Say = (code: Parameters<Reporter>[0], message: string, at: Span, fixes?: ProblemFix[]) => void;

function unusedNames(flow: CheckedFlow, say: Say): void {
  for (const symbol of flow.context.symbols) {
    if (symbol.implicit || !symbol.name) continue;
    const name = symbol.name;
    switch (symbol.kind) {
      case 'header':
        if (symbol.reads === 0) {
          say('flow.unused.header', `Nothing reads the header alias '${name}'. Every 'x-a11-' header reaches a step anyway; declare a header only to read its value.`, symbol.at);
        }
        break;
      case 'output-port':
        if (symbol.writes === 0) say('flow.unused.output-port', `Nothing in this flow writes '${name}', so a caller reading it gets nothing.`, symbol.at);
        break;
      case 'node-map':
        if (symbol.reads === 0) say('flow.unused.node-map', `Nothing is placed in the node map '${name}'. Give it a block, or name it with 'via ${name}'.`, symbol.at);
        break;
      case 'value':
        if (symbol.reads === 0) {
          say('flow.unused.value', `Nothing reads '${name}', so the stream behind it is never read either and its producer may be left waiting. Use it, or 'skip' the stream.`, symbol.at);
        }
        break;
      case 'loop-variable':
        if (symbol.reads === 0) say('flow.unused.loop-variable', `No pass of this loop reads '${name}'.`, symbol.at);
        break;
      case 'barrier':
        if (symbol.reads === 0) say('flow.unused.barrier-name', `Nothing reads '${name}'. The flow still waits here, so the name is the part doing nothing.`, symbol.at);
        break;
      case 'call':
        if (symbol.tolerant && symbol.statusReads === 0) {
          say(
            'flow.unused.try-status',
            `'try' lets ${symbol.action} fail without ending the flow, and nothing reads its status, so a failure leaves the ports it feeds silently empty. Read it with 'wait ${name}' or 'status ${name}', or drop the 'try'.`,
            symbol.at,
            removeTry(flow.context.source.text, symbol.at),
          );
        }
        break;
      default:
        break;
    }
  }
}

function statements(list: readonly Statement[], say: Say): void {
  for (const statement of list) inspectStatement(statement, say);
}

function inspectStatement(statement: Statement | CallExpression, say: Say): void {
  switch (statement.kind) {
    case 'pipe':
      return pipeline(statement.pipeline, say);
    case 'skip':
      for (const target of statement.targets) if (target.form === 'pipeline') pipeline(target.pipeline, say);
      return;
    case 'carry':
      return pipeline(statement.pipeline, say);
    case 'bind':
      if (statement.value.kind !== 'node') inspectStatement(statement.value, say);
      return;
    case 'call-statement':
      return call(statement.call, say);
    case 'call':
      return call(statement, say);
    case 'for-each':
      pipeline(statement.pipeline, say);
      count(statement.parallel, 'parallel', statement.at, say);
      return statements(statement.body, say);
    case 'repeat':
      if (statement.max !== null) count(statement.max, 'max', statement.at, say);
      return statements(statement.body, say);
    case 'if':
      expression(statement.condition, say);
      statements(statement.thenBody, say);
      return statements(statement.elseBody, say);
    case 'until':
      return expression(statement.condition, say);
    case 'fail':
      expression(statement.code, say);
      return expression(statement.message, say);
    case 'log':
      for (const argument of statement.log.arguments) expression(argument, say);
      return;
    case 'nodes':
      return statements(statement.body, say);
    default:
      return;
  }
}

function call(statement: CallExpression, say: Say): void {
  for (const argument of statement.args) pipeline(argument.pipeline, say);
}

function count(value: number, word: string, at: Span, say: Say): void {
  if (value >= 1) return;
  say('flow.form.count-not-positive', `'${word} ${value}' is not a number of anything; use 1 or more.`, at);
}

/** A stage as a message names it: `'| drop 3'`. */
function stageName(stage: Stage): string {
  const argument = stage.argument;
  return argument?.takes === 'number' ? `'| ${stage.name} ${Math.trunc(argument.count ?? 0)}'` : `'| ${stage.name}'`;
}

/**
 * The stage arithmetic of one pipeline. One fact carries down it: after a reducing stage there
 * is exactly one value, whatever the stream held.
 */
function pipeline(written: Pipeline, say: Say): void {
  let reducedBy: Stage | null = null;
  let previous: Stage | null = null;
  for (const stage of written.stages) {
    const argument = stage.argument;
    if (argument?.takes === 'expr') expression(argument.expression, say);
    if (argument?.takes === 'log' || argument?.takes === 'logf') for (const one of argument.log.arguments) expression(one, say);
    const number = argument?.takes === 'number' ? (argument.count ?? 0) : null;
    if (number !== null && number < 1) {
      say('flow.sequence.impossible', `${stageName(stage)} keeps nothing.`, stage.at);
    } else if (reducedBy && positionalStageNames.includes(stage.name)) {
      if ((stage.name === 'first' || stage.name === 'last') && number === 1) {
        say('flow.sequence.redundant-stage', `${stageName(stage)} has nothing to choose from: ${stageName(reducedBy)} left one value.`, stage.at);
      } else if (stage.name === 'count') {
        say('flow.sequence.impossible', `${stageName(stage)} is always 1 here, however long the stream was: ${stageName(reducedBy)} left one value.`, stage.at);
      } else {
        say('flow.sequence.impossible', `${stageName(stage)} works on a stream of values, and ${stageName(reducedBy)} left one.`, stage.at);
      }
    } else if (previous && previous.name === stage.name && IDEMPOTENT.has(stage.name)) {
      say('flow.sequence.redundant-stage', `${stageName(stage)} twice does what once does.`, stage.at);
    }
    if (!reducedBy && reducingStageNames.includes(stage.name)) reducedBy = stage;
    previous = stage;
  }
  expression(written.source, say);
}

/** Pipelines written inside an expression, however deep: `(hits | count) > 0`. */
function expression(root: Expression | null, say: Say): void {
  if (!root) return;
  const pending: Expression[] = [root];
  while (pending.length) {
    const node = pending.pop()!;
    switch (node.kind) {
      case 'pipeline-value':
        pipeline(node.pipeline, say);
        break;
      case 'list':
        for (const item of [...node.items].reverse()) if (item.kind !== 'spread') pending.push(item);
        break;
      case 'object':
        for (const pair of [...node.pairs].reverse()) if (pair.kind === 'pair') pending.push(pair.value);
        break;
      case 'builtin':
        pending.push(...[...node.args].reverse());
        break;
      case 'unary':
        pending.push(node.operand);
        break;
      case 'binary':
        pending.push(node.right, node.left);
        break;
      case 'typed-value':
        pending.push(node.value);
        break;
      case 'attr':
        pending.push(node.base);
        break;
      case 'index':
        pending.push(node.index, node.base);
        break;
      default:
        break;
    }
  }
}

/** Orderings a body's own steps make pointless: a second wait for the same thing, a cancel of what was awaited. */
function barriers(steps: readonly DescribedStep[], say: Say): void {
  const waited = new Set<string>();
  for (const step of steps) {
    if (step.kind === 'wait' || step.kind === 'drain') {
      const subject = step.kind === 'wait' ? step.source : step.destination;
      if (!subject) continue;
      if (waited.has(subject)) say('flow.barrier.duplicate', `This body already holds for '${subject}'; the second one is over as soon as it starts.`, step.at);
      waited.add(subject);
      continue;
    }
    if (step.kind === 'cancel' && waited.has(`status ${step.label}`)) {
      say('flow.barrier.cancel-after-wait', `This body already waited for '${step.label}' to finish, so there is nothing left to cancel.`, step.at);
    }
  }
  for (const step of steps) for (const body of step.bodies) barriers(body, say);
}

/** Structs nothing names: no port carries one, no field holds one, no value is made one. */
function unusedStructs(resolution: Resolution, declared: readonly StructDeclaration[], report: Reporter): void {
  const { program } = resolution;
  if (program.structs.length === 0 || resolution.flows.length === 0) return;
  const named = new Set<string>();
  for (const struct of program.structs) {
    for (const field of struct.fields) {
      if (field.struct) named.add(field.struct);
      if (field.elementStruct) named.add(field.elementStruct);
    }
  }
  for (const flow of resolution.flows) {
    for (const port of flow.program.ports) named.add(port.type);
    for (const statement of flow.declaration.body) {
      forEachNode(statement, (node) => {
        if (node.kind === 'typed-value') named.add(node.type.name);
      });
    }
  }
  for (const declaration of declared) {
    const name = declaration.name.text;
    if (named.has(name) || !program.structs.some((struct) => struct.name === name)) continue;
    report('flow.unused.struct', `Nothing names the struct '${name}': no port carries it and no value is made one.`, declaration.name.at);
  }
}
