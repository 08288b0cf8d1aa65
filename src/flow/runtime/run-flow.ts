/**
 * Running a checked flow: the runtime's public face.
 *
 *     const run = runFlow(program, { flow: 'shout', inputs: { words: ['a', 'b'] }, registry });
 *     for await (const chunk of run.outputs.get('said')!.reader()) …   // live, as it is written
 *     const status = await run.done;
 *
 * A flow is an action: {@link makeFlowHandler} is the handler that runs one, so a registry can
 * offer it, a peer can dispatch it and another flow can call it. Nothing here touches the DOM or
 * Node: the same runtime runs in the browser and behind the gateway.
 */
import type { ActionDispatcher, ActionHandler, Headers } from '../../wire/action.js';
import { DEADLINE_HEADER } from '../../wire/action.js';
import { deadlineFromHeaders } from '../../wire/deadline.js';
import { newCallId } from '../../wire/ids.js';
import { LocalDispatcher } from '../../wire/local-dispatcher.js';
import { Media, withTag } from '../../wire/media.js';
import { portNodeId } from '../../wire/names.js';
import { StreamNode, type NodeReader } from '../../wire/node.js';
import { ActionRegistry, type RegisteredAction } from '../../wire/registry.js';
import { defineAction, type ActionSchema, type PortSpec } from '../../wire/schema.js';
import { Status, StatusCode, StatusError } from '../../wire/status.js';
import { entryFlow, findFlow, type FlowProgram, type PortDeclaration, type Program } from '../program.js';
import { runBody } from './executor/body.js';
import { LocalNodeMap, type NodeMap } from './executor/nodes.js';
import { Runner, type FlowLog, type FlowPorts } from './executor/runner.js';
import { Scope } from './executor/scope.js';
import { asStatusError } from './stream/bus.js';
import { Monitor } from './stream/monitor.js';
import { decodeChunk, valueToChunk, valueToNodeChunk } from './values/chunks.js';
import { structsByName } from './values/coerce.js';
import { NO_HOST_TYPES, type HostTypes } from './values/host-types.js';
import type { Value } from './values/value.js';

export interface RunFlowOptions {
  /** The flow to run, by name. Default: the entry flow when the file has one, else the first flow. */
  flow?: string;
  /** Values written to input ports, in order; each port given here is then closed. */
  inputs?: Readonly<Record<string, readonly unknown[]>>;
  /** Input ports left open for the caller to write (and close) through `run.inputs`. */
  openInputs?: readonly string[];
  /** What `run` steps run (and `call` steps, with no peer). The program's own flows come first. */
  registry?: ActionRegistry;
  /** Where `call` steps go: the peer this flow is attached to (a wire session). */
  peer?: ActionDispatcher;
  /** The flow's own headers: `x-a11-*` ones reach every nested action; `x-a11-deadline` bounds the run. */
  headers?: Headers | Readonly<Record<string, string>>;
  /** Cancels the run: every step, handler and buffer of it ends. */
  signal?: AbortSignal;
  /** The flow's narration (`log`, `logf`, a tolerated value); discarded when absent. */
  log?: FlowLog;
  /** Registered types a cast may name (`a11.sdk.Interaction{…}`). */
  types?: HostTypes;
  /** Where the flow's own nodes live, and where `node(id)` finds one; a map of its own when absent. */
  nodeMap?: NodeMap;
  /** The action id the flow runs as; its nodes are `<id>#<name>`. Generated when absent. */
  actionId?: string;
  /** The flow's ports, when the caller owns them (an action handler); made here when absent. */
  ports?: FlowPorts;
}

export interface FlowRun {
  readonly flow: FlowProgram;
  readonly schema: ActionSchema;
  readonly actionId: string;
  /** The input ports left open (`openInputs`), to write and close. */
  readonly inputs: ReadonlyMap<string, StreamNode>;
  /** Every output port, readable as it is written. */
  readonly outputs: ReadonlyMap<string, StreamNode>;
  /** The run's outcome, once every step has finished (never rejects). */
  readonly done: Promise<Status>;
  cancel(status?: Status): void;
}

