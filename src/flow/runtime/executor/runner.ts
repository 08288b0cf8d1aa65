/**
 * One execution of one flow: what every body instance of it shares — the program, the flow's
 * ports and headers, where its calls go, its node maps, its log, and the run's monitor.
 */
import type { ActionDispatcher, Headers } from '../../../wire/action.js';
import { INHERITED_HEADER_PREFIX } from '../../../wire/action.js';
import type { LogLevel } from '../../../wire/log.js';
import type { NodeReader, StreamNode } from '../../../wire/node.js';
import type { ActionRegistry } from '../../../wire/registry.js';
import type { ActionSchema } from '../../../wire/schema.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { BodyId, FlowProgram, Program } from '../../program.js';
import type { Monitor } from '../stream/monitor.js';
import type { CoerceContext } from '../values/coerce.js';
import type { HostTypes } from '../values/host-types.js';
import { analyseBody, type BodyAnalysis } from './analysis.js';
import { LocalNodeMap, type NodeMap } from './nodes.js';

/**
 * Where a flow's declared ports are: the nodes its caller writes inputs to and reads outputs from.
 * An input port is read through one reader, taken once: a node keeps what is written for its
 * readers, and a reader that came and went would let what follows be discarded.
 */
export interface FlowPorts {
  /** The one reader the flow reads an input port with. */
  inputReader(port: string): NodeReader;
  /** An input port's node, for its status. */
  inputNode(port: string): StreamNode;
  output(port: string): StreamNode;
}

/** What a flow narrates on its action log (never on a port). */
export type FlowLog = (message: unknown, level: LogLevel, options: { channel: string; line?: number }) => void;

export interface RunnerSetup {
  readonly program: Program;
  readonly flow: FlowProgram;
  readonly ports: FlowPorts;
  /** The id of the action the flow runs as; the nodes it makes are named after it. */
  readonly actionId: string;
  /** The flow's own headers (lower-case names). */
  readonly headers: Headers;
  /** Runs `run` steps (and `call` steps when there is no peer): the registry plus sibling flows. */
  readonly local: ActionDispatcher;
  /** Where `call` steps go, when the flow is attached to a peer. */
  readonly peer: ActionDispatcher | undefined;
  /** The registry `local` runs, with the program's flows beside it. */
  readonly registry: ActionRegistry;
  /** Schemas of the program's flows, by name (siblings a flow may run or call). */
  readonly siblings: ReadonlyMap<string, ActionSchema>;
  readonly nodeMap: NodeMap;
  readonly types: HostTypes;
  readonly coercion: CoerceContext;
  readonly log: FlowLog;
  readonly monitor: Monitor;
}

export class Runner {
  readonly program: Program;
  readonly flow: FlowProgram;
  readonly monitor: Monitor;
  readonly #analyses = new Map<BodyId, BodyAnalysis>();
  readonly #checkedBodies = new Set<BodyId>();
  readonly #nodeMaps = new Map<string, NodeMap>();
  readonly #nodeCounts = new Map<string, number>();

  constructor(readonly setup: RunnerSetup) {
    this.program = setup.program;
    this.flow = setup.flow;
    this.monitor = setup.monitor;
  }

  /** The flow's name as messages say it (the entry flow has none). */
  get name(): string {
    return this.flow.name;
  }

  analysisOf(body: BodyId): BodyAnalysis {
    let analysis = this.#analyses.get(body);
    if (!analysis) {
      analysis = analyseBody(this.flow, body);
      this.#analyses.set(body, analysis);
    }
    return analysis;
  }

  /** Whether this body's call ports still have to be checked (once per body, not per pass). */
  firstCheckOf(body: BodyId): boolean {
    if (this.#checkedBodies.has(body)) return false;
    this.#checkedBodies.add(body);
    return true;
  }

  /** The map a node lives in: a `nodes` block's own (one per name per run), or the run's. */
  nodeMap(name: string): NodeMap {
    if (!name) return this.setup.nodeMap;
    let map = this.#nodeMaps.get(name);
    if (!map) {
      map = new LocalNodeMap();
      this.#nodeMaps.set(name, map);
    }
    return map;
  }

  /** An id for a node the flow declared, unique in this run: `<action>#<name>`, then `-2`, `-3`… */
  freshNodeId(name: string): string {
    const count = (this.#nodeCounts.get(name) ?? 0) + 1;
    this.#nodeCounts.set(name, count);
    return `${this.setup.actionId}#${count === 1 ? name : `${name}-${count}`}`;
  }

  /** The schema of what a call step names: a sibling flow, or a registered action. */
  schemaOf(action: string): ActionSchema {
    const sibling = this.setup.siblings.get(action);
    if (sibling) return sibling;
    const registered = this.setup.registry.get(action);
    if (registered) return registered.schema;
    const known = this.setup.registry.names().sort();
    throw new StatusError(
      StatusCode.NOT_FOUND,
      `${this.name} calls '${action}', which is not a flow in this program and is not registered here ` +
        `(registered: ${known.length ? known.join(', ') : 'none'}).`,
    );
  }

  /** Headers a nested action inherits from the flow: every `x-a11-*` one. */
  inheritedHeaders(): Map<string, string> {
    const headers = new Map<string, string>();
    for (const [name, value] of this.setup.headers) {
      if (name.toLowerCase().startsWith(INHERITED_HEADER_PREFIX)) headers.set(name.toLowerCase(), value);
    }
    return headers;
  }

  /** The flow's own headers a `forward headers` pattern list picks (case-insensitive, `*` spans). */
  forwardedHeaders(patterns: readonly string[]): Map<string, string> {
    const chosen = new Map<string, string>();
    for (const pattern of patterns) {
      const matcher = new RegExp(`^${pattern.toLowerCase().split('*').map(escapeRegExp).join('.*')}$`);
      for (const [name, value] of this.setup.headers) if (matcher.test(name.toLowerCase())) chosen.set(name.toLowerCase(), value);
    }
    return chosen;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
