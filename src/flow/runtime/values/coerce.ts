/**
 * Casts: `expr as TYPE` and `TYPE{…}`. A built-in type converts the way its builtin does; a
 * `struct` of the program is validated field by field (defaults filled, bounds checked, nested
 * shapes coerced, extra keys dropped); a registry tag goes to the host; a quoted mimetype makes a
 * content chunk of that type.
 */
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { Constant, FieldShape, StructShape, TypeRef } from '../../program.js';
import { lengthOf } from './access.js';
import { valuesEqual, truthy } from './compare.js';
import { asDouble, asDuration, asNumber, asText, asTime } from './convert.js';
import { constantValue } from './constants.js';
import { NO_HOST_TYPES, unknownTypeError, type HostTypes } from './host-types.js';
import { formatDouble } from './number-text.js';
import { utf8Encode } from './utf8.js';
import { valueToChunk } from './chunks.js';
import {
  ChunkValue,
  Duration,
  HostValue,
  Instant,
  kindOf,
  newRecord,
  type FlowRecord,
  type Value,
} from './value.js';

export interface CoerceContext {
  /** The structs the program declared, by name; a struct outranks a tag of the same name. */
  readonly structs: ReadonlyMap<string, StructShape>;
  readonly types: HostTypes;
}

export const NO_STRUCTS: CoerceContext = { structs: new Map(), types: NO_HOST_TYPES };

function invalid(message: string): StatusError {
  return new StatusError(StatusCode.INVALID_ARGUMENT, message);
}

/** Makes `value` a value of `type`. */
export function coerce(value: Value, type: TypeRef, context: CoerceContext): Value {
  return coerceNamed(value, type.name, type.parameters, context);
}

function coerceNamed(value: Value, name: string, parameters: readonly TypeRef[], context: CoerceContext): Value {
  switch (name) {
    case 'string':
    case 'text':
      return asText(value);
    case 'number':
      return asNumber(value);
    case 'integer':
    case 'int': {
      const number = asDouble(value);
      return Number.isFinite(number) ? Math.trunc(number) : 0;
    }
    case 'bool':
    case 'boolean':
      return truthy(value);
    case 'duration':
      return asDuration(value);
    case 'time':
      return asTime(value);
    case 'bytes':
      return value instanceof Uint8Array ? value : utf8Encode(asText(value));
    case 'list':
    case 'array': {
      const items = Array.isArray(value) ? (value as readonly Value[]) : [value];
      const element = parameters[0];
      return element ? items.map((item) => coerce(item, element, context)) : [...items];
    }
    case 'object':
    case 'json':
    case 'any':
      return value;
    default:
      break;
  }
  const shape = context.structs.get(name);
  if (shape) return coerceShape(shape, value, context);
  if (name.includes('/')) return new ChunkValue(valueToChunk(value, name));
  const host = context.types.get(name);
  if (!host) throw unknownTypeError(name);
  return host.coerce(value);
}

function fieldOf(value: Value, name: string): Value {
  if (value instanceof HostValue) return value.field(name);
  const record = value as FlowRecord;
  return Object.hasOwn(record, name) ? (record[name] ?? null) : null;
}

/** Makes `value` a value of `shape`; a failure names the field it was about, by path. */
export function coerceShape(shape: StructShape, value: Value, context: CoerceContext): FlowRecord {
  const kind = kindOf(value);
  if (kind !== 'object' && kind !== 'host') {
    throw invalid(
      `${shape.name} is a record of ${shape.fields.map((field) => field.name).join(', ')}, and this is ` +
        `${value === null ? 'nothing' : asText(value)}.`,
    );
  }
  const made = newRecord();
  for (const field of shape.fields) {
    const given = fieldOf(value, field.name);
    if (given === null) {
      if (field.defaultValue) {
        made[field.name] = coerceField(field, constantValue(field.defaultValue), context, field.name);
        continue;
      }
      if (field.required) throw invalid(`${shape.name} requires '${field.name}', and this does not give it.`);
      continue;
    }
    made[field.name] = coerceField(field, given, context, field.name);
  }
  return made;
}