const SCHEMA_TYPES: Readonly<Record<string, string>> = {
  string: Media.text,
  text: Media.text,
  bytes: Media.bytes,
};

/** The media type a port of a flow's declared type travels as. */
function portMediaType(port: PortDeclaration): string {
  if (port.type.includes('/')) return port.type;
  if (Object.hasOwn(SCHEMA_TYPES, port.type)) return SCHEMA_TYPES[port.type]!;
  if (port.type.includes('.')) return withTag(Media.json, port.type);
  return Media.json;
}

/** The action schema a flow presents: a flow is an action, with its ports and headers. */
export function flowActionSchema(flow: FlowProgram, name = flow.name || 'main'): ActionSchema {
  const ports = (direction: 'inputs' | 'outputs') =>
    Object.fromEntries(
      flow.ports
        .filter((port) => port.direction === direction)
        .map((port): [string, PortSpec] => [
          port.name,
          {
            type: portMediaType(port),
            stream: !port.unary,
            required: port.required,
            ...(port.description ? { description: port.description } : {}),
          },
        ]),
    );
  return defineAction({
    name,
    description: flow.description,
    inputs: ports('inputs'),
    outputs: ports('outputs'),
    headers: Object.fromEntries(flow.headers.map((header) => [header.name, header.description ? { description: header.description } : {}])),
  });
}

/** Which flow a run means: by name, else the entry flow, else the first one. */
export function chooseFlow(program: Program, name?: string): FlowProgram {
  if (name !== undefined) {
    const found = findFlow(program, name);
    if (found) return found;
    const known = program.flows.filter((flow) => !flow.entry).map((flow) => flow.name);
    throw new StatusError(
      StatusCode.NOT_FOUND,
      `No flow named '${name}' in ${program.sourceName || 'this program'} (declared: ${known.length ? known.join(', ') : 'none'}).`,
    );
  }
  const chosen = entryFlow(program) ?? program.flows[0];
  if (!chosen) throw new StatusError(StatusCode.NOT_FOUND, `${program.sourceName || 'This program'} declares no flow to run.`);
  return chosen;
}

/** The registry a run dispatches `run` steps to: the program's flows, then the host's actions. */
class ProgramRegistry extends ActionRegistry {
  constructor(
    private readonly base: ActionRegistry,
    private readonly flows: ReadonlyMap<string, RegisteredAction>,
  ) {
    super();
  }

  override get(name: string): RegisteredAction | undefined {
    return this.flows.get(name) ?? this.base.get(name);
  }

  override has(name: string): boolean {
    return this.flows.has(name) || this.base.has(name);
  }

  override list(): RegisteredAction[] {
    return [...this.flows.values(), ...this.base.list().filter((entry) => !this.flows.has(entry.schema.name))];
  }

  override names(): string[] {
    return this.list().map((entry) => entry.schema.name);
  }
}

function headerMap(headers: RunFlowOptions['headers']): Map<string, string> {
  const map = new Map<string, string>();
  if (!headers) return map;
  const entries = headers instanceof Map ? headers.entries() : Object.entries(headers as Record<string, string>);
  for (const [name, value] of entries) map.set(name.toLowerCase(), value);
  return map;
}

/** Ports of the run's own: a node per declared port, `<actionId>#<port>`. */
function ownPorts(flow: FlowProgram, actionId: string): { ports: FlowPorts; inputs: Map<string, StreamNode>; outputs: Map<string, StreamNode> } {
  const inputs = new Map<string, StreamNode>();
  const outputs = new Map<string, StreamNode>();
  for (const port of flow.ports) {
    const node = new StreamNode({ id: portNodeId(actionId, port.name) });
    (port.direction === 'inputs' ? inputs : outputs).set(port.name, node);
  }
  const readers = new Map<string, NodeReader>();
  const missing = (port: string) => new StatusError(StatusCode.INTERNAL, `Internal flow error: no port '${port}'.`);
  return {
    inputs,
    outputs,
    ports: {
      inputReader(port) {
        let reader = readers.get(port);
        if (!reader) {
          const node = inputs.get(port);
          if (!node) throw missing(port);
          reader = node.reader();
          readers.set(port, reader);
        }
        return reader;
      },
      inputNode(port) {
        const node = inputs.get(port);
        if (!node) throw missing(port);
        return node;
      },
      output(port) {
        const node = outputs.get(port);
        if (!node) throw missing(port);
        return node;
      },
    },
  };
}

