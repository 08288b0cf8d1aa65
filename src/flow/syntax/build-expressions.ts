/**
 * Expressions, types and pipelines: from the Lezer tree to the syntax tree.
 */
import type { SyntaxNode as LezerNode } from '@lezer/common';
import * as vocabulary from '../vocabulary';
import type {
  BinaryOperator,
  Expression,
  ObjectPair,
  Pipeline,
  ScalarConstant,
  Span,
  Spread,
  Stage,
  StageArgument,
  TypeExpression,
  Wait,
  Word,
} from './ast';
import { Builder, childNamed, childrenOf, quoted } from './builder';
import { constantValue } from './constant';
import { durationSeconds, numberValue, stringValue } from './literals';

/** The node names that are expressions. */
const expressionNames = new Set([
  'Identifier', 'StringLiteral', 'Number', 'Duration', 'True', 'False', 'Null', 'It', 'ParenExpression',
  'PipelineValue', 'List', 'Record', 'BuiltinCall', 'ZipCall', 'Outcome', 'WaitRace', 'MemberExpression',
  'IndexExpression', 'TypedRecord', 'CastExpression', 'AddExpression', 'CompareExpression', 'NotExpression',
  'AndExpression', 'OrExpression',
]);

export function isExpressionNode(node: LezerNode): boolean {
  return expressionNames.has(node.name);
}

export function word(builder: Builder, node: LezerNode): Word {
  return { text: builder.text(node), at: builder.span(node) };
}

/** A number token as a literal constant. */
export function numberConstant(builder: Builder, node: LezerNode): ScalarConstant {
  const parsed = numberValue(builder.text(node));
  return parsed.isInteger ? { kind: 'integer', value: parsed.value } : { kind: 'number', value: parsed.value };
}

/** The joined value of a run of string tokens (a `StringLiteral`, a `Description`). */
export function stringRun(builder: Builder, node: LezerNode): string {
  if (node.firstChild === null) return stringValue(builder.text(node));
  return childrenOf(node).map((part) => stringValue(builder.text(part))).join('');
}

/**
 * An expression where the reference reads a whole one (`ParseExpression`): one level of nesting.
 * `node` may be null where recovery left the place empty; `offset` is where it was expected.
 */
export function expression(builder: Builder, node: LezerNode | null | undefined, offset: number): Expression {
  if (!node) return builder.errorNode(offset, 'a value');
  const built = builder.descend(node.from, () => value(builder, node));
  return built ?? builder.errorNode(node.from, 'a value', node.to);
}

