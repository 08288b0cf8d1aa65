import type { PlanFlow } from '../../flow/plan.js';
import type { Program } from '../../flow/program.js';
import type { ActionContext, ActionDispatcher, ActionHandler, Headers } from '../../wire/action.js';
import { Chunk } from '../../wire/chunk.js';
import { StreamNode } from '../../wire/node.js';
import type { ActionRegistry } from '../../wire/registry.js';
import { StatusCode, StatusError } from '../../wire/status.js';
import { allowedPatterns, allowListMatcher } from '../actions/allow-list.js';
import { compileSubmitted, requiredSource } from './compile.js';
import { composableActions } from './composable.js';
import { flowInputNodeId, flowOutputNodeId, FLOW_ACTION_SUFFIX } from './schemas.js';

/** How much of a flow the run log quotes. */
const SOURCE_LOG_LIMIT = 2000;

/** What the runtime is handed to run one flow of a compiled program. */
export interface FlowRunRequest {
  program: Program;
  flow: string;
  /** The id the flow runs as (`<callId>-flow`), for its nested calls and its log. */
  id: string;
  /** One node per declared input: given values already written and closed, open ports left to the caller. */
  inputs: ReadonlyMap<string, StreamNode>;
  /** One node per declared output; the runtime writes and closes them. */
  outputs: ReadonlyMap<string, StreamNode>;
  /** What `run` steps run: this side's registry. */
  registry: ActionRegistry;
  /** Dispatches `call` steps to the caller; absent when the caller is in-process. */
  peer: ActionDispatcher | undefined;
  /** A node the caller writes, by id (`node(history)`); absent when the caller is in-process. */
  callerNode: ((id: string) => StreamNode) | undefined;
  /** Shows the caller a node of the flow's own (a `run … tee` step's ports); absent in-process. */
  showCaller: ((id: string, node: StreamNode) => void) | undefined;
  headers: Headers;
  signal: AbortSignal;
  deadline: number | undefined;
  /** The flow's narration (`log`, `logf`, `| log`), which goes to flow_run's own log. */
  log: ActionContext['log'];
}

/** Runs a flow to its end; rejects with the flow's failure. */
export type FlowRunner = (request: FlowRunRequest) => Promise<void>;

export interface FlowToolsOptions {
  /** The registry the flows compose (and compile against). */
  registry: ActionRegistry;
}

export function flowActions({ registry }: FlowToolsOptions): ActionHandler {
  return async (ctx) => {
    const described = composableActions(registry, allowListMatcher(allowedPatterns(ctx.headers)));
    await ctx.write('actions', described);
    ctx.log(`Listed ${described.length} action(s) a flow may call.\n\n${described.map((entry) => entry.action).join(', ') || 'none'}`);
  };
}

export function flowCheck({ registry }: FlowToolsOptions): ActionHandler {
  return async (ctx) => {
    const source = requiredSource(await ctx.value('source'));
    const { plan } = compileSubmitted(source, registry, allowListMatcher(allowedPatterns(ctx.headers)));
    const described = plan.diagnostics && plan.diagnostics.length === 0 ? withoutDiagnostics(plan) : plan;
    await ctx.write('plan', described);
    ctx.log(`Compiled ${plan.flows.length} flow(s): ${plan.flows.map((flow) => flow.flow).join(', ')}.\n\n${fenced(source)}`);
  };
}

export function flowRun(options: FlowToolsOptions & { run: FlowRunner }): ActionHandler {
  return async (ctx) => {
    const [sourceValue, inputsValue, streamsValue, wanted] = await Promise.all([
      ctx.value('source'),
      ctx.value('inputs'),
      ctx.value('input_streams'),
      ctx.value('flow'),
    ]);
    const source = requiredSource(sourceValue);
    const given = inputValues(inputsValue);
    const open = openInputNames(streamsValue);
    const { program, plan } = compileSubmitted(source, options.registry, allowListMatcher(allowedPatterns(ctx.headers)));
    const flow = chosenFlow(plan.flows, typeof wanted === 'string' ? wanted.trim() : '');
    checkPorts(flow, given, open);
    if (open.length > 0 && !ctx.origin) {
      throw new StatusError(
        StatusCode.FAILED_PRECONDITION,
        "'input_streams' needs a caller on an A11 session to write the ports; an in-process caller passes 'inputs'.",
      );
    }

    const inputs = new Map<string, StreamNode>();
    for (const name of Object.keys(flow.inputs)) {
      if (open.includes(name)) {
        inputs.set(name, ctx.origin!.node(flowInputNodeId(ctx.id, name)));
        continue;
      }
      const node = new StreamNode({ id: flowInputNodeId(ctx.id, name), capacity: Math.max(8, given.get(name)?.length ?? 0) });
      for (const value of given.get(name) ?? []) node.push(Chunk.json(value));
      node.close();
      inputs.set(name, node);
    }
    // Published before the flow starts, so every value reaches the caller as it is written.
    const outputs = new Map<string, StreamNode>();
    for (const name of Object.keys(flow.outputs)) {
      const id = flowOutputNodeId(ctx.id, name);
      outputs.set(name, ctx.origin ? ctx.origin.publish(id) : new StreamNode({ id }));
    }
    const collected = collectOutputs(flow, outputs);
    // A failed run fails the outputs too; that failure is reported by the run itself.
    collected.catch(() => {});

    await options.run({
      program,
      flow: flow.flow,
      id: `${ctx.id}${FLOW_ACTION_SUFFIX}`,
      inputs,
      outputs,
      registry: options.registry,
      peer: ctx.origin?.peer,
      callerNode: ctx.origin ? (id) => ctx.origin!.node(id) : undefined,
      showCaller: ctx.origin ? (id, node) => ctx.origin!.mirror(node, id) : undefined,
      headers: ctx.headers,
      signal: ctx.signal,
      deadline: ctx.deadline,
      log: ctx.log,
    });
    const result = await collected;
    await ctx.write('result', result);
    const ports = Object.keys(result).sort().join(', ') || 'no outputs';
    const fed = open.length ? ` The caller filled ${[...open].sort().join(', ')}.` : '';
    ctx.log(`Ran the flow \`${flow.flow}\` (${ports}).${fed}\n\n${fenced(source)}`);
  };
}