/** Starts `program`'s flow; its outputs are live nodes and `done` settles with its outcome. */
export function runFlow(program: Program, options: RunFlowOptions = {}): FlowRun {
  const flow = chooseFlow(program, options.flow);
  const actionId = options.actionId ?? newCallId(flow.name ? flow.name.replace(/[^A-Za-z0-9_]/g, '_') : 'main');
  const schema = flowActionSchema(flow);
  const headers = headerMap(options.headers);
  const types = options.types ?? NO_HOST_TYPES;
  const log: FlowLog = options.log ?? (() => {});
  const own = options.ports ? undefined : ownPorts(flow, actionId);
  const ports = options.ports ?? own!.ports;

  const siblings = new Map<string, ActionSchema>();
  const siblingHandlers = new Map<string, RegisteredAction>();
  const shared = { registry: options.registry, peer: options.peer, types, log, nodeMap: options.nodeMap };
  for (const other of program.flows) {
    if (other.entry) continue;
    const siblingSchema = flowActionSchema(other);
    siblings.set(other.name, siblingSchema);
    siblingHandlers.set(other.name, { schema: siblingSchema, handler: makeFlowHandler(program, other.name, shared) });
  }
  const registry = new ProgramRegistry(options.registry ?? new ActionRegistry(), siblingHandlers);

  const monitor = new Monitor();
  const runner = new Runner({
    program,
    flow,
    ports,
    actionId,
    headers,
    local: new LocalDispatcher(registry),
    peer: options.peer,
    registry,
    siblings,
    nodeMap: options.nodeMap ?? new LocalNodeMap(),
    types,
    coercion: { structs: structsByName(program.structs), types },
    log,
    monitor,
  });

  const openInputs = new Set(options.openInputs ?? []);
  const done = (async (): Promise<Status> => {
    const stopOnAbort = () => monitor.stop(new Status(StatusCode.CANCELLED, `Flow ${flow.name || 'main'} was cancelled.`));
    if (options.signal?.aborted) stopOnAbort();
    options.signal?.addEventListener('abort', stopOnAbort, { once: true });
    let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
    let status: Status;
    try {
      const deadline = deadlineFromHeaders(headers);
      if (deadline !== undefined) {
        const passed = () => monitor.stop(new Status(StatusCode.DEADLINE_EXCEEDED, `${DEADLINE_HEADER} passed`));
        const remaining = deadline - Date.now();
        if (remaining <= 0) passed();
        else deadlineTimer = setTimeout(passed, Math.min(remaining, 2 ** 31 - 1));
      }
      if (own) await writeInputs(flow, own.inputs, options.inputs ?? {}, openInputs);
      drainUnreadInputs(runner, monitor);
      await runBody(new Scope(runner, flow.root, null));
      status = monitor.stopped ?? Status.OK;
    } catch (error) {
      status = monitor.stopped && monitor.stopped.code !== StatusCode.CANCELLED ? monitor.stopped : asStatusError(error).status;
      if (monitor.stopped && asStatusError(error).status.code !== StatusCode.CANCELLED) status = asStatusError(error).status;
    } finally {
      clearTimeout(deadlineTimer);
      options.signal?.removeEventListener('abort', stopOnAbort);
    }
    monitor.stop(status.ok ? new Status(StatusCode.CANCELLED, 'The flow has ended.') : status);
    for (const port of flow.ports) {
      if (port.direction !== 'outputs') continue;
      const node = ports.output(port.name);
      if (status.ok) node.close();
      else node.abort(status);
    }
    return status;
  })();

  return {
    flow,
    schema,
    actionId,
    inputs: new Map(own ? [...own.inputs].filter(([name]) => openInputs.has(name)) : []),
    outputs: own ? own.outputs : new Map(),
    done,
    cancel(status) {
      monitor.stop(status ?? new Status(StatusCode.CANCELLED, `Flow ${flow.name || 'main'} was cancelled.`));
    },
  };
}

