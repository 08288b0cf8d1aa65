/**
 * Expressions, types and pipelines: from the Lezer tree to the syntax tree.
 */
import type { NodeView as LezerNode } from '../../../grammar/buffer-nodes';
import * as vocabulary from '../vocabulary';
import type {
  BinaryOperator,
  Expression,
  ObjectPair,
  ScalarConstant,
  Spread,
  TypeExpression,
  Wait,
  Word,
} from './ast';
import { Builder, childNamed, childrenOf, hasError, nextOf, quoted } from './builder';
import { pipelineValue } from './build-pipelines';
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
  // Comparisons do not chain: `a < b < c` is read as `a < b`, and the reference stops at the
  // second operator.
  if (node.name === 'CompareExpression' && parts[0]?.name === 'CompareExpression' && operator) {
    builder.reportAt('flow.syntax.unexpected', `Expected the end of the comparison, found ${builder.found(operator.from)}.`, operator.from);
    if (!withinBrackets(node)) {
      builder.reportAt('flow.syntax.statement-end', `Unexpected ${builder.found(operator.from)} after a complete statement; one statement per line.`, operator.from);
    }
    return value(builder, parts[0]);
  }
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

const brackets = new Set(['List', 'Record', 'ParenExpression', 'PipelineValue', 'ArgumentList', 'BuiltinCall', 'ZipCall', 'IndexExpression']);

/** Whether `node` sits inside brackets of its statement (where the reference reads on past a
 * token it could not use, to the closing bracket). */
function withinBrackets(node: LezerNode): boolean {
  for (let at = node.parent; at; at = at.parent) {
    if (brackets.has(at.name)) return true;
    if (at.name.endsWith('Statement') || at.name === 'Bind' || at.name === 'FlowBody') return false;
  }
  return false;
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

