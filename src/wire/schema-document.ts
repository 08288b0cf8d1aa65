import type { ActionRegistry } from './registry.js';
import type { ActionSchema, HeaderSchema, PortSchema } from './schema.js';
import { StatusCode, StatusError } from './status.js';

/**
 * `a11.actions/v1`: action schemas as JSON, the way discovery (`__list_actions__`,
 * `__get_schema__`, `GET /actions`) carries them. A document is `{actions, format}`; an entry is one
 * schema plus `runnable` — whether the side answering holds a handler. Keys are written in sorted
 * order (as the reference's native writer does), ports sorted by name, `unary` always explicit.
 */

export const SCHEMA_DOCUMENT_FORMAT = 'a11.actions/v1';

/** `callable` leaves out inputs the receiver fills in itself; `all` keeps them, flagged. */
export type PortView = 'callable' | 'all';

export interface PortEntry {
  autofilled?: boolean;
  description?: string;
  json_schema?: unknown;
  name: string;
  required?: boolean;
  type: string;
  unary: boolean;
}

export interface HeaderEntry {
  default?: string;
  description?: string;
  has_default?: boolean;
  name: string;
}

export interface SchemaEntry {
  description?: string;
  headers?: HeaderEntry[];
  inputs?: PortEntry[];
  name: string;
  output_to_json_field?: Record<string, string>;
  outputs?: PortEntry[];
  runnable?: boolean;
}

export interface SchemaDocument {
  actions: SchemaEntry[];
  format: string;
}

/** Which actions a discovery request asks about, and how much of each. */
export interface SchemaQuery {
  /** Full-match regular expressions; an action matching any is included. */
  names: string[];
  /** Exact names, also included (reserved ones too). */
  exact: string[];
  ports: PortView;
  includeReserved: boolean;
  /** Leave out schema-only registrations (actions served by the other side). */
  runnableOnly: boolean;
}

export function defaultSchemaQuery(): SchemaQuery {
  return { names: [], exact: [], ports: 'callable', includeReserved: false, runnableOnly: false };
}

/** Discovery's own actions and the protocol's, which listings leave out unless asked. */
export function isReservedActionName(name: string): boolean {
  return name.length > 4 && name.startsWith('__');
}

/**
 * Reads a `__list_actions__` request: an object (`names`, `exact`, `ports`, `include_reserved`,
 * `runnable_only`), a bare array of name patterns, or nothing at all (everything).
 * INVALID_ARGUMENT for anything else, or for a pattern that is not a regular expression.
 */
export function parseSchemaRequest(text: string): SchemaQuery {
  const query = defaultSchemaQuery();
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'null') return query;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `The __list_actions__ request is not JSON: ${(error as Error).message}`);
  }
  if (value === null) return query;
  if (Array.isArray(value)) {
    query.names = strings(value);
  } else if (typeof value === 'object') {
    const request = value as Record<string, unknown>;
    query.names = stringList(request.names);
    query.exact = stringList(request.exact);
    query.ports = request.ports === 'all' ? 'all' : 'callable';
    query.includeReserved = request.include_reserved === true;
    query.runnableOnly = request.runnable_only === true;
  } else {
    throw new StatusError(
      StatusCode.INVALID_ARGUMENT,
      'A __list_actions__ request is an object ({names, exact, ports, include_reserved, runnable_only}), an array of name patterns, or absent.',
    );
  }
  checkPatterns(query.names);
  return query;
}

/** Reads `GET /actions` parameters: `name=` (repeatable regex), `exact=`, `ports=all`, `reserved=1`, `runnable=1`. */
export function parseSchemaQueryString(search: string | URLSearchParams): SchemaQuery {
  const params = typeof search === 'string' ? new URLSearchParams(search.startsWith('?') ? search.slice(1) : search) : search;
  const query = defaultSchemaQuery();
  const on = (value: string) => value !== '0' && value !== 'false';
  for (const [key, value] of params) {
    if (key === 'name' && value) query.names.push(value);
    else if (key === 'exact' && value) query.exact.push(value);
    else if (key === 'ports' && value === 'all') query.ports = 'all';
    else if (key === 'reserved') query.includeReserved = on(value);
    else if (key === 'runnable') query.runnableOnly = on(value);
  }
  checkPatterns(query.names);
  return query;
}

export function queryAccepts(query: SchemaQuery, name: string): boolean {
  const named = query.exact.includes(name);
  if (!query.includeReserved && isReservedActionName(name) && !named) return false;
  if (query.names.length === 0 && query.exact.length === 0) return true;
  return named || query.names.some((pattern) => fullMatch(pattern).test(name));
}

/** One schema as a document entry. */
export function schemaEntry(schema: ActionSchema, runnable: boolean, ports: PortView = 'callable'): SchemaEntry {
  const inputs = sortedByName(schema.inputs)
    .filter((port) => !(port.autofill && ports === 'callable'))
    .map((port) => portEntry(port, port.autofill === true));
  const outputs = sortedByName(schema.outputs).map((port) => portEntry(port, false));
  const headers = sortedByName(schema.headers).map(headerEntry);
  const entry: SchemaEntry = { name: schema.name };
  if (schema.description) entry.description = schema.description;
  if (headers.length > 0) entry.headers = headers;
  if (inputs.length > 0) entry.inputs = inputs;
  if (schema.outputToJsonField && Object.keys(schema.outputToJsonField).length > 0) {
    entry.output_to_json_field = sortKeys(schema.outputToJsonField) as Record<string, string>;
  }
  if (outputs.length > 0) entry.outputs = outputs;
  entry.runnable = runnable;
  return sortKeys(entry) as SchemaEntry;
}