/** An expression read without a level of nesting (an operand, a postfix). */
export function value(builder: Builder, node: LezerNode): Expression {
  const at = builder.span(node);
  const range = builder.span(node);
  switch (node.name) {
    case 'Identifier':
      return { kind: 'name', name: builder.text(node), at, range };
    case 'StringLiteral':
      return {
        kind: 'literal',
        value: { kind: 'string', value: stringRun(builder, node) },
        at: builder.span(node.firstChild ?? node),
        range,
      };
    case 'Number':
      return { kind: 'literal', value: numberConstant(builder, node), at, range };
    case 'Duration':
      return { kind: 'literal', value: { kind: 'duration', seconds: durationSeconds(builder.text(node)) }, at, range };
    case 'True':
    case 'False':
      return { kind: 'literal', value: { kind: 'bool', value: node.name === 'True' }, at, range };
    case 'Null':
      return { kind: 'literal', value: { kind: 'null' }, at, range };
    case 'It':
      return { kind: 'it', at, range };
    case 'ParenExpression':
      return expression(builder, childrenOf(node).find(isExpressionNode), node.from + 1);
    case 'PipelineValue':
      return pipelineValue(builder, node);
    case 'List':
      return list(builder, node);
    case 'Record':
      return record(builder, node);
    case 'BuiltinCall':
      return builtinCall(builder, node);
    case 'ZipCall':
      return zipCall(builder, node);
    case 'Outcome': {
      const subject = childrenOf(node).find(isExpressionNode);
      return { kind: 'outcome', subject: reference(builder, subject, node.to), at: builder.span(node.firstChild!), range };
    }
    case 'WaitRace':
      return waitRace(builder, node);
    case 'MemberExpression':
      return member(builder, node);
    case 'IndexExpression': {
      const parts = childrenOf(node);
      if (parts[0] && nextOf(parts[0])?.type.isError) return value(builder, parts[0]);
      const bracket = parts.find((part) => part.name === '[');
      const index = parts.slice(1).find(isExpressionNode);
      return {
        kind: 'index',
        base: value(builder, parts[0]!),
        index: expression(builder, index, bracket ? bracket.to : node.to),
        at: bracket ? builder.span(bracket) : at,
        range,
      };
    }
    case 'TypedRecord':
      return typedRecord(builder, node);
    case 'CastExpression': {
      const parts = childrenOf(node);
      const as = parts.find((part) => part.name === 'As');
      return {
        kind: 'typed-value',
        form: 'cast',
        value: value(builder, parts[0]!),
        type: typeExpression(builder, childNamed(node, 'Type'), as ? as.to : node.to),
        at: as ? builder.span(as) : at,
        range,
      };
    }
    case 'AddExpression':
    case 'CompareExpression':
    case 'AndExpression':
    case 'OrExpression':
      return binary(builder, node);
    case 'NotExpression': {
      const parts = childrenOf(node);
      const operand = parts.slice(1).find(isExpressionNode);
      return {
        kind: 'unary',
        op: 'not',
        operand: operand ? value(builder, operand) : builder.errorNode(parts[0]!.to, 'a value'),
        at: builder.span(parts[0]!),
        range,
      };
    }
    default:
      return builder.errorNode(node.from, 'a value', node.to);
  }
}

function binary(builder: Builder, node: LezerNode): Expression {
  const parts = childrenOf(node);
  const operator = parts.find((part) => !isExpressionNode(part));
  // No operator in the text (recovery supplied one): the reference read the left value and
  // stopped there.
  if (!operator && parts[0] && isExpressionNode(parts[0])) return value(builder, parts[0]);
  const operands = parts.filter(isExpressionNode);
  const op = (operator ? vocabulary.canonical(builder.text(operator)) : 'or') as BinaryOperator;
  const left = operands[0] && operands[0].from < (operator?.from ?? Infinity) ? operands[0] : undefined;
  const right = operands.find((operand) => operand.from >= (operator?.to ?? node.to));
  return {
    kind: 'binary',
    op,
    left: left ? value(builder, left) : builder.errorNode(node.from, 'a value'),
    right: right ? value(builder, right) : builder.errorNode(operator ? operator.to : node.to, 'a value'),
    at: operator ? builder.span(operator) : builder.span(node),
    range: builder.span(node),
  };
}

function member(builder: Builder, node: LezerNode): Expression {
  const parts = childrenOf(node);
  // Something skipped between a value and its `.`: the reference read the value and stopped.
  if (parts[0] && nextOf(parts[0])?.type.isError) return value(builder, parts[0]);
  const dot = parts.find((part) => part.name === '.');
  const name = parts.find((part, index) => index > 0 && part.name === 'Identifier');
  return {
    kind: 'attr',
    base: value(builder, parts[0]!),
    name: name ? builder.text(name) : '',
    nameAt: name ? builder.span(name) : builder.tokenSpanAt(dot ? dot.to : node.to),
    at: dot ? builder.span(dot) : builder.span(node),
    range: builder.span(node),
  };
}

/** `a.b.c` as a dotted name, or null where the chain holds anything but names. */
function dottedName(builder: Builder, node: LezerNode): string | null {
  if (node.name === 'Identifier') return builder.text(node);
  if (node.name !== 'MemberExpression') return null;
  const parts = childrenOf(node);
  const base = dottedName(builder, parts[0]!);
  const name = parts.find((part, index) => index > 0 && part.name === 'Identifier');
  return base === null || !name ? null : `${base}.${builder.text(name)}`;
}