/** Writes the given input values and closes the ports; unsupplied ports are closed empty. */
async function writeInputs(
  flow: FlowProgram,
  nodes: ReadonlyMap<string, StreamNode>,
  given: Readonly<Record<string, readonly unknown[]>>,
  open: ReadonlySet<string>,
): Promise<void> {
  for (const name of [...Object.keys(given), ...open]) {
    if (!nodes.has(name)) {
      const known = [...nodes.keys()].sort();
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        `${flow.name || 'The program'} has no input port '${name}' (declared: ${known.length ? known.join(', ') : 'none'}).`,
      );
    }
    if (open.has(name) && Object.hasOwn(given, name)) {
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        `${flow.name}'s input port '${name}' was given a value and left open. A port is filled one way or the other.`,
      );
    }
  }
  for (const port of flow.ports) {
    if (port.direction !== 'inputs' || open.has(port.name)) continue;
    const node = nodes.get(port.name)!;
    const values = given[port.name] ?? [];
    // Written without waiting for a reader: the values are in hand, and the flow reads them when it reads.
    for (const value of values) node.push(valueToChunk(value as Value, portMediaType(port)));
    node.close();
  }
}

/** Input ports nothing in the flow reads are drained, so whoever writes them never stalls. */
function drainUnreadInputs(runner: Runner, monitor: Monitor): void {
  const root = runner.analysisOf(runner.flow.root);
  for (const port of runner.flow.ports) {
    if (port.direction !== 'inputs') continue;
    if ((root.readers.get(port.ref) ?? 0) > 0) continue;
    const reader = runner.setup.ports.inputReader(port.name);
    void (async () => {
      try {
        for (;;) {
          const batch = reader.poll(64);
          if (batch === undefined) return;
          if (batch.length === 0 && (await reader.next()) === undefined) return;
          if (monitor.stopped) return;
        }
      } catch {
        // A failed input nobody reads is nobody's concern.
      } finally {
        reader.release();
      }
    })();
  }
}

/**
 * The action handler that runs one flow of `program`: register it, and the flow is an action a
 * peer can dispatch and another flow can call. Its narration goes to `options.log` or the
 * action's own log.
 */
export function makeFlowHandler(
  program: Program,
  name: string,
  options: Omit<RunFlowOptions, 'flow' | 'inputs' | 'openInputs' | 'ports' | 'headers' | 'signal' | 'actionId'> = {},
): ActionHandler {
  return async (context) => {
    const readers = new Map<string, NodeReader>();
    const ports: FlowPorts = {
      inputReader(port) {
        let reader = readers.get(port);
        if (!reader) {
          reader = context.input(port);
          readers.set(port, reader);
        }
        return reader;
      },
      inputNode: (port) => context.input(port).node,
      output: (port) => context.output(port),
    };
    const run = runFlow(program, {
      ...options,
      flow: name,
      ports,
      headers: context.headers,
      signal: context.signal,
      actionId: context.id,
      log: options.log ?? ((message, level, extra) => context.log(message, level, extra)),
    });
    const status = await run.done;
    status.throwIfError();
  };
}

/** The values of a finished run's outputs: one value (or null) per unary port, a list per stream. */
export async function collectOutputs(run: FlowRun, types: HostTypes = NO_HOST_TYPES): Promise<Record<string, Value>> {
  const collected: Record<string, Value> = {};
  await Promise.all(
    run.flow.ports
      .filter((port) => port.direction === 'outputs')
      .map(async (port) => {
        const values: Value[] = [];
        const reader = run.outputs.get(port.name)!.reader();
        try {
          for (;;) {
            const chunk = await reader.next();
            if (chunk === undefined) break;
            values.push(decodeChunk(chunk, types));
          }
        } catch {
          // A failed output ends where it failed; the run's status says why.
        }
        collected[port.name] = port.unary ? (values[0] ?? null) : values;
      }),
  );
  return collected;
}

export { valueToNodeChunk };
