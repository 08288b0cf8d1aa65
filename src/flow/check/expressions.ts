/**
 * Expressions: every name bound to the ref it reads, `it` allowed only inside a stage, fields
 * checked against what the file says a value holds, and `Struct{…}` literals against the struct.
 * The result is the program's {@link Expr}, names already resolved.
 */

import type { Expression, ObjectLiteral, Span, Spread } from '../syntax/ast.js';
import { constantValue } from '../syntax/constant.js';
import type { Expr, ObjectEntry, SpreadExpr, StructShape, TypeRef } from '../program.js';
import { allHolesNamed, compilePattern } from '../pattern.js';
import { FlowContext, type FlowSymbol, type Scope } from './context.js';
import { NO_REF } from './graph.js';
import { asStream, attrStream, resolveOutcome, resolvePipeline } from './streams.js';
import { constantFits, constantKindName, TypeReader } from './types.js';

const NULL_LITERAL = (at: Span): Expr => ({ kind: 'literal', value: { kind: 'null' }, at });

/**
 * Resolves an expression. `allowIt` is what a stage passes: the only place `it` means a value.
 * Returns null only for a missing expression.
 */
export function resolveExpression(ctx: FlowContext, node: Expression | null | undefined, scope: Scope, allowIt: boolean): Expr | null {
  if (!node) return null;
  return walk(ctx, node, scope, allowIt);
}

function walk(ctx: FlowContext, node: Expression, scope: Scope, allowIt: boolean): Expr {
  const at = node.at;
  switch (node.kind) {
    case 'it':
      if (!allowIt) {
        ctx.report('flow.name.it-outside-stage', "'it' is the value a stage like 'where', 'map' or 'group' is looking at, and there is no such stage here. Move this into a stage ('| map …'), or name the value instead.", at);
      }
      return { kind: 'it', at };
    case 'literal':
      return { kind: 'literal', value: node.value, at };
    case 'error':
      return NULL_LITERAL(at);
    case 'list':
      return { kind: 'list', items: node.items.map((item) => (item.kind === 'spread' ? spread(ctx, item, scope, allowIt) : walk(ctx, item, scope, allowIt))), at };
    case 'object':
      return {
        kind: 'object',
        entries: node.pairs.map((pair): ObjectEntry | SpreadExpr =>
          pair.kind === 'spread' ? spread(ctx, pair, scope, allowIt) : { kind: 'entry', key: pair.key, value: walk(ctx, pair.value, scope, allowIt), at: pair.at },
        ),
        at,
      };
    case 'builtin':
      return { kind: 'builtin', name: node.name, args: node.args.map((argument) => walk(ctx, argument, scope, allowIt)), at };
    case 'typed-value': {
      const type = typeOf(ctx, node.type);
      const shape = ctx.known.structs.find((struct) => struct.name === node.type.name);
      if (shape) checkStructLiteral(ctx, shape, node.value);
      return { kind: 'typed', type, value: walk(ctx, node.value, scope, allowIt), at };
    }
    case 'unary':
      return { kind: 'not', operand: walk(ctx, node.operand, scope, allowIt), at };
    case 'binary':
      return { kind: 'binary', op: node.op, left: walk(ctx, node.left, scope, allowIt), right: walk(ctx, node.right, scope, allowIt), at };
    case 'pipeline-value':
      return { kind: 'ref', ref: resolvePipeline(ctx, node.pipeline, scope).ref, at };
    case 'outcome':
      return { kind: 'ref', ref: resolveOutcome(ctx, node.subject, scope).ref, at };
    case 'name':
      return { kind: 'ref', ref: asStream(ctx, node, scope)?.ref ?? NO_REF, at };
    case 'attr': {
      const named = attrStream(ctx, node, scope);
      if (named) return { kind: 'ref', ref: named.ref, at };
      checkMember(ctx, node, scope);
      return { kind: 'attr', base: walk(ctx, node.base, scope, allowIt), name: node.name, at };
    }
    case 'index':
      return { kind: 'index', base: walk(ctx, node.base, scope, allowIt), index: walk(ctx, node.index, scope, allowIt), at };
    default:
      ctx.report('flow.syntax.unexpected', `A ${node.kind === 'zip' ? `'${node.name}'` : `'${node.kind}'`} reads streams and cannot stand where a value is computed; make it the source of a pipeline instead.`, at);
      return NULL_LITERAL(at);
  }
}

