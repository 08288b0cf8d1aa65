import { z } from 'zod';
import { Media, withTag } from './media.js';
import { checkName } from './names.js';
import { StatusCode, StatusError } from './status.js';

/** One input or output of an action, as discovery (`a11.actions/v1`) and flows see it. */
export interface PortSchema {
  name: string;
  /** The wire media type, with its tag when it has one: `application/json;type=a11.sdk.Interaction`. */
  type: string;
  /** One value (true) or a stream of values (false). */
  unary: boolean;
  required: boolean;
  description?: string;
  /** JSON Schema of one value, for forms and tool definitions. */
  jsonSchema?: Record<string, unknown>;
  /** Checks one decoded value before a handler sees it (inputs) or a peer does (outputs). */
  validator?: z.ZodType;
  /** Filled in by the runtime before the handler runs; hidden from flow_actions. */
  autofill?: boolean;
}

export interface HeaderSchema {
  name: string;
  type: 'string';
  description?: string;
  /** Sent when the caller gives no value. */
  default?: string;
}

export interface ActionSchema {
  name: string;
  description: string;
  inputs: PortSchema[];
  outputs: PortSchema[];
  headers: HeaderSchema[];
  /** Outputs folded into one JSON result by tool runners: port → field (`$` = the whole result). */
  outputToJsonField?: Record<string, string>;
}

/** How a port is declared in {@link defineAction}; everything but the type has a default. */
export interface PortSpec {
  type: string;
  stream?: boolean;
  required?: boolean;
  description?: string;
  schema?: z.ZodType;
  /** The JSON Schema discovery shows, when it should differ from the one derived from `schema`. */
  jsonSchema?: Record<string, unknown>;
  autofill?: boolean;
}

type PortOptions = Omit<PortSpec, 'type' | 'schema'>;

/** Port declarations by kind of value, so a schema reads like what travels on it. */
export const port = {
  text: (options: PortOptions = {}): PortSpec => ({ type: Media.text, schema: z.string(), ...options }),
  json: (schema?: z.ZodType, options: PortOptions & { tag?: string } = {}): PortSpec => {
    const { tag, ...rest } = options;
    return { type: withTag(Media.json, tag), ...(schema ? { schema } : {}), ...rest };
  },
  msgpack: (tag: string, options: PortOptions & { schema?: z.ZodType } = {}): PortSpec => ({
    type: withTag(Media.msgpack, tag),
    ...options,
  }),
  bytes: (options: PortOptions = {}): PortSpec => ({ type: Media.bytes, ...options }),
  status: (options: PortOptions = {}): PortSpec => ({ type: Media.status, ...options }),
};

export interface ActionDefinition {
  name: string;
  description: string;
  inputs?: Record<string, PortSpec>;
  outputs?: Record<string, PortSpec>;
  headers?: Record<string, { description?: string; default?: string }>;
  outputToJsonField?: Record<string, string>;
}

/** Declares an action's schema once; discovery documents, validation and forms derive from it. */
export function defineAction(definition: ActionDefinition): ActionSchema {
  checkName(definition.name, 'action name');
  const ports = (specs: Record<string, PortSpec> = {}) =>
    Object.entries(specs).map(([name, spec]) => toPortSchema(definition.name, name, spec));
  const schema: ActionSchema = {
    name: definition.name,
    description: definition.description,
    inputs: ports(definition.inputs),
    outputs: ports(definition.outputs),
    headers: Object.entries(definition.headers ?? {}).map(([name, header]) => ({
      name: name.toLowerCase(),
      type: 'string' as const,
      ...(header.description ? { description: header.description } : {}),
      ...(header.default !== undefined ? { default: header.default } : {}),
    })),
  };
  if (definition.outputToJsonField) schema.outputToJsonField = definition.outputToJsonField;
  const clash = schema.inputs.find((input) => schema.outputs.some((output) => output.name === input.name));
  if (clash) {
    // On the wire both would be the node `<call id>#<port>`.
    throw new StatusError(
      StatusCode.INVALID_ARGUMENT,
      `Action '${definition.name}' has an input and an output both named '${clash.name}'; port names must differ, since a port's node id is <call id>#<port>.`,
    );
  }
  return schema;
}

function toPortSchema(action: string, name: string, spec: PortSpec): PortSchema {
  checkName(name, `port name of '${action}'`);
  const port: PortSchema = {
    name,
    type: spec.type,
    unary: !spec.stream,
    required: spec.required ?? false,
  };
  if (spec.description) port.description = spec.description;
  if (spec.autofill) port.autofill = true;
  if (spec.schema) {
    port.validator = spec.schema;
    port.jsonSchema = jsonSchemaOf(spec.schema);
  }
  if (spec.jsonSchema) port.jsonSchema = spec.jsonSchema;
  return port;
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

export function findPort(ports: readonly PortSchema[], name: string): PortSchema | undefined {
  return ports.find((candidate) => candidate.name === name);
}

/** Throws FAILED_PRECONDITION naming the ports that exist when `name` is not one of them. */
export function requirePort(schema: ActionSchema, direction: 'input' | 'output', name: string): PortSchema {
  const ports = direction === 'input' ? schema.inputs : schema.outputs;
  const found = findPort(ports, name);
  if (found) return found;
  const known = ports.map((p) => p.name).join(', ') || 'none';
  throw new StatusError(
    StatusCode.FAILED_PRECONDITION,
    `Action '${schema.name}' has no ${direction} port '${name}' (its ${direction}s: ${known}).`,
  );
}
