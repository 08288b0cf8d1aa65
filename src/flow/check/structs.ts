/**
 * The structs a file declares: their fields, the fields' types, and what is wrong with them.
 *
 * Resolved before any flow, because a port may name a struct and a struct may name another, in
 * any order. A duplicate struct, or one named like a built-in type, is reported and left out,
 * so nothing downstream wonders which `string` was meant.
 */

import type { Constant, FieldDeclaration, Span, StructDeclaration } from '../syntax/ast.js';
import type { FieldShape, StructShape } from '../program.js';
import { builtinTypeNamed } from '../vocabulary.js';
import type { Reporter } from './report.js';
import { constantFits, constantKindName, isScalarType, isSizedType, isTextType, TypeReader } from './types.js';

export function resolveStructs(declared: readonly StructDeclaration[], report: Reporter): StructShape[] {
  const kept: StructDeclaration[] = [];
  const names = new Set<string>();
  for (const declaration of declared) {
    const name = declaration.name.text;
    if (!name) continue;
    if (builtinTypeNamed(name)) {
      report('flow.form.struct-shadows-builtin', `The struct '${name}' is named like a built-in type, so nothing could ever name it. Give it a name of its own.`, declaration.name.at, name);
      continue;
    }
    if (names.has(name)) {
      report('flow.form.duplicate-struct', `The struct '${name}' is declared twice; rename or remove one of them.`, declaration.name.at, name);
      continue;
    }
    names.add(name);
    kept.push(declaration);
  }
  const shapes = kept.map((declaration) => resolveStruct(declaration, names, report));
  return markBinary(shapes);
}

function resolveStruct(declaration: StructDeclaration, structs: ReadonlySet<string>, report: Reporter): StructShape {
  const owner = declaration.name.text;
  const reader = new TypeReader(structs, (message, at, fixes) => report('flow.form.unknown-type', message, at, owner, fixes));
  const seen = new Set<string>();
  const fields: FieldShape[] = [];
  for (const field of declaration.fields) {
    if (!field.name.text) continue;
    if (seen.has(field.name.text)) {
      report('flow.form.duplicate-field', `'${owner}' declares the field '${field.name.text}' twice; keep one.`, field.name.at, owner);
      continue;
    }
    seen.add(field.name.text);
    fields.push(resolveField(field, owner, reader, report));
  }
  return { name: owner, description: declaration.description, fields, binary: false, at: declaration.name.at };
}

function resolveField(field: FieldDeclaration, owner: string, reader: TypeReader, report: Reporter): FieldShape {
  const type = reader.read(field.type);
  let element: string | null = null;
  let elementStruct: string | null = null;
  const parameter = field.type.parameters[0];
  if ((type.name === 'list' || type.name === 'array') && field.type.parameters.length === 1 && parameter) {
    element = reader.read(parameter).name;
    elementStruct = reader.structOf(parameter);
  }
  const shape: FieldShape = {
    name: field.name.text,
    declared: field.type.written,
    type: type.name,
    element,
    struct: reader.structOf(field.type),
    elementStruct,
    required: field.required,
    unique: field.unique,
    bounds: field.bounds && (field.bounds.minimum || field.bounds.maximum) ? field.bounds : null,
    pattern: field.pattern,
    oneOf: field.oneOf,
    defaultValue: field.defaultValue,
    description: field.description,
    at: field.name.at,
  };
  checkField(shape, owner, report);
  return shape;
}

function asNumber(value: Constant | null): number | null {
  if (!value) return null;
  if (value.kind === 'integer' || value.kind === 'number') return value.value;
  if (value.kind === 'duration') return value.seconds;
  return 0;
}

/** The constraints, against the type they are written on. */
function checkField(field: FieldShape, owner: string, report: Reporter): void {
  const { type, declared, name } = field;
  const at: Span = field.at;
  const fail = (code: Parameters<Reporter>[0], message: string) => report(code, message, at, owner);
  if (field.unique && type !== 'list' && type !== 'array') {
    fail('flow.form.field-constraint', `'unique' says no two items of a list are equal, and '${name}' holds one ${declared}, not a list. Drop 'unique', or make it a list.`);
  }
  if (field.pattern !== null && !isTextType(type)) {
    fail('flow.form.field-constraint', `'matching' tests text, and '${name}' holds ${declared}. Drop the pattern, or make the field a string.`);
  }
  const bounds = field.bounds;
  if (bounds && !isSizedType(type) && !isScalarType(type)) {
    fail('flow.form.field-constraint', `A range bounds a number or a length, and '${name}' holds ${declared}. Drop the range.`);
  }
  const minimum = asNumber(bounds?.minimum ?? null);
  const maximum = asNumber(bounds?.maximum ?? null);
  if (minimum !== null && maximum !== null && minimum > maximum) {
    fail('flow.form.empty-range', `The range on '${name}' has its low bound above its high bound, so no value fits. Swap them.`);
  }
  if (isSizedType(type) && !isScalarType(type) && minimum !== null && minimum < 0) {
    fail('flow.form.field-constraint', `A length is never negative, so the range on '${name}' starts below anything it could bound. Start it at 0 or more.`);
  }
  const shaped = field.struct !== null;
  if (field.defaultValue && !shaped && !constantFits(field.defaultValue, type)) {
    fail('flow.form.field-type-mismatch', `The default of '${name}' is a ${constantKindName(field.defaultValue)}, and the field holds ${declared}. Give it a default of that type.`);
  }
  if (field.defaultValue && field.required) {
    fail('flow.form.default-on-required', `'${name}' is required, so its default would never be used. Drop 'required' or the default.`);
  }
  if (field.oneOf && !shaped) {
    const misfit = field.oneOf.find((allowed) => !constantFits(allowed, type));
    if (misfit) {
      fail('flow.form.field-type-mismatch', `'one of' on '${name}' allows a ${constantKindName(misfit)}, and the field holds ${declared}. List values of that type.`);
    }
  }
}

/** Which structs hold bytes, following the structs they name until nothing changes. */
function markBinary(shapes: StructShape[]): StructShape[] {
  const binary = new Set<string>();
  for (const shape of shapes) {
    if (shape.fields.some((field) => field.type === 'bytes' || field.element === 'bytes')) binary.add(shape.name);
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const shape of shapes) {
      if (binary.has(shape.name)) continue;
      const named = shape.fields.flatMap((field) => [field.struct, field.elementStruct]);
      if (named.some((name) => name !== null && binary.has(name))) {
        binary.add(shape.name);
        changed = true;
      }
    }
  }
  return shapes.map((shape) => ({ ...shape, binary: binary.has(shape.name) }));
}
