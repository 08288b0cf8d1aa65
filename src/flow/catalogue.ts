/**
 * `flow.catalogue/v1`: what the world a flow runs in offers — the actions it may `run` or `call`,
 * with their ports, and the registry types it may name.
 *
 * The compiler knows the language and nothing of the world; a host that has a registry (the
 * gateway) hands one of these to `compileFlow`, which then also checks that every action
 * exists, that every port named on it exists, and that `run` is used only where a local handler
 * exists (`runnable`, which `flow_actions` reports; absent means "not said", and is not checked).
 *
 * Reading one never fails: an entry with a field of the wrong type is skipped, because a
 * catalogue may come from a host older or newer than this reader.
 */

export const CATALOGUE_FORMAT = 'flow.catalogue/v1';

export interface CataloguePort {
  readonly name: string;
  /** As the action's schema spells it: a type name, a serialisation tag, or a mimetype. */
  readonly type: string;
  readonly description: string;
  readonly required: boolean;
  /** Whether it carries one value rather than a stream. */
  readonly unary: boolean;
}

export interface CatalogueAction {
  readonly name: string;
  readonly description: string;
  readonly inputs: readonly CataloguePort[];
  readonly outputs: readonly CataloguePort[];
  readonly headers: readonly CataloguePort[];
  /** Whether a handler exists where the flow runs; undefined when the catalogue does not say. */
  readonly runnable?: boolean;
}

export interface CatalogueField {
  readonly name: string;
  readonly type: string;
  readonly description: string;
  readonly required: boolean;
}

export interface CatalogueType {
  readonly tag: string;
  readonly description: string;
  readonly fields: readonly CatalogueField[];
}

export interface Catalogue {
  readonly format: typeof CATALOGUE_FORMAT;
  readonly actions: readonly CatalogueAction[];
  readonly types: readonly CatalogueType[];
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const flag = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);
const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item)) : [];

function readPorts(value: unknown): CataloguePort[] {
  return records(value)
    .filter((port) => text(port.name) !== '')
    .map((port) => ({
      name: text(port.name),
      type: text(port.type),
      description: text(port.description),
      required: flag(port.required, false),
      unary: flag(port.unary, true),
    }));
}

/** A catalogue from JSON, skipping whatever does not read. */
export function readCatalogue(value: unknown): Catalogue {
  const body = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const actions: CatalogueAction[] = records(body.actions)
    .filter((action) => text(action.name) !== '')
    .map((action) => {
      const read: CatalogueAction = {
        name: text(action.name),
        description: text(action.description),
        inputs: readPorts(action.inputs),
        outputs: readPorts(action.outputs),
        headers: readPorts(action.headers),
      };
      return typeof action.runnable === 'boolean' ? { ...read, runnable: action.runnable } : read;
    });
  const types: CatalogueType[] = records(body.types)
    .filter((type) => text(type.tag) !== '')
    .map((type) => ({
      tag: text(type.tag),
      description: text(type.description),
      fields: records(type.fields)
        .filter((field) => text(field.name) !== '')
        .map((field) => ({
          name: text(field.name),
          type: text(field.type),
          description: text(field.description),
          required: flag(field.required, false),
        })),
    }));
  return { format: CATALOGUE_FORMAT, actions, types };
}

/** `base` with `over` laid on top: an entry of `over` replaces the entry of that name whole. */
export function mergeCatalogues(base: Catalogue, over: Catalogue): Catalogue {
  const actions = new Map(base.actions.map((action) => [action.name, action]));
  for (const action of over.actions) actions.set(action.name, action);
  const types = new Map(base.types.map((type) => [type.tag, type]));
  for (const type of over.types) types.set(type.tag, type);
  return { format: CATALOGUE_FORMAT, actions: [...actions.values()], types: [...types.values()] };
}
