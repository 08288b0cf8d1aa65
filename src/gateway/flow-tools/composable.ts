/**
 * What a flow may compose, as `flow_actions` answers it, and the compiler's catalogue of a
 * registry. Isomorphic: the playground describes its own actions with `composableAction` too, so
 * a page action and a gateway action look the same to the editor.
 */
import type { Catalogue, CatalogueAction, CataloguePort } from '../../flow/catalogue.js';
import { isReservedName } from '../../wire/names.js';
import type { ActionRegistry } from '../../wire/registry.js';
import type { ActionSchema, PortSchema } from '../../wire/schema.js';
import { NOT_COMPOSABLE } from './schemas.js';

/** One port as a flow author sees it: `stream` rather than `unary`. */
export interface ComposablePort {
  port: string;
  type: string;
  stream?: true;
  required?: true;
  description?: string;
}

/** One action a flow may name, as `flow_actions` lists it. */
export interface ComposableAction {
  action: string;
  description: string;
  /** A handler runs it here (`run`); otherwise the peer serves it (`call`). */
  runnable: boolean;
  inputs: ComposablePort[];
  outputs: ComposablePort[];
}

function describePort(port: PortSchema): ComposablePort {
  return {
    port: port.name,
    type: port.type,
    ...(port.unary ? {} : { stream: true as const }),
    ...(port.required ? { required: true as const } : {}),
    ...(port.description ? { description: port.description } : {}),
  };
}

/** One action as `flow_actions` lists it, without the inputs the runtime fills in itself. */
export function composableAction(schema: ActionSchema, runnable: boolean): ComposableAction {
  return {
    action: schema.name,
    description: schema.description,
    runnable,
    inputs: schema.inputs.filter((port) => !port.autofill).map(describePort),
    outputs: schema.outputs.map(describePort),
  };
}

/**
 * The actions a caller may compose: every registered action the allow-list admits, minus
 * reserved names, the flow tools and the operator tools.
 */
export function composableActions(registry: ActionRegistry, allowed: (name: string) => boolean): ComposableAction[] {
  return registry
    .list()
    .filter(({ schema }) => !isReservedName(schema.name) && !NOT_COMPOSABLE.includes(schema.name) && allowed(schema.name))
    .map(({ schema, handler }) => composableAction(schema, handler !== undefined));
}

function cataloguePort(port: PortSchema): CataloguePort {
  return { name: port.name, type: port.type, description: port.description ?? '', required: port.required, unary: port.unary };
}

/** The registry as the compiler's catalogue, so calls are checked against what is really here. */
export function catalogueOf(registry: ActionRegistry): Catalogue {
  const actions: CatalogueAction[] = registry.list().map(({ schema, handler }) => ({
    name: schema.name,
    description: schema.description,
    inputs: schema.inputs.map(cataloguePort),
    outputs: schema.outputs.map(cataloguePort),
    headers: schema.headers.map((header) => ({ name: header.name, type: 'string', description: header.description ?? '', required: false, unary: true })),
    runnable: handler !== undefined,
  }));
  return { format: 'flow.catalogue/v1', actions, types: [] };
}
