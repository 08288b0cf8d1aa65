/**
 * Running a flow in this page: the runtime (src/flow/runtime) executes it here, its `run` steps
 * on the page's own actions (the microphone), its `call` steps on the gateway over the session.
 * Every port of the run is watched — the flow's inputs and outputs, the nodes it makes, and the
 * ports of every action it starts — so the inspector shows the whole composition, not just its
 * ends.
 */
import type { Catalogue } from '../../flow/catalogue';
import { compileFlow } from '../../flow/compile';
import { diagnosticToText, firstError } from '../../flow/diagnostics/diagnostic';
import { LocalNodeMap, type NodeMap } from '../../flow/runtime/executor/nodes';
import { runFlow } from '../../flow/runtime/run-flow';
import { HostTypes, taggedRecordType } from '../../flow/runtime/values/host-types';
// Isomorphic (the runtime's values and the Interaction schema only): the page builds Interactions
// exactly as a flow on the gateway does.
import { gatewayHostTypes } from '../../gateway/flow-tools/host-types';
import type { ActionDispatcher, ActionHandler, Invocation, InvokeOptions } from '../../wire/action';
import type { Chunk } from '../../wire/chunk';
import { Media, parseMimetype } from '../../wire/media';
import type { StreamNode } from '../../wire/node';
import { ActionRegistry } from '../../wire/registry';
import type { ActionSchema } from '../../wire/schema';
import { Status, StatusCode } from '../../wire/status';
import type { RunExecutor, RunningFlow, RunOutcome, RunReporter, RunRequest } from './executor';
import { recordGivenInputs } from './given-inputs';

/** What the page executor needs from the page: its own actions, the gateway's, and the session. */
export interface PageRunWorld {
  /** The page's own registry (actions with handlers: the capture actions). */
  registry: ActionRegistry;
  /** The gateway's action schemas, by name; empty when not connected. */
  gatewaySchemas(): ReadonlyMap<string, ActionSchema>;
  /** The session to the gateway, where `call` steps go; null when not connected. */
  peer(): ActionDispatcher | null;
  /** What the compiler checks calls against for a run here. */
  catalogue(): Catalogue | null;
}

/** Starts actions through `inner`, letting `observe` see each invocation's ports first. */
class ObservingDispatcher implements ActionDispatcher {
  constructor(
    private readonly inner: ActionDispatcher,
    private readonly observe: (schema: ActionSchema, invocation: Invocation) => void,
  ) {}

  invoke(schema: ActionSchema, options?: InvokeOptions): Invocation {
    const invocation = this.inner.invoke(schema, options);
    this.observe(schema, invocation);
    return invocation;
  }
}

/** The run's own nodes (`node()`, `nodes` maps), each watched from the moment it exists. */
class ObservingNodeMap implements NodeMap {
  readonly #inner = new LocalNodeMap();
  readonly #seen = new Set<string>();

  constructor(private readonly onNode: (node: StreamNode) => void) {}

  get(id: string): StreamNode {
    const node = this.#inner.get(id);
    if (!this.#seen.has(id)) {
      this.#seen.add(id);
      this.onNode(node);
    }
    return node;
  }
}

/**
 * Registry tags a flow may cast to (`a11.sdk.Interaction{…}`): the gateway's own host types (an
 * Interaction is checked and its chunks written the way the gateway writes them), and every
 * other JSON tag the gateway's ports carry, as a tagged record.
 */
function hostTypesFor(schemas: ReadonlyMap<string, ActionSchema>): HostTypes {
  const types = new HostTypes();
  for (const tag of gatewayHostTypes.tags()) types.register(gatewayHostTypes.get(tag)!);
  for (const schema of schemas.values()) {
    for (const port of [...schema.inputs, ...schema.outputs]) {
      const { base, tag } = parseMimetype(port.type);
      if (tag && base === Media.json && !types.get(tag)) types.register(taggedRecordType(tag));
    }
  }
  return types;
}

function shortNodeName(id: string, actionId: string): string {
  return id.startsWith(`${actionId}#`) ? id.slice(actionId.length + 1) : id;
}

export class PageExecutor implements RunExecutor {
  constructor(private readonly world: PageRunWorld) {}

  unavailable(): string | null {
    // A flow runs here with or without a gateway; its `call` steps fail clearly without one.
    return null;
  }