function typedRecord(builder: Builder, node: LezerNode): Expression {
  const parts = childrenOf(node);
  const tag = parts[0]!;
  const recordNode = parts.find((part) => part.name === 'Record');
  // Braces recovery supplied (the record does not start with a `{` of the text) are not a value
  // of a type: the reference read the tag alone and stopped.
  if (recordNode && (recordNode.firstChild?.name !== 'RecordOpen' || nextOf(tag)?.from !== recordNode.from || hasError(tag))) {
    return value(builder, tag);
  }
  const base = value(builder, tag);
  const name = dottedName(builder, tag);
  const recordValue = recordNode ? record(builder, recordNode) : builder.errorNode(node.to, 'a record');
  if (name === null) {
    builder.reportAt(
      'flow.syntax.unexpected',
      `A value of a type is written 'Type{…}' after a type name; found ${builder.found(recordNode?.from ?? node.to)}.`,
      recordNode?.from ?? node.to,
    );
  }
  const type: TypeExpression = {
    at: base.at,
    range: builder.span(tag),
    name: name ?? builder.text(tag),
    parameters: [],
    quoted: false,
    sugared: false,
    written: name ?? builder.text(tag),
  };
  return { kind: 'typed-value', form: 'braces', type, value: recordValue, at: base.at, range: builder.span(node) };
}

function list(builder: Builder, node: LezerNode): Expression {
  const items: (Expression | Spread)[] = [];
  for (const part of childrenOf(node)) {
    if (part.name === 'Spread') items.push(spread(builder, part));
    else if (isExpressionNode(part)) items.push(expression(builder, part, part.from));
  }
  return { kind: 'list', items, at: builder.span(node.firstChild!), range: builder.span(node) };
}

function spread(builder: Builder, node: LezerNode): Spread {
  const parts = childrenOf(node);
  const operand = parts.find(isExpressionNode);
  return {
    kind: 'spread',
    value: operand ? value(builder, operand) : builder.errorNode(node.to, 'a value'),
    at: builder.span(parts[0] ?? node),
    range: builder.span(node),
  };
}

export function record(builder: Builder, node: LezerNode): Expression & { kind: 'object' } {
  const pairs: (ObjectPair | Spread)[] = [];
  for (const part of childrenOf(node)) {
    if (part.name === 'Spread') {
      pairs.push(spread(builder, part));
    } else if (part.name === 'Pair') {
      const [key, ...rest] = childrenOf(part);
      const valueNode = rest.find(isExpressionNode);
      const colon = rest.find((child) => child.name === ':');
      // `"key" value` with the colon missing: the reference reads the value where the colon was.
      const skipped = key ? nextOf(key) : null;
      pairs.push({
        kind: 'pair',
        key: key ? (key.name === 'StringLiteral' ? stringRun(builder, key) : builder.text(key)) : '',
        value: skipped?.type.isError && skipped.from < skipped.to ? valueAtSkipped(builder, skipped) : expression(builder, valueNode, colon ? colon.to : part.to),
        at: builder.tokenSpanAt(part.from),
        range: builder.span(part),
      });
    }
  }
  return { kind: 'object', pairs, at: builder.span(node.firstChild ?? node), range: builder.span(node) };
}

function argumentsOf(builder: Builder, node: LezerNode): Expression[] {
  return childrenOf(node)
    .slice(1)
    .filter(isExpressionNode)
    .map((part) => expression(builder, part, part.from));
}

function builtinCall(builder: Builder, node: LezerNode): Expression {
  const nameNode = node.firstChild!;
  const spelled = builder.text(nameNode);
  const name = vocabulary.canonical(spelled);
  if (!vocabulary.builtinNamed(name)) {
    builder.report(
      'flow.form.unknown-builtin',
      `${quoted(spelled)} is not a built-in function (known: ${vocabulary.sortedBuiltinNames().join(', ')}).`,
      builder.span(nameNode),
    );
  }
  return { kind: 'builtin', name, args: argumentsOf(builder, node), at: builder.span(nameNode), range: builder.span(node) };
}

function zipCall(builder: Builder, node: LezerNode): Expression {
  const nameNode = node.firstChild!;
  const name = vocabulary.canonical(builder.text(nameNode)) === 'interleave' ? 'interleave' : 'zip';
  const sources = argumentsOf(builder, node);
  if (sources.length === 0) {
    builder.report('flow.form.zip-empty', `'${name}' reads several streams as one, so it takes at least one.`, builder.span(nameNode));
  }
  return { kind: 'zip', name, sources, at: builder.span(nameNode), range: builder.span(node) };
}

