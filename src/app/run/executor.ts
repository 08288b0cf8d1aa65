/**
 * How a run is carried out, whichever way it goes: on the gateway (`flow_run`) or in this page
 * (the runtime, its `call` steps going to the gateway). The run state gives an executor what to
 * run and where to report; the executor gives back something to await and to cancel.
 */
import type { StreamNode } from '../../wire/node';
import type { Status } from '../../wire/status';
import type { PlanFlowLike } from '../plan/graph';
import type { PortRole } from '../state/inspector.svelte';
import type { OutputSink } from './output-sink';

export interface RunRequest {
  source: string;
  /** The flow of the source to run. */
  flow: string;
  /** Its ports, as the plan declares them. */
  plan: PlanFlowLike;
  /** A value per unary port, a list per stream port (flow_run's `inputs`). */
  values: Record<string, unknown>;
  /** Ports the page writes while the flow runs (flow_run's `input_streams`): live microphone. */
  open: string[];
  /** Headers for the call: LLM settings, the allow-list, the deadline. */
  headers: Map<string, string>;
}

/** Where an executor reports what it sees. */
export interface RunReporter {
  /** The view of an output port. */
  output(port: string): OutputSink;
  /** Records every value of a node in the inspector. */
  watch(node: StreamNode, port: string, role: PortRole): void;
  /** Narration from the run (the gateway's log, the runtime's `log` steps). */
  log(line: string): void;
  /** Feeds an open input port from the microphone until the run ends. */
  feedFromMicrophone(node: StreamNode): Promise<void>;
}

export interface RunOutcome {
  status: Status;
  /** flow_run's collected `result`: `{port: value}` / `{port: [values]}`. */
  result?: Record<string, unknown>;
}

export interface RunningFlow {
  /** Settles with how the run ended; never rejects. */
  readonly done: Promise<RunOutcome>;
  cancel(): void;
}

export interface RunExecutor {
  /** Why this executor cannot run now (not connected…), or null when it can. */
  unavailable(): string | null;
  start(request: RunRequest, reporter: RunReporter): RunningFlow;
}