  start(request: RunRequest, reporter: RunReporter): RunningFlow {
    const catalogue = this.world.catalogue();
    const compiled = compileFlow(request.source, { sourceName: 'flow', ...(catalogue ? { catalogue } : {}) });
    const error = firstError(compiled.diagnostics);
    if (!compiled.program || error) {
      const message = error ? diagnosticToText(error, 'flow') : 'The flow does not compile.';
      return { done: Promise.resolve({ status: new Status(StatusCode.INVALID_ARGUMENT, message) }), cancel() {} };
    }

    const counts = new Map<string, number>();
    const observeCall = (schema: ActionSchema, invocation: Invocation) => {
      const n = (counts.get(schema.name) ?? 0) + 1;
      counts.set(schema.name, n);
      const label = n === 1 ? schema.name : `${schema.name}#${n}`;
      for (const port of schema.inputs) reporter.watch(invocation.input(port.name), `${label}.${port.name}`, 'node');
      for (const port of schema.outputs) reporter.watch(invocation.output(port.name), `${label}.${port.name}`, 'node');
    };

    // The page's actions (with their handlers, watched), then the gateway's schemas for `call`.
    const registry = new ActionRegistry();
    for (const entry of this.world.registry.list()) {
      const handler = entry.handler;
      const watched: ActionHandler | undefined = handler
        ? (context) => {
            for (const port of entry.schema.inputs) reporter.watch(context.input(port.name).node, `${entry.schema.name}.${port.name}`, 'node');
            for (const port of entry.schema.outputs) reporter.watch(context.output(port.name), `${entry.schema.name}.${port.name}`, 'node');
            return handler(context);
          }
        : undefined;
      registry.register(entry.schema, watched);
    }
    const gateway = this.world.gatewaySchemas();
    for (const schema of gateway.values()) if (!registry.has(schema.name)) registry.register(schema);

    const peer = this.world.peer();
    const controller = new AbortController();
    let run: ReturnType<typeof runFlow>;
    try {
      run = runFlow(compiled.program, {
        flow: request.flow,
        inputs: Object.fromEntries(
          Object.entries(request.values).map(([port, value]) => {
            const declared = request.plan.inputs[port];
            return [port, declared && !declared.unary && Array.isArray(value) ? value : [value]];
          }),
        ),
        openInputs: request.open,
        registry,
        ...(peer ? { peer: new ObservingDispatcher(peer, observeCall) } : {}),
        headers: request.headers,
        signal: controller.signal,
        log: (message, level) => reporter.log(`${level}: ${typeof message === 'string' ? message : JSON.stringify(message)}`),
        types: hostTypesFor(gateway),
        nodeMap: new ObservingNodeMap((node) => reporter.watch(node, shortNodeName(node.id, run?.actionId ?? ''), 'node')),
      });
    } catch (error) {
      return { done: Promise.resolve({ status: Status.fromError(error) }), cancel() {} };
    }

    recordGivenInputs(request, reporter);
    for (const [port, node] of run.inputs) {
      reporter.watch(node, port, 'input');
      void reporter.feedFromMicrophone(node).catch((failure: unknown) => node.abort(Status.fromError(failure)));
    }
    const collected: Record<string, unknown[]> = {};
    const pumps = [...run.outputs].map(async ([port, node]) => {
      reporter.watch(node, port, 'output');
      const sink = reporter.output(port);
      const values: unknown[] = (collected[port] = []);
      try {
        for await (const chunk of node.reader()) {
          sink.push(chunk);
          if (!(chunk as Chunk).isNull) values.push((chunk as Chunk).value);
        }
      } catch {
        // The run's status says why an output failed; what arrived stays shown.
      }
    });

    const done = (async (): Promise<RunOutcome> => {
      const status = await run.done;
      await Promise.all(pumps);
      // As on the gateway, a run that did not finish has no result: the outputs show what arrived.
      if (!status.ok) return { status };
      const result: Record<string, unknown> = {};
      for (const port of run.flow.ports) {
        if (port.direction !== 'outputs') continue;
        const values = collected[port.name] ?? [];
        result[port.name] = port.unary ? (values[0] ?? null) : values;
      }
      return { status, result };
    })();
    return { done, cancel: () => controller.abort() };
  }
}