/** `wait first of a, b` / `wait all of a, b`, at the head of a statement or as a value. */
export function waitRace(builder: Builder, node: LezerNode, rest: Partial<Wait> = {}, parts = childrenOf(node)): Wait {
  const keyword = parts[0]!;
  const first = parts.some((part) => part.name === 'First');
  const subjects = parts.filter((part, index) => index > 0 && isExpressionNode(part)).map((part) => reference(builder, part, part.from));
  if (subjects.length < 2) {
    const form = first ? 'first' : 'all';
    builder.report(
      'flow.form.wait-of-one',
      `'wait ${form} of' waits on several subjects; with one, write 'wait ${form}'s subject on its own.`,
      builder.span(keyword),
      'warning',
    );
  }
  return {
    kind: 'wait',
    form: first ? 'first' : 'all',
    subject: null,
    subjects,
    race: first,
    timeout: null,
    targets: [],
    after: [],
    at: builder.span(keyword),
    range: builder.span(node),
    ...rest,
  };
}

/**
 * A port or a node — what a pipe writes to and what `wait`, `drain`, `status` and a counted `skip`
 * take. Read as a postfix expression; anything but a name, an attribute or a status is reported.
 */
export function reference(builder: Builder, node: LezerNode | null | undefined, offset: number): Expression {
  if (!node) return builder.errorNode(offset, 'a port or a node');
  const built = value(builder, node);
  if (built.kind !== 'name' && built.kind !== 'attr' && built.kind !== 'outcome' && built.kind !== 'error') {
    builder.reportAt('flow.syntax.unexpected', "Expected a port or a node here, like 'out-port' or 'call.port'.", node.from);
  }
  return built;
}

// --- types ------------------------------------------------------------------------------------

export function typeExpression(builder: Builder, node: LezerNode | null, offset: number): TypeExpression {
  if (!node) {
    const at = builder.tokenSpanAt(offset);
    return { at, range: at, name: '', parameters: [], quoted: false, sugared: false, written: '' };
  }
  const parts = childrenOf(node);
  const nameNode = parts.find((part) => part.name === 'TypeName');
  let type = typeName(builder, nameNode, node.from);
  const parameters = parts.filter((part) => part.name === 'Type').map((part) => typeExpression(builder, part, part.from));
  if (parameters.length > 0) {
    type = { ...type, parameters, written: `${type.name}[${parameters.map((parameter) => parameter.written).join(', ')}]` };
  }
  const lastParameterEnd = parts.filter((part) => part.name !== 'ArraySuffix').reduce((end, part) => Math.max(end, part.to), node.from);
  type = { ...type, range: { from: node.from, to: lastParameterEnd } };
  for (const suffix of parts.filter((part) => part.name === 'ArraySuffix')) {
    type = {
      at: { from: type.at.from, to: suffix.to },
      range: { from: node.from, to: suffix.to },
      name: 'list',
      parameters: [type],
      quoted: false,
      sugared: true,
      written: `${type.written}[]`,
    };
  }
  return type;
}

function typeName(builder: Builder, node: LezerNode | undefined, offset: number): TypeExpression {
  if (!node) return typeExpression(builder, null, offset);
  const first = node.firstChild!;
  if (first.name === 'String') {
    const name = stringRun(builder, first);
    return { at: builder.span(first), range: builder.span(node), name, parameters: [], quoted: true, sugared: false, written: name };
  }
  const name = childrenOf(node).filter((part) => part.name === 'Identifier').map((part) => builder.text(part)).join('.');
  return { at: builder.span(node), range: builder.span(node), name, parameters: [], quoted: false, sugared: false, written: name };
}

// --- pipelines ---------------------------------------------------------------------------------

