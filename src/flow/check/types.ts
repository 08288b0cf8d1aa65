/**
 * What a written type means — decided in one place, because a port, a struct field and a cast
 * must agree about it. The order is the rule: a built-in name first (nothing can redefine
 * `string`), then a struct this file declares, then a mimetype or a dotted registry tag, which
 * only the host can check. An undotted name that is none of these is far more often a misspelt
 * built-in than a tag, so it is reported.
 */

import type { Constant, TypeExpression } from '../syntax/ast.js';
import { builtinTypeNamed, canonical, sortedTypeNames } from '../vocabulary.js';
import type { TypeRef } from '../program.js';
import type { ProblemFix } from '../diagnostics/diagnostic.js';
import { replaceWith } from './report.js';
import { nearest } from './suggest.js';

export type TypeProblemReporter = (message: string, at: TypeExpression['at'], fixes?: ProblemFix[]) => void;

export class TypeReader {
  constructor(
    private readonly structs: ReadonlySet<string>,
    private readonly report: TypeProblemReporter,
  ) {}

  /** What the type is, reporting an unknown name or a wrong number of parameters. */
  read(type: TypeExpression): TypeRef {
    const resolved = (name: string, allowed: readonly number[], struct: string | null = null): TypeRef => {
      const parameters = type.parameters.map((parameter) => this.read(parameter));
      this.checkParameters(type, allowed);
      return { declared: type.written, name, struct, parameters };
    };
    if (type.quoted) return resolved(type.name, [0]);
    const folded = canonical(type.name);
    const builtin = builtinTypeNamed(type.name);
    if (builtin) return resolved(folded, builtin.parameterCounts);
    if (this.structs.has(type.name)) return resolved(type.name, [0], type.name);
    if (type.name.includes('/') || type.name.includes('.')) return resolved(type.name, [0]);
    const suggestion = nearest(type.name, [...sortedTypeNames(), ...this.structs]);
    this.report(
      `Unknown type '${type.name}'${suggestion ? `; did you mean '${suggestion}'?` : '.'} A type is one of ${sortedTypeNames().join(', ')}; a struct this file declares; a registry tag with dots, like 'a11.sdk.AudioBuffer'; or a quoted mimetype.`,
      type.at,
      suggestion && type.at.to - type.at.from === type.name.length ? replaceWith(type.at, suggestion, type.name) : undefined,
    );
    return { declared: type.written, name: type.name, struct: null, parameters: [] };
  }

  /** The struct the type names directly, if any (not through a parameter). */
  structOf(type: TypeExpression): string | null {
    if (type.quoted || builtinTypeNamed(type.name)) return null;
    return this.structs.has(type.name) ? type.name : null;
  }

  private checkParameters(type: TypeExpression, allowed: readonly number[]): void {
    const given = type.parameters.length;
    if (allowed.includes(given)) return;
    const counts = allowed.join(' or ');
    this.report(
      `'${type.name}' takes ${counts} type parameter${allowed.length === 1 && allowed[0] === 1 ? '' : 's'}, and ${type.written} gives it ${given}. Write it as ${suggestion(type, allowed)}.`,
      type.at,
    );
  }
}

function suggestion(type: TypeExpression, allowed: readonly number[]): string {
  if (allowed.length === 1 && allowed[0] === 0) return `'${type.name}'`;
  return `'${type.name}' or '${type.name}[${allowed.includes(2) ? 'string, T' : 'T'}]'`;
}

const TEXT_TYPES = new Set(['string', 'text']);
const SIZED_TYPES = new Set(['string', 'text', 'bytes', 'list', 'array', 'object', 'json']);
const SCALAR_TYPES = new Set(['number', 'integer', 'int', 'duration', 'time']);

/** Whether a value of this built-in type is text (what `matching` needs). */
export const isTextType = (type: string): boolean => TEXT_TYPES.has(type);
/** Whether a range on it bounds a length. */
export const isSizedType = (type: string): boolean => SIZED_TYPES.has(type);
/** Whether a range on it bounds the value itself. */
export const isScalarType = (type: string): boolean => SCALAR_TYPES.has(type);

/**
 * Whether a constant could be a value of the named type. Generous on purpose: it catches a
 * `default "yes"` on a `bool`, not every way a value could fail to fit later.
 */
export function constantFits(value: Constant, type: string): boolean {
  if (type === 'any' || type === 'json' || value.kind === 'null') return true;
  switch (value.kind) {
    case 'bool':
      return type === 'bool' || type === 'boolean';
    case 'integer':
      return type === 'number' || type === 'integer' || type === 'int' || type === 'duration' || type === 'time';
    case 'number':
      return type === 'number' || type === 'duration' || type === 'time';
    case 'string':
      return TEXT_TYPES.has(type) || type === 'bytes' || type === 'time' || type === 'duration';
    case 'duration':
      return type === 'duration';
    case 'list':
      return type === 'list' || type === 'array';
    case 'object':
      return type === 'object';
  }
}

/** A constant's kind as a message names it. */
export function constantKindName(value: Constant): string {
  return value.kind === 'number' ? 'double' : value.kind;
}
