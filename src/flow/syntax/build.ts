/**
 * Declarations — structs, fields, flows, ports, headers — and the file: the top of the
 * conversion from the Lezer tree to the syntax tree.
 */
import type { NodeView as LezerNode } from '../../../grammar/buffer-nodes';
import * as vocabulary from '../vocabulary';
import type {
  Constant,
  FieldDeclaration,
  FieldRange,
  FlowDeclaration,
  HeaderDeclaration,
  PortDeclaration,
  SourceFile,
  Statement,
  StructDeclaration,
  TypeExpression,
  Word,
} from './ast';
import { Builder, childNamed, childrenOf, hasError, nextOf, quoted } from './builder';
import { expression, isExpressionNode, numberConstant, stringRun, typeExpression, word } from './build-expressions';
import { isStatementNode, statement } from './build-statements';
import { constantValue } from './constant';
import { durationSeconds } from './literals';

/** The syntax tree of a whole file, with what the reading found wrong recorded in `builder`. */
export function buildSourceFile(builder: Builder, top: LezerNode): SourceFile {
  const flows: FlowDeclaration[] = [];
  const structs: StructDeclaration[] = [];
  for (const part of childrenOf(top)) {
    if (part.name === 'FlowDeclaration') flows.push(flowDeclaration(builder, part));
    else if (part.name === 'StructDeclaration') structs.push(structDeclaration(builder, part));
  }
  if (flows.length === 0 && structs.length === 0) {
    builder.reportAt('flow.syntax.unexpected', 'A flow file must declare at least one flow or struct.', builder.source.length);
  }
  return { kind: 'source', flows, structs, at: { from: 0, to: 0 }, range: { from: 0, to: builder.source.length } };
}

/** A description: the runs of strings after a declaration, on its line and alone on lines below. */
function description(builder: Builder, node: LezerNode | null): string {
  if (!node) return '';
  return childrenOf(node)
    .map((part) => stringRun(builder, part))
    .join('');
}

function nameOf(builder: Builder, node: LezerNode | null, offset: number): Word {
  if (!node) return { text: '', at: builder.tokenSpanAt(offset) };
  const first = node.firstChild;
  if (node.name === 'FlowName' && first?.name === 'String') return { text: stringRun(builder, first), at: builder.span(first) };
  if (node.name === 'FlowName') {
    const parts = childrenOf(node).filter((part) => part.name === 'Identifier');
    return { text: parts.map((part) => builder.text(part)).join('.'), at: builder.span(node) };
  }
  return word(builder, node);
}

// --- structs -----------------------------------------------------------------------------------

function structDeclaration(builder: Builder, node: LezerNode): StructDeclaration {
  const parts = childrenOf(node);
  const keyword = parts[0]!;
  const name = nameOf(builder, childNamed(node, 'Identifier'), keyword.to);
  const outer = builder.flowName;
  builder.flowName = name.text;
  let text = '';
  const fields: FieldDeclaration[] = [];
  const structBody = childNamed(node, 'StructBody');
  for (const item of structBody ? childrenOf(structBody) : []) {
    if (item.name === 'DescribeItem') text = description(builder, childNamed(item, 'Description'));
    else if (item.name === 'FieldDeclaration') fields.push(fieldDeclaration(builder, item));
  }
  builder.flowName = outer;
  return { kind: 'struct', name, description: text, fields, at: builder.span(keyword), range: builder.span(node) };
}

const modifierOrder = vocabulary.fieldModifierWords;