/** `source | stage …` — a `Pipeline` node (or a bare expression standing for one). */
export function pipeline(builder: Builder, node: LezerNode | null | undefined, offset: number): Pipeline {
  if (!node) {
    const source = builder.errorNode(offset, 'a value');
    return { kind: 'pipeline', source, stages: [], at: source.at, range: source.range };
  }
  const parts = node.name === 'Pipeline' ? childrenOf(node) : [node];
  const sourceNode = parts[0] && isExpressionNode(parts[0]) ? parts[0] : undefined;
  const source = expression(builder, sourceNode, node.from);
  const stages: Stage[] = [];
  let tolerant = false;
  for (const part of parts) {
    if (part.name === 'Try') tolerant = true;
    if (part.name === 'Stage' || part.name === 'BareStage') {
      stages.push(stage(builder, part, tolerant, part.name === 'Stage'));
      tolerant = false;
    }
  }
  return { kind: 'pipeline', source, stages, at: builder.tokenSpanAt(node.from), range: builder.span(node) };
}

function pipelineValue(builder: Builder, node: LezerNode): Expression {
  const parts = childrenOf(node);
  const open = builder.span(parts[0]!);
  const sourceNode = parts.find(isExpressionNode);
  const source = expression(builder, sourceNode, open.to);
  const stages = parts.filter((part) => part.name === 'Stage').map((part) => stage(builder, part, false, true));
  return {
    kind: 'pipeline-value',
    pipeline: { kind: 'pipeline', source, stages, at: open, range: builder.span(node) },
    at: open,
    range: builder.span(node),
  };
}

const stageTokenNames = new Set([
  'StageNone', 'StageCount', 'StageExpression', 'StageOptionalExpression', 'StageString', 'StageOptionalString',
  'StageSort', 'StageFold', 'StageDuration', 'StageThen', 'StageLog', 'StageLogf', 'UnknownStage', 'BareThen', 'BareWhere',
]);

function stage(builder: Builder, node: LezerNode, tolerant: boolean, piped: boolean): Stage {
  const parts = childrenOf(node);
  const keyword = parts.find((part) => stageTokenNames.has(part.name)) ?? parts[0]!;
  const name = vocabulary.canonical(builder.text(keyword));
  const after = parts.slice(parts.indexOf(keyword) + 1);
  const tailStart = after.findIndex((part) => part.name === 'Parallel' || part.name === 'Unordered' || part.name === 'Into');
  const argumentParts = tailStart < 0 ? after : after.slice(0, tailStart);
  const tail = tailStart < 0 ? [] : after.slice(tailStart);
  const at = builder.span(keyword);

  let argument: StageArgument | null;
  if (keyword.name === 'UnknownStage') {
    builder.report('flow.form.unknown-stage', `Unknown stage ${quoted(name)} (known: ${vocabulary.sortedStageNames().join(', ')}).`, at);
    argument = null;
  } else {
    argument = stageArgument(builder, keyword, name, argumentParts);
  }

  let parallel = 1;
  let ordered = true;
  let failures: Expression | null = null;
  for (let index = 0; index < tail.length; index += 1) {
    const part = tail[index]!;
    if (part.name === 'Parallel') {
      const count = tail[index + 1];
      if (count?.name === 'Number') {
        parallel = Math.trunc(numberValue(builder.text(count)).value);
        index += 1;
      }
    } else if (part.name === 'Unordered') {
      ordered = false;
    } else if (part.name === 'Into') {
      const target = tail[index + 1];
      failures = reference(builder, target && isExpressionNode(target) ? target : null, part.to);
      if (target && isExpressionNode(target)) index += 1;
    }
  }
  if (argument !== null) {
    if (parallel > 1 && !vocabulary.parallelStageNames.includes(name)) {
      builder.report(
        'flow.form.stage-not-parallel',
        `'${name}' reads the whole stream, so there is nothing for 'parallel' to run at once. It goes on a stage that reshapes each value, like 'map'.`,
        at,
      );
      parallel = 1;
    }
    if (!ordered && parallel <= 1) {
      builder.report(
        'flow.form.unordered-without-parallel',
        `'unordered' says a parallel stage may finish its values in any order, so it needs 'parallel n'. Without it, '${name}' sees one value at a time and the order is the one it was given.`,
        at,
        'warning',
      );
      ordered = true;
    }
    if (failures !== null && !tolerant) {
      builder.report(
        'flow.form.into-without-try',
        `'into' says where a *tolerated* failure goes, so the stage has to be a 'try': \`try ${name} ... into failures\`.`,
        at,
      );
    }
  }
  return { kind: 'stage', name, piped, argument, tolerant, failures, parallel, ordered, at, range: builder.span(node) };
}