export function schemaDocument(actions: SchemaEntry[]): SchemaDocument {
  return { actions, format: SCHEMA_DOCUMENT_FORMAT };
}

/** The whole document for the actions of `registry` (and `extra`, e.g. the built-ins) that `query` accepts. */
export function describeActions(
  entries: readonly { schema: ActionSchema; runnable: boolean }[],
  query: SchemaQuery = defaultSchemaQuery(),
): SchemaDocument {
  const sorted = [...entries].sort((left, right) => compare(left.schema.name, right.schema.name));
  return schemaDocument(
    sorted
      .filter(({ schema, runnable }) => queryAccepts(query, schema.name) && (runnable || !query.runnableOnly))
      .map(({ schema, runnable }) => schemaEntry(schema, runnable, query.ports)),
  );
}

/** A registry's actions as discovery lists them. */
export function registryEntries(registry: ActionRegistry): { schema: ActionSchema; runnable: boolean }[] {
  return registry.list().map((registered) => ({ schema: registered.schema, runnable: registered.handler !== undefined }));
}

/** The entries of a document; a bare array of entries is accepted too. */
export function documentEntries(document: unknown): SchemaEntry[] {
  if (Array.isArray(document)) return document as SchemaEntry[];
  const actions = (document as SchemaDocument | null)?.actions;
  if (!Array.isArray(actions)) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, "An a11.actions/v1 document needs an 'actions' array.");
  }
  return actions as SchemaEntry[];
}

/**
 * The schema an entry describes, for calling an action another side serves. Ports carry their
 * JSON Schema for forms and discovery; values are not validated against it here.
 */
export function schemaFromEntry(entry: SchemaEntry): ActionSchema {
  if (entry === null || typeof entry !== 'object' || typeof entry.name !== 'string' || entry.name === '') {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, 'An action schema entry needs a name.');
  }
  const ports = (list: unknown): PortSchema[] =>
    (Array.isArray(list) ? (list as PortEntry[]) : [])
      .filter((port) => port && typeof port === 'object' && typeof port.name === 'string' && port.name !== '')
      .map((port) => {
        const schema: PortSchema = {
          name: port.name,
          type: typeof port.type === 'string' && port.type ? port.type : 'application/json',
          unary: port.unary === true,
          required: port.required === true,
        };
        if (typeof port.description === 'string' && port.description) schema.description = port.description;
        if (port.json_schema && typeof port.json_schema === 'object') schema.jsonSchema = port.json_schema as Record<string, unknown>;
        if (port.autofilled === true) schema.autofill = true;
        return schema;
      });
  const headers: HeaderSchema[] = (Array.isArray(entry.headers) ? entry.headers : [])
    .filter((header) => header && typeof header.name === 'string' && header.name !== '')
    .map((header) => ({ name: header.name.toLowerCase(), type: 'string' as const, ...(header.description ? { description: header.description } : {}) }));
  const schema: ActionSchema = {
    name: entry.name,
    description: typeof entry.description === 'string' ? entry.description : '',
    inputs: ports(entry.inputs),
    outputs: ports(entry.outputs),
    headers,
  };
  const mapping = entry.output_to_json_field;
  if (mapping && typeof mapping === 'object') {
    const kept = Object.entries(mapping).filter(([output, field]) => typeof field === 'string' && schema.outputs.some((port) => port.name === output));
    if (kept.length > 0) schema.outputToJsonField = Object.fromEntries(kept);
  }
  return schema;
}

function portEntry(port: PortSchema, autofilled: boolean): PortEntry {
  const entry: PortEntry = { name: port.name, type: port.type, unary: port.unary };
  if (autofilled) entry.autofilled = true;
  if (port.description) entry.description = port.description;
  if (port.jsonSchema !== undefined) entry.json_schema = sortKeys(port.jsonSchema);
  if (port.required) entry.required = true;
  return sortKeys(entry) as PortEntry;
}

function headerEntry(header: HeaderSchema & { default?: string }): HeaderEntry {
  const entry: HeaderEntry = { name: header.name };
  if (header.default !== undefined) {
    entry.has_default = true;
    entry.default = header.default;
  }
  if (header.description) entry.description = header.description;
  return sortKeys(entry) as HeaderEntry;
}

function sortedByName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((left, right) => compare(left.name, right.name));
}

/** Byte-order comparison, like the reference's std::string ordering (not locale-aware). */
function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A copy of a JSON value with every object's keys in sorted order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compare)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}

function strings(values: unknown[]): string[] {
  return values.filter((value): value is string => typeof value === 'string');
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? strings(value) : [];
}

const compiled = new Map<string, RegExp>();

function fullMatch(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = new RegExp(`^(?:${pattern})$`);
    if (compiled.size > 256) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

function checkPatterns(patterns: readonly string[]): void {
  for (const pattern of patterns) {
    try {
      fullMatch(pattern);
    } catch (error) {
      throw new StatusError(StatusCode.INVALID_ARGUMENT, `'${pattern}' is not a valid name pattern: ${(error as Error).message}`);
    }
  }
}
