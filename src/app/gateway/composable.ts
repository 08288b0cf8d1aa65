/**
 * What `flow_actions` answers — the actions a flow may compose on the gateway, each with its
 * verb (`run` when the gateway holds a handler, `call` when the peer serves it) and its ports —
 * read tolerantly (a real A11 gateway may add fields), and what the page derives from it: the
 * catalogue the local compiler checks calls against, and the step a click in the discovery panel
 * inserts.
 */
import type { Catalogue } from '../../flow/catalogue';
import { composableAction } from '../../gateway/flow-tools/composable';
import type { ActionSchema } from '../../wire/schema';

/** A port as the page reads it from `flow_actions`: every mark present, as a boolean. */
export interface ComposablePort {
  port: string;
  type: string;
  stream: boolean;
  required: boolean;
  description: string;
}

export interface ComposableAction {
  action: string;
  description: string;
  runnable: boolean;
  inputs: ComposablePort[];
  outputs: ComposablePort[];
}

const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
const text = (value: unknown) => (typeof value === 'string' ? value : '');

function readPorts(value: unknown): ComposablePort[] {
  return records(value)
    .filter((port) => text(port.port ?? port.name))
    .map((port) => ({
      port: text(port.port ?? port.name),
      type: text(port.type),
      // flow_actions says `stream: true`; a schema document says `unary: false`.
      stream: port.stream === true || port.unary === false,
      required: port.required === true,
      description: text(port.description),
    }));
}

/** The actions in a `flow_actions` answer (a bare list, or `{actions: [...]}`), sorted by name. */
export function readComposableActions(value: unknown): ComposableAction[] {
  const list = Array.isArray(value) ? value : (value as { actions?: unknown } | null)?.actions;
  return records(list)
    .filter((entry) => text(entry.action ?? entry.name))
    .map((entry) => ({
      action: text(entry.action ?? entry.name),
      description: text(entry.description),
      runnable: entry.runnable === true,
      inputs: readPorts(entry.inputs),
      outputs: readPorts(entry.outputs),
    }))
    .sort((a, b) => (a.action < b.action ? -1 : a.action > b.action ? 1 : 0));
}

/** The catalogue the local compiler checks a flow against: the gateway's actions and ports. */
export function catalogueOf(actions: readonly ComposableAction[]): Catalogue {
  const port = (entry: ComposablePort) => ({
    name: entry.port,
    type: entry.type,
    description: entry.description,
    required: entry.required,
    unary: !entry.stream,
  });
  return {
    format: 'flow.catalogue/v1',
    actions: actions.map((action) => ({
      name: action.action,
      description: action.description,
      inputs: action.inputs.map(port),
      outputs: action.outputs.map(port),
      headers: [],
      runnable: action.runnable,
    })),
    types: [],
  };
}

/** One of the page's own actions, described as the gateway's `flow_actions` describes its own. */
export function composableOf(schema: ActionSchema, runnable: boolean): ComposableAction {
  return readComposableActions([composableAction(schema, runnable)])[0]!;
}

/** A name for a step calling `action` that `source` does not use yet: `shell_execute`, `shell_execute2`… */
export function freshStepName(action: string, source: string): string {
  const base = action.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(\d)/, '_$1') || 'step';
  const used = new Set(source.match(/[A-Za-z_$][\w$-]*/g) ?? []);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}${n}`)) return `${base}${n}`;
}

/**
 * The step a click inserts, as a CodeMirror snippet template: the verb the gateway says to use,
 * the action, and its required inputs as fields to fill in (`${port}`), then a `skip` for each
 * output so the step is complete until the reader pipes them somewhere.
 */
export function stepTemplate(action: ComposableAction, source: string): string {
  const name = freshStepName(action.action, source);
  const verb = action.runnable ? 'run' : 'call';
  const required = action.inputs.filter((port) => port.required);
  const arguments_ = required.map((port) => `${port.port}: \${${port.port}}`).join(', ');
  const lines = [`${name} = ${verb} ${action.action}(${arguments_})`];
  if (action.outputs.length) lines.push(`skip ${action.outputs.map((port) => `${name}.${port.port}`).join(', ')}`);
  return lines.join('\n');
}