function spread(ctx: FlowContext, item: Spread, scope: Scope, allowIt: boolean): SpreadExpr {
  return { kind: 'spread', value: walk(ctx, item.value, scope, allowIt), at: item.at };
}

/**
 * A cast's type. A built-in name is either known or misspelt, so an undotted name is checked; a
 * tag or a mimetype is left to the host, the only one that knows what it has registered.
 */
function typeOf(ctx: FlowContext, type: Extract<Expression, { kind: 'typed-value' }>['type']): TypeRef {
  const checked = !type.name.includes('.') && !type.name.includes('/') && !type.quoted;
  const reader = new TypeReader(ctx.known.structNames, (message, at, fixes) => {
    if (checked) ctx.report('flow.form.unknown-type', message, at, fixes);
  });
  return reader.read(type);
}

/** What a value is known to hold: a struct a port was typed with, or the holes of a `match` pattern. */
interface KnownFields {
  subject: string;
  names: string[];
}

function fieldsOfPattern(text: string): KnownFields | null {
  if (!text) return null;
  const compiled = compilePattern(text);
  if (!compiled.ok || !allHolesNamed(compiled.pattern)) return null;
  return { subject: 'the pattern', names: compiled.pattern.holes.map((hole) => hole.name) };
}

function fieldsOfSymbol(ctx: FlowContext, symbol: FlowSymbol): KnownFields | null {
  if (symbol.kind === 'value') return fieldsOfPattern(symbol.pattern);
  if (symbol.kind !== 'input-port' && symbol.kind !== 'output-port') return null;
  const port = ctx.portNamed(symbol.name, symbol.kind === 'input-port' ? 'inputs' : 'outputs');
  const shape = port?.struct ? ctx.known.structs.find((struct) => struct.name === port.struct) : undefined;
  return shape ? { subject: `'${shape.name}'`, names: shape.fields.map((field) => field.name) } : null;
}

/**
 * `x.field` against what `x` is known to hold — one level deep, and only where the file said
 * what the value is, so this never reports a field a value might well have.
 */
function checkMember(ctx: FlowContext, attr: Extract<Expression, { kind: 'attr' }>, scope: Scope): void {
  let known: KnownFields | null = null;
  if (attr.base.kind === 'it') {
    known = fieldsOfPattern(ctx.itPattern);
  } else if (attr.base.kind === 'name') {
    const symbol = ctx.find(scope, attr.base.name);
    if (!symbol) return;
    known = fieldsOfSymbol(ctx, symbol);
  }
  if (!known || known.names.length === 0 || known.names.includes(attr.name)) return;
  ctx.report('flow.form.unknown-field', `${known.subject} has no field '${attr.name}'; it has ${known.names.join(', ')}. Read one of those.`, attr.at);
}

/**
 * `Struct{…}` against the struct: a key it does not have, a constant that cannot be the field's
 * type, and — unless something is spread in, which makes the keys a run-time fact — a required
 * field left out.
 */
function checkStructLiteral(ctx: FlowContext, shape: StructShape, value: Expression): void {
  if (value.kind !== 'object') return;
  const literal: ObjectLiteral = value;
  const given = new Set<string>();
  let spreads = false;
  for (const pair of literal.pairs) {
    if (pair.kind === 'spread') {
      spreads = true;
      continue;
    }
    given.add(pair.key);
    const field = shape.fields.find((one) => one.name === pair.key);
    if (!field) {
      ctx.report('flow.form.unknown-field', `'${shape.name}' has no field '${pair.key}'; it has ${shape.fields.map((one) => one.name).join(', ')}. Remove the key, or add the field to the struct.`, pair.value.at);
      continue;
    }
    const constant = constantValue(pair.value);
    if (!constant || field.struct !== null || constantFits(constant, field.type)) continue;
    ctx.report('flow.form.field-type-mismatch', `'${pair.key}' of '${shape.name}' holds ${field.declared}, and this is a ${constantKindName(constant)}.`, pair.value.at);
  }
  if (spreads) return;
  const missing = shape.fields.filter((field) => field.required && field.defaultValue === null && !given.has(field.name)).map((field) => field.name);
  if (missing.length === 0) return;
  ctx.report('flow.form.missing-field', `'${shape.name}' requires ${missing.join(', ')}, which this leaves out. Give ${missing.length === 1 ? 'it' : 'them'} a value here, or a default in the struct.`, value.at);
}