/** The node right after `node` (comments aside), error markers included. */
export function nextOf(node: LezerNode): LezerNode | null {
  let next = node.nextSibling;
  while (next && next.name === 'Comment') next = next.nextSibling;
  return next;
}

function stageArgument(builder: Builder, keyword: LezerNode, name: string, allParts: LezerNode[]): StageArgument {
  const takes = vocabulary.stageNamed(name)?.takes ?? 'none';
  // A literal argument is read from the token right after the name, or not at all.
  const direct = nextOf(keyword);
  const parts = direct?.type.isError && (takes === 'number' || takes === 'string' || takes === 'fold') ? [] : allParts;
  const expressionPart = parts.find(isExpressionNode);
  switch (takes) {
    case 'none':
      return { takes };
    case 'number': {
      const count = parts.find((part) => part.name === 'Number');
      if (!count) {
        builder.reportAt('flow.form.stage-argument', `Expected a count for ${quoted(name)}, found ${builder.found(keyword.to)}.`, keyword.to);
        return { takes, count: null, isInteger: false, at: null };
      }
      const parsed = numberValue(builder.text(count));
      return { takes, count: parsed.value, isInteger: parsed.isInteger, at: builder.span(count) };
    }
    case 'string':
    case 'string?': {
      const text = parts.find((part) => part.name === 'String');
      if (!text && takes === 'string') {
        builder.reportAt('flow.form.stage-argument', `Expected a pattern for ${quoted(name)}, found ${builder.found(keyword.to)}.`, keyword.to);
      }
      return { takes, text: text ? stringRun(builder, text) : null, at: text ? builder.span(text) : null };
    }
    case 'expr':
    case 'expr?':
      return {
        takes,
        expression: expressionPart || takes === 'expr' ? expression(builder, expressionPart, keyword.to) : null,
      };
    case 'stream':
      return { takes, source: expressionPart ? value(builder, expressionPart) : builder.errorNode(keyword.to, 'a value') };
    case 'sort-key': {
      const by = parts.find((part) => part.name === 'By');
      return {
        takes,
        by: by ? expression(builder, expressionPart, by.to) : null,
        descending: parts.some((part) => part.name === 'Desc'),
      };
    }
    case 'fold':
      return foldArgument(builder, keyword, name, parts);
    case 'duration': {
      const duration = parts.find((part) => part.name === 'Duration');
      return { takes, seconds: duration ? durationSeconds(builder.text(duration)) : null, at: duration ? builder.span(duration) : null };
    }
    case 'log':
    case 'logf':
      return { takes, log: logTail(builder, keyword, parts, takes === 'logf', true) };
  }
}

/** Where recovery left error markers in a record: directly between its pairs, or inside one. */
function childErrors(node: LezerNode): { direct: number | null; nested: boolean } {
  let direct: number | null = null;
  let nested = false;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.type.isError && child.from < child.to && direct === null) direct = child.from;
    else if (child.name === 'Pair' && child.lastChild && !child.lastChild.type.isError && hasError(child.lastChild)) nested = true;
    else if (child.name === 'Spread' && hasError(child)) nested = true;
  }
  return { direct, nested };
}

function hasError(node: LezerNode): boolean {
  let found = false;
  node.toTree().iterate({
    enter(ref) {
      if (ref.type.isError) found = true;
      return !found;
    },
  });
  return found;
}

const foldStartNames = new Set(['Number', 'StringLiteral', 'String', 'Duration', 'True', 'False', 'Null', 'Record']);