function fieldError(path: string, what: string): StatusError {
  return invalid(`${path}: ${what}`);
}

function coerceFieldType(field: FieldShape, given: Value, context: CoerceContext, path: string): Value {
  if (field.struct) {
    const nested = context.structs.get(field.struct);
    if (nested) {
      try {
        return coerceShape(nested, given, context);
      } catch (error) {
        throw fieldError(path, statusMessage(error));
      }
    }
  }
  if (field.type === 'list' || field.type === 'array') {
    const items: Value[] = Array.isArray(given) ? [...(given as readonly Value[])] : given === null ? [] : [given];
    if (field.element) {
      const element = field.elementStruct ? context.structs.get(field.elementStruct) : undefined;
      for (let index = 0; index < items.length; index++) {
        if (element) {
          try {
            items[index] = coerceShape(element, items[index]!, context);
          } catch (error) {
            throw fieldError(`${path}[${index}]`, statusMessage(error));
          }
          continue;
        }
        items[index] = coerceNamed(items[index]!, field.element, [], context);
      }
    }
    return items;
  }
  return coerceNamed(given, field.type, [], context);
}

function statusMessage(error: unknown): string {
  if (error instanceof StatusError) return error.status.message;
  throw error;
}

/** Whether a range on a field of this type bounds its length rather than its magnitude. */
function boundsLength(type: string): boolean {
  return ['string', 'text', 'bytes', 'list', 'array', 'object', 'json'].includes(type);
}


function magnitude(value: Value, type: string): number {
  if (boundsLength(type)) return lengthOf(value);
  if (value instanceof Duration) return value.seconds;
  if (value instanceof Instant) return Number(value.nanos) / 1e9;
  return asDouble(value);
}

function boundNumber(bound: Constant): number {
  if (bound.kind === 'duration') return bound.seconds;
  return asDouble(constantValue(bound));
}

function coerceField(field: FieldShape, given: Value, context: CoerceContext, path: string): Value {
  const held = coerceFieldType(field, given, context, path);
  if (field.oneOf) {
    const allowed = field.oneOf.map(constantValue);
    if (!allowed.some((candidate) => valuesEqual(candidate, held))) {
      throw fieldError(path, `'${asText(held)}' is not one of ${allowed.map(asText).join(', ')}.`);
    }
  }
  if (field.pattern !== null && (typeof held === 'string' || held instanceof Uint8Array)) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(field.pattern);
    } catch {
      throw fieldError(path, `the pattern '${field.pattern}' is not a regular expression.`);
    }
    const text = asText(held);
    if (!pattern.test(text)) throw fieldError(path, `'${text}' does not match '${field.pattern}'.`);
  }
  if (field.bounds) {
    const length = boundsLength(field.type);
    const have = magnitude(held, field.type);
    const unit = length ? ' long' : '';
    const { minimum, maximum } = field.bounds;
    if (minimum && have < boundNumber(minimum) - 1e-9) {
      throw fieldError(path, `is ${formatDouble(have)}${unit}, and the least allowed is ${asText(constantValue(minimum))}.`);
    }
    if (maximum && have > boundNumber(maximum) + 1e-9) {
      throw fieldError(path, `is ${formatDouble(have)}${unit}, and the most allowed is ${asText(constantValue(maximum))}.`);
    }
  }
  if (field.unique && Array.isArray(held)) {
    const items = held as readonly Value[];
    for (let index = 0; index < items.length; index++) {
      for (let other = index + 1; other < items.length; other++) {
        if (valuesEqual(items[index]!, items[other]!)) {
          throw fieldError(path, `holds '${asText(items[index]!)}' twice, and its items are unique.`);
        }
      }
    }
  }
  return held;
}

/** The program's structs by name, for a {@link CoerceContext}. */
export function structsByName(structs: readonly StructShape[]): ReadonlyMap<string, StructShape> {
  return new Map(structs.map((shape) => [shape.name, shape]));
}