function fieldDeclaration(builder: Builder, node: LezerNode): FieldDeclaration {
  const parts = childrenOf(node);
  const nameNode = parts[0]!;
  const colon = parts.find((part) => part.name === ':');
  const type = typeExpression(builder, childNamed(node, 'Type'), colon ? colon.to : nameNode.to);
  let required = false;
  let unique = false;
  let bounds: FieldRange | null = null;
  let pattern: string | null = null;
  let oneOf: Constant[] | null = null;
  let defaultValue: Constant | null = null;
  let reached = -1;
  const ordered = (modifier: string, at: LezerNode): void => {
    const rank = modifierOrder.indexOf(modifier);
    if (rank < reached) {
      builder.report(
        'flow.form.field-modifier-order',
        `${quoted(modifier)} is written before ${quoted(modifierOrder[reached]!)}; a field's modifiers read ${modifierOrder.join(', ')}.`,
        builder.span(at),
        'warning',
      );
    }
    reached = Math.max(reached, rank);
  };
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    const next = parts[index + 1];
    switch (part.name) {
      case 'Required':
        ordered('required', part);
        required = true;
        break;
      case 'Unique':
        ordered('unique', part);
        unique = true;
        break;
      case 'Matching':
        ordered('matching', part);
        if (next?.name === 'String') pattern = stringRun(builder, next);
        break;
      case 'One':
        ordered('one of', part);
        oneOf = enumeration(builder, parts.slice(index + 1).find(isExpressionNode)) ?? oneOf;
        break;
      case 'Default': {
        ordered('default', part);
        const valueNode = parts.slice(index + 1).find(isExpressionNode);
        defaultValue = constantAt(builder, valueNode, part.to, "A field's default is a constant value.") ?? defaultValue;
        break;
      }
      case 'FieldRange':
        bounds = fieldRange(builder, part, bounds);
        break;
      default:
        break;
    }
  }
  return {
    kind: 'field',
    name: word(builder, nameNode),
    type,
    required,
    unique,
    bounds,
    pattern,
    oneOf,
    defaultValue,
    description: description(builder, childNamed(node, 'Description')),
    at: builder.span(nameNode),
    range: builder.span(node),
  };
}

function fieldRange(builder: Builder, node: LezerNode, existing: FieldRange | null): FieldRange | null {
  const parts = childrenOf(node);
  const dots = parts.findIndex((part) => part.name === 'Range');
  const boundOf = (part: LezerNode | undefined): Constant | null => {
    if (!part) return null;
    if (part.name === 'Duration') return { kind: 'duration', seconds: durationSeconds(builder.text(part)) };
    return part.name === 'Number' ? numberConstant(builder, part) : null;
  };
  if (dots < 0) {
    // A bound with no `..` after it: the reference wanted one there.
    const low = parts[0];
    if (low) builder.reportAt('flow.syntax.unexpected', `Expected '..' after ${quoted(builder.text(low))} to make it a range.`, low.from);
    return existing;
  }
  const minimum = dots > 0 ? boundOf(parts[0]) : null;
  const maximum = boundOf(parts[dots + 1]);
  if (minimum === null && maximum === null) {
    builder.reportAt('flow.form.empty-range', "A range bounds something: write '1..', '..200' or '1..200'.", node.from);
    return existing;
  }
  if (existing !== null) {
    builder.reportAt('flow.form.repeated-modifier', 'A field has one range.', node.from);
    return existing;
  }
  return { minimum, maximum };
}

function enumeration(builder: Builder, node: LezerNode | undefined): Constant[] | null {
  if (!node) return null;
  const built = expression(builder, node, node.from);
  const constant = constantValue(built);
  if (constant === null) {
    if (built.kind !== 'error' && !hasError(node)) builder.reportAt('flow.syntax.constant-required', "'one of' takes a list of constant values.", node.from);
    return null;
  }
  if (constant.kind !== 'list') {
    builder.reportAt('flow.form.one-of-not-a-list', `'one of' takes a list: write 'one of ["a", "b"]'.`, node.from);
    return null;
  }
  if (constant.items.length === 0) {
    builder.reportAt('flow.form.one-of-empty', "'one of []' allows nothing, so nothing would validate.", node.from);
  }
  return [...constant.items];
}

/** A constant where the grammar requires one (a default), or null with `message` reported. */
function constantAt(builder: Builder, node: LezerNode | undefined, offset: number, message: string): Constant | null {
  const built = expression(builder, node, offset);
  const constant = constantValue(built);
  if (constant === null && built.kind !== 'error' && !(node && hasError(node))) {
    builder.reportAt('flow.syntax.constant-required', message, node ? node.from : offset);
  }
  return constant;
}

// --- flows -------------------------------------------------------------------------------------