function foldArgument(builder: Builder, keyword: LezerNode, name: string, parts: LezerNode[]): StageArgument {
  const startNode = parts[0] && foldStartNames.has(parts[0].name) ? parts[0] : undefined;
  let start = null;
  if (startNode?.name === 'Record') {
    // A record the reference could not read to its end holds an error value (so it is not a
    // constant) — unless what went wrong is after its last pair, where the record simply ended.
    const stray = childErrors(startNode);
    start = stray.nested ? null : constantValue(record(builder, startNode));
    if (stray.direct !== null && !stray.nested) {
      builder.reportAt(
        'flow.form.fold-name',
        `'${name}' names what it carries: \`${name} 0 as total, total + it\`. Found ${builder.found(stray.direct)}.`,
        stray.direct,
      );
      return { takes: 'fold', start, carried: null, expression: null };
    }
    if (start === null) {
      builder.reportAt(
        'flow.form.fold-start',
        `'${name}' starts from a value that is known before the stream is, so the record it starts from cannot read \`it\` or anything else the stream carries.`,
        startNode.from,
      );
    }
  } else if (startNode) {
    const literal = value(builder, startNode);
    start = literal.kind === 'literal' ? literal.value : null;
  } else {
    builder.reportAt(
      'flow.form.fold-start',
      `'${name}' starts from a literal -- a number, a string, a duration, a record, true, false or null -- and found ${builder.found(keyword.to)}.`,
      keyword.to,
    );
  }
  const as = parts.find((part) => part.name === 'As');
  if (!as) {
    const offset = startNode ? startNode.to : keyword.to;
    builder.reportAt(
      'flow.form.fold-name',
      `'${name}' names what it carries: \`${name} 0 as total, total + it\`. Found ${builder.found(offset)}.`,
      offset,
    );
    return { takes: 'fold', start, carried: null, expression: null };
  }
  const carriedNode = parts.find((part) => part.name === 'Identifier' && part.from > as.from);
  const comma = parts.find((part) => part.name === ',');
  const expressionNode = comma ? parts.find((part) => part.from > comma.from && isExpressionNode(part)) : undefined;
  return {
    takes: 'fold',
    start,
    carried: carriedNode ? word(builder, carriedNode) : null,
    expression: comma ? expression(builder, expressionNode, comma.to) : null,
  };
}

/** What `log`/`logf` carry, as a statement (`inStage` false) or a stage. */
export function logTail(builder: Builder, keyword: LezerNode, parts: LezerNode[], formatted: boolean, inStage: boolean) {
  const levelNode = parts.find((part) => part.name === 'LogLevel' || part.name === 'LogfLevel');
  const formatNode = parts.find((part) => part.name === 'FormatString');
  const values = parts.filter(isExpressionNode);
  const afterLevel = levelNode ? levelNode.to : keyword.to;
  if (formatted && !formatNode) {
    builder.reportAt(
      'flow.form.log-format',
      `A 'logf' takes a format to fill, found ${builder.found(afterLevel)}; write 'log' to log a value as it is.`,
      afterLevel,
    );
  }
  if (!formatted && !inStage && values.length === 0) {
    builder.reportAt(
      'flow.form.log-value',
      levelNode
        ? `A 'log' takes something to log after the level. (If ${quoted(builder.text(levelNode))} is the value, a level of the same name is read first; write the level too.)`
        : "A 'log' takes something to log.",
      afterLevel,
    );
  }
  return {
    level: levelNode ? word(builder, levelNode) : null,
    format: formatNode ? stringRun(builder, formatNode) : null,
    arguments: values.map((part) => expression(builder, part, part.from)),
  };
}

/**
 * What the reference reads where recovery skipped a token it then took as the next part: a
 * name, when the skipped token is a word; otherwise a value that could not be read.
 */
export function valueAtSkipped(builder: Builder, skipped: LezerNode): Expression {
  const token = builder.tokenAt(skipped.from);
  if (token.kind === 'word') {
    const text = builder.source.slice(token.from, token.to);
    const at = { from: token.from, to: token.to };
    return { kind: 'name', name: text, at, range: at };
  }
  return builder.errorNode(skipped.from, 'a value');
}

/** Spans helpers for statements. */
export function spanOf(builder: Builder, node: LezerNode): Span {
  return builder.span(node);
}