/** `inputs`: port → a list of values (each written) or a bare value (written alone). */
function inputValues(value: unknown): Map<string, unknown[]> {
  if (value === undefined || value === null) return new Map();
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, "'inputs' is an object keyed by the flow's input ports.");
  }
  return new Map(Object.entries(value as Record<string, unknown>).map(([port, values]) => [port, Array.isArray(values) ? values : [values]]));
}

/** `input_streams`: the ports the caller will write itself; non-empty, distinct names. */
function openInputNames(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new StatusError(StatusCode.INVALID_ARGUMENT, "'input_streams' is a list of the flow's input port names.");
  const names = value.map((item) => {
    if (typeof item !== 'string' || item.trim() === '') {
      throw new StatusError(StatusCode.INVALID_ARGUMENT, `'input_streams' is a list of the flow's input port names; got ${JSON.stringify(item)}.`);
    }
    return item.trim();
  });
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new StatusError(StatusCode.INVALID_ARGUMENT, `'input_streams' names the port '${twice}' twice.`);
  return names;
}

/** The flow asked for by name, or the first named flow (an entry flow `flow { … }` is never run). */
function chosenFlow(flows: readonly PlanFlow[], wanted: string): PlanFlow {
  const named = flows.filter((flow) => !flow.entry);
  if (wanted) {
    const found = named.find((flow) => flow.flow === wanted);
    if (!found) {
      throw new StatusError(
        StatusCode.NOT_FOUND,
        `The source has no flow named '${wanted}' (it declares: ${named.map((flow) => flow.flow).join(', ') || 'none'}).`,
      );
    }
    return found;
  }
  const first = named[0];
  if (!first) throw new StatusError(StatusCode.INVALID_ARGUMENT, 'The source declares no named flow to run: write `flow NAME { … }`.');
  return first;
}

function checkPorts(flow: PlanFlow, given: ReadonlyMap<string, unknown[]>, open: readonly string[]): void {
  const declared = Object.keys(flow.inputs);
  const known = declared.join(', ') || 'none';
  for (const name of [...given.keys(), ...open]) {
    if (!declared.includes(name)) {
      throw new StatusError(StatusCode.INVALID_ARGUMENT, `The flow '${flow.flow}' has no input port '${name}' (its inputs: ${known}).`);
    }
  }
  for (const name of open) {
    if (given.has(name)) {
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        `The input port '${name}' is given a value in 'inputs' and also left open in 'input_streams'; choose one.`,
      );
    }
  }
}

/** Reads every output to its end: one value (or null) for a unary port, a list for a stream. */
async function collectOutputs(flow: PlanFlow, outputs: ReadonlyMap<string, StreamNode>): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    [...outputs].map(async ([name, node]) => {
      const values: unknown[] = [];
      for await (const chunk of node.reader()) if (!chunk.isNull) values.push(chunk.value);
      return [name, flow.outputs[name]?.unary ? (values[0] ?? null) : values] as const;
    }),
  );
  return Object.fromEntries(entries);
}

function withoutDiagnostics<T extends { diagnostics?: unknown }>(plan: T): Omit<T, 'diagnostics'> {
  const { diagnostics: _none, ...rest } = plan;
  return rest;
}

function fenced(source: string): string {
  const text = source.trim();
  return `\`\`\`\n${text.length > SOURCE_LOG_LIMIT ? `${text.slice(0, SOURCE_LOG_LIMIT)}\n…` : text}\n\`\`\``;
}