function flowDeclaration(builder: Builder, node: LezerNode): FlowDeclaration {
  const parts = childrenOf(node);
  const keyword = parts[0]!;
  const nameNode = childNamed(node, 'FlowName');
  const entry = nameNode === null;
  const name = entry ? { text: '', at: builder.span(keyword) } : nameOf(builder, nameNode, keyword.to);
  const outer = builder.flowName;
  builder.flowName = name.text || undefined;
  let text = '';
  const ports: PortDeclaration[] = [];
  const headers: HeaderDeclaration[] = [];
  const body: Statement[] = [];
  const flowBody = childNamed(node, 'FlowBody');
  for (const item of flowBody ? childrenOf(flowBody) : []) {
    if (item.name === 'DescribeItem') text = description(builder, childNamed(item, 'Description'));
    else if (item.name === 'PortDeclaration') ports.push(portDeclaration(builder, item));
    else if (item.name === 'HeaderDeclaration') headers.push(headerDeclaration(builder, item));
    else if (isStatementNode(item)) body.push(statement(builder, item));
  }
  builder.flowName = outer;
  return { kind: 'flow', name, entry, description: text, ports, headers, body, at: builder.span(keyword), range: builder.span(node) };
}

function portDeclaration(builder: Builder, node: LezerNode): PortDeclaration {
  const parts = childrenOf(node);
  const keyword = parts[0]!;
  const name = nameOf(builder, parts[1]?.name === 'Identifier' ? parts[1] : null, keyword.to);
  const misplaced = parts.find((part) => part.name === 'MisplacedModifier');
  const typeNode = childNamed(node, 'Type');
  let unary = true;
  let required = false;
  let type: TypeExpression;
  if (misplaced) {
    const written = builder.text(misplaced);
    builder.report(
      'flow.form.port-modifier-order',
      `${quoted(written)} follows the type: write '${name.text}: TYPE ${written}'.`,
      builder.span(misplaced),
    );
    if (vocabulary.canonical(written) === 'stream') unary = false;
    else required = true;
    const at = builder.span(misplaced);
    type = typeNode
      ? typeExpression(builder, typeNode, misplaced.to)
      : { at, range: at, name: written, parameters: [], quoted: false, sugared: false, written };
  } else if (parts[1]?.name === 'Identifier' && nextOf(parts[1])?.type.isError && nextOf(parts[1])!.from < nextOf(parts[1])!.to) {
    // `in name word: …` — the colon missing: the reference reads the type where it should be.
    const skipped = nextOf(parts[1])!;
    const token = builder.tokenSpanAt(skipped.from);
    const written = builder.tokenAt(skipped.from).kind === 'word' ? builder.text(token) : '';
    type = { at: token, range: token, name: written, parameters: [], quoted: false, sugared: false, written };
  } else {
    const colon = parts.find((part) => part.name === ':');
    const afterColon = colon ? nextOf(colon) : null;
    // Something unreadable where the type starts: the reference's type is an empty name there.
    type = afterColon?.type.isError ? typeExpression(builder, null, afterColon.from) : typeExpression(builder, typeNode, colon ? colon.to : node.to);
  }
  for (const part of parts) {
    if (part.name === 'Stream') unary = false;
    if (part.name === 'Required') required = true;
  }
  return {
    kind: 'port',
    name,
    direction: keyword.name === 'PortIn' ? 'inputs' : 'outputs',
    type,
    unary,
    required,
    description: description(builder, childNamed(node, 'Description')),
    at: builder.span(keyword),
    range: builder.span(node),
  };
}

function headerDeclaration(builder: Builder, node: LezerNode): HeaderDeclaration {
  const parts = childrenOf(node);
  const keyword = parts[0]!;
  const nameNode = parts.find((part) => part.name === 'String');
  const headerName = nameNode ? stringRun(builder, nameNode) : '';
  const as = parts.find((part) => part.name === 'As');
  const aliasNode = as ? parts.find((part) => part.name === 'Identifier' && part.from > as.from) : undefined;
  const defaultWord = parts.find((part) => part.name === 'Default');
  const valueNode = defaultWord ? parts.find((part) => part.from > defaultWord.from && isExpressionNode(part)) : undefined;
  return {
    kind: 'header',
    name: headerName,
    nameAt: nameNode ? builder.span(nameNode) : builder.tokenSpanAt(keyword.to),
    alias: aliasNode
      ? word(builder, aliasNode)
      : { text: headerName.replace(/[-.]/g, '_'), at: builder.span(keyword) },
    defaultValue: defaultWord ? constantAt(builder, valueNode, defaultWord.to, 'Expected a constant value.') : null,
    description: description(builder, childNamed(node, 'Description')),
    at: builder.span(keyword),
    range: builder.span(node),
  };
}
