import type { ActionContext } from './action.js';
import { Chunk } from './chunk.js';
import { decodeText, encodeText } from './codecs.js';
import { Media } from './media.js';
import type { ActionRegistry, RegisteredAction } from './registry.js';
import { defineAction, port, type ActionSchema } from './schema.js';
import {
  describeActions,
  parseSchemaRequest,
  registryEntries,
  schemaDocument,
  schemaEntry,
  type SchemaDocument,
} from './schema-document.js';
import { StatusCode, StatusError } from './status.js';

/**
 * The actions every A11 peer answers whatever else it serves: discovery (`__list_actions__`,
 * `__get_schema__`) and a liveness probe (`__ping`). They are not registry entries — a registry
 * nobody configured answers them too — so they are resolved here, in front of the registry.
 */

export const LIST_ACTIONS = '__list_actions__';
export const GET_SCHEMA = '__get_schema__';
export const PING = '__ping';
/** Not an action but a request about one: cancel the call named by the `__action` header. */
export const CANCEL = '__cancel__';
export const CANCEL_TARGET_HEADER = '__action';

export const listActionsSchema = defineAction({
  name: LIST_ACTIONS,
  description:
    "Describe the actions this side serves as one a11.actions/v1 document. The optional 'request' is " +
    "{names: [full-match regex], exact: [name], ports: 'callable'|'all', include_reserved, runnable_only} " +
    'or a bare array of name patterns; without one, every non-reserved action is listed.',
  inputs: { request: port.json(undefined, { description: 'Which actions to describe; absent means all.' }) },
  outputs: { actions: port.json(undefined, { required: true, description: 'The a11.actions/v1 document.' }) },
});

export const getSchemaSchema = defineAction({
  name: GET_SCHEMA,
  description: 'Describe one action this side serves, with every port, as an a11.actions/v1 document; NOT_FOUND when there is no such action.',
  inputs: { action: port.text({ required: true, description: 'The action to describe.' }) },
  outputs: { schema: port.json(undefined, { required: true, description: 'The a11.actions/v1 document for that action.' }) },
});

export const pingSchema = defineAction({
  name: PING,
  description: "Liveness probe: every value sent on 'input' comes straight back on 'output'.",
  inputs: { input: port.text({ stream: true, description: 'Values to echo.' }) },
  outputs: { output: port.text({ stream: true, description: 'The same values, in order.' }) },
});

const BUILTIN_SCHEMAS: readonly ActionSchema[] = [getSchemaSchema, listActionsSchema, pingSchema];

export function isBuiltinAction(name: string): boolean {
  return BUILTIN_SCHEMAS.some((schema) => schema.name === name);
}

/**
 * What `name` resolves to for a peer calling this side: a built-in (answered about `registry`),
 * else the registry's own entry, else undefined.
 */
export function resolveAction(registry: ActionRegistry, name: string): RegisteredAction | undefined {
  switch (name) {
    case LIST_ACTIONS:
      return { schema: listActionsSchema, handler: (ctx) => listActions(ctx, registry) };
    case GET_SCHEMA:
      return { schema: getSchemaSchema, handler: (ctx) => getSchema(ctx, registry) };
    case PING:
      return { schema: pingSchema, handler: ping };
    default:
      return registry.get(name);
  }
}

/** Everything `registry` answers for, built-ins included, as discovery sees it. */
export function discoverableActions(registry: ActionRegistry): { schema: ActionSchema; runnable: boolean }[] {
  const own = registryEntries(registry).filter(({ schema }) => !isBuiltinAction(schema.name));
  return [...BUILTIN_SCHEMAS.map((schema) => ({ schema, runnable: true })), ...own];
}

/** The document `GET /actions/<name>` and `__get_schema__` answer with; NOT_FOUND when unknown. */
export function describeOne(registry: ActionRegistry, name: string): SchemaDocument {
  const found = resolveAction(registry, name);
  if (!found) throw new StatusError(StatusCode.NOT_FOUND, `Action '${name}' is not registered`);
  return schemaDocument([schemaEntry(found.schema, found.handler !== undefined, 'all')]);
}

async function listActions(ctx: ActionContext, registry: ActionRegistry): Promise<void> {
  const query = parseSchemaRequest(await firstText(ctx, 'request'));
  await ctx.output('actions').finalize(jsonChunk(describeActions(discoverableActions(registry), query)));
}

async function getSchema(ctx: ActionContext, registry: ActionRegistry): Promise<void> {
  const name = (await firstText(ctx, 'action')).trim();
  if (name === '') throw new StatusError(StatusCode.INVALID_ARGUMENT, `${GET_SCHEMA} needs the name of an action on its 'action' input.`);
  await ctx.output('schema').finalize(jsonChunk(describeOne(registry, name)));
}

async function ping(ctx: ActionContext): Promise<void> {
  const output = ctx.output('output');
  for await (const chunk of ctx.input('input')) await output.put(Chunk.fromBytes(Media.text, chunk.bytes));
}

/** The first value of an input as text, whatever media type it came as; '' when there is none. */
async function firstText(ctx: ActionContext, input: string): Promise<string> {
  const chunk = await ctx.input(input).next();
  return chunk === undefined || chunk.isNull ? '' : decodeText(chunk.bytes);
}

/** JSON written once, as text, so the key order of the document is the order on the wire. */
function jsonChunk(value: unknown): Chunk {
  return Chunk.fromBytes(Media.json, encodeText(JSON.stringify(value)));
}
