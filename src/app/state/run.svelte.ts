/**
 * One flow run at a time: which flow, its inputs, where it runs, its phase, its outputs as they
 * stream, and its final result. Executors do the running (run/executor.ts); this is what the
 * run panel, the outputs panel and the status bar read.
 */
import { AUDIO_BUFFER_TAG } from '../../wire/audio-buffer';
import { Chunk } from '../../wire/chunk';
import type { StreamNode } from '../../wire/node';
import { Status, StatusCode } from '../../wire/status';
import type { RunMode } from '../examples';
import type { PlanFlowLike } from '../plan/graph';
import type { RunExecutor, RunningFlow, RunReporter } from '../run/executor';
import { collectInputs, inputFields, textOf, type InputDraft, type InputField } from '../run/input-form';
import { OutputSink } from '../run/output-sink';
import type { Inspector } from './inspector.svelte';
import type { MicrophoneState } from './microphone.svelte';
import { RunSettings } from './run-settings.svelte';

export type RunPhase = 'idle' | 'running' | 'cancelling' | 'succeeded' | 'failed' | 'cancelled';

export interface OutputView {
  port: string;
  sink: OutputSink;
  /** Values painted so far (updated once a frame). */
  values: number;
  stream: boolean;
  type: string;
  /** How text values are laid out (see OutputSink). */
  layout: 'text' | 'lines';
}

function draftKey(flow: string, port: string): string {
  return `${flow}/${port}`;
}

export class RunState {
  mode = $state<RunMode>('gateway');
  /** The flow to run, by name; empty means the first named flow, as flow_run picks. */
  flowName = $state('');
  drafts = $state<Record<string, InputDraft>>({});
  readonly settings = new RunSettings();

  phase = $state<RunPhase>('idle');
  /** What the run ended with, or why it could not start. */
  message = $state('');
  outputs = $state<OutputView[]>([]);
  result = $state.raw<Record<string, unknown> | undefined>(undefined);
  log = $state<string[]>([]);
  /** Form problems by port, shown beside each field after a refused start. */
  errors = $state<Record<string, string>>({});
  startedAt = $state(0);
  endedAt = $state(0);
  /** Live microphone feeds into open input ports. */
  feeding = $state(0);

  #running: RunningFlow | null = null;
  #feeds: (() => void)[] = [];

  constructor(
    /** Where a run can go; a mode without an executor is not offered. */
    private readonly executors: Partial<Record<RunMode, RunExecutor>>,
    private readonly inspector: Inspector,
    private readonly microphone: MicrophoneState,
    /** The flows of the shown document, from the latest check. */
    private readonly flows: () => PlanFlowLike[],
  ) {}

  /** The modes this page can run in. */
  modes(): RunMode[] {
    return (['gateway', 'page'] as const).filter((mode) => this.executors[mode] !== undefined);
  }

  get active(): boolean {
    return this.phase === 'running' || this.phase === 'cancelling';
  }

  /** Flows of the shown document that a run can pick (never the entry flow). */
  flowsAvailable(): PlanFlowLike[] {
    return this.flows();
  }

  /** The flow the form is for. */
  chosen(): PlanFlowLike | undefined {
    const flows = this.flows();
    return flows.find((flow) => flow.flow === this.flowName) ?? flows[0];
  }

  fields(): InputField[] {
    const flow = this.chosen();
    return flow ? inputFields(flow.inputs) : [];
  }

  draft(port: string): InputDraft {
    const flow = this.chosen()?.flow ?? '';
    return this.drafts[draftKey(flow, port)] ?? { texts: [''], fromMicrophone: false };
  }

  setDraft(port: string, draft: InputDraft): void {
    const flow = this.chosen()?.flow ?? '';
    this.drafts[draftKey(flow, port)] = draft;
    delete this.errors[port];
  }

  /** Fills the form from an example's values (for the flow that example runs). */
  prefill(flow: string, values: Record<string, unknown>, mode: RunMode): void {
    this.flowName = flow;
    this.mode = mode;
    const declared = this.flows().find((candidate) => candidate.flow === flow);
    for (const [port, value] of Object.entries(values)) {
      const field = declared ? inputFields(declared.inputs).find((candidate) => candidate.port === port) : undefined;
      const asText = (item: unknown) => (field ? textOf(field, item) : typeof item === 'string' ? item : JSON.stringify(item, null, 2));
      this.drafts[draftKey(flow, port)] = { texts: Array.isArray(value) && field?.stream ? value.map(asText) : [asText(value)], fromMicrophone: false };
    }
  }

  /** Why Run is disabled, or '' when it is not. */
  blocker(source: string): string {
    if (this.active) return 'A run is in progress.';
    if (!source.trim()) return 'The editor is empty.';
    const executor = this.executors[this.mode];
    if (!executor) return 'This page cannot run flows that way.';
    const unavailable = executor.unavailable();
    if (unavailable) return unavailable;
    if (!this.chosen()) return 'Waiting for the check to find a flow to run.';
    const allowed = this.settings.allowedError();
    if (allowed) return allowed;
    return '';
  }

  start(source: string): boolean {
    const blocked = this.blocker(source);
    const flow = this.chosen();
    if (blocked || !flow) {
      this.message = blocked;
      return false;
    }
    const collected = collectInputs(this.fields(), Object.fromEntries(this.fields().map((field) => [field.port, this.draft(field.port)])));
    this.errors = collected.errors;
    if (Object.keys(collected.errors).length) {
      this.message = `Fix the inputs first: ${Object.entries(collected.errors)
        .map(([port, error]) => `${port} — ${error}`)
        .join('; ')}.`;
      return false;
    }
    this.settings.save();
    this.#reset(flow);
    const reporter = this.#reporter();
    const running = this.executors[this.mode]!.start(
      { source, flow: flow.flow, plan: flow, values: collected.values, open: collected.open, headers: this.settings.headers() },
      reporter,
    );
    this.#running = running;
    void running.done.then((outcome) => {
      if (this.#running !== running) return;
      this.#running = null;
      this.#stopFeeds();
      for (const view of this.outputs) view.sink.flushPending();
      this.result = outcome.result;
      this.endedAt = performance.now();
      const { status } = outcome;
      this.phase = status.ok ? 'succeeded' : status.code === StatusCode.CANCELLED ? 'cancelled' : 'failed';
      this.message = status.ok
        ? `Finished in ${this.#elapsed()}.`
        : this.phase === 'cancelled'
          ? `CANCELLED after ${this.#elapsed()}: the run and everything it started were stopped.`
          : `${status.codeName}: ${status.message || 'the run failed'}`;
    });
    return true;
  }

  /** Asks the run to stop; returns whether there was one. */
  cancel(): boolean {
    if (!this.#running || this.phase !== 'running') return false;
    this.phase = 'cancelling';
    this.message = 'Cancelling…';
    this.#running.cancel();
    return true;
  }

  /** Shows an output's text values joined or one per line. */
  setLayout(view: OutputView, layout: 'text' | 'lines'): void {
    view.layout = layout;
    view.sink.setLayout(layout);
  }

  /** Ends live microphone feeds now (their ports close; the run goes on). */
  stopListening(): void {
    this.#stopFeeds();
  }

  #elapsed(): string {
    const ms = this.endedAt - this.startedAt;
    return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
  }

  #reset(flow: PlanFlowLike): void {
    this.phase = 'running';
    this.message = 'Running…';
    this.result = undefined;
    this.log = [];
    this.startedAt = performance.now();
    this.endedAt = 0;
    this.inspector.begin(`${flow.flow} (${this.mode})`, this.startedAt);
    this.outputs = Object.entries(flow.outputs).map(([port, declared]) => ({
      port,
      sink: new OutputSink(port),
      values: 0,
      stream: !declared.unary,
      type: declared.type,
      layout: 'text' as const,
    }));
    this.outputs.forEach((view, index) => this.#follow(view.sink, index));
  }

  /** Keeps a view's counters in step with its sink (once a frame at most). */
  #follow(sink: OutputSink, index: number): void {
    sink.onpaint = (painted) => {
      const current = this.outputs[index];
      if (current && current.sink === painted) current.values = painted.painted;
    };
    sink.onlayout = (layout) => {
      const current = this.outputs[index];
      if (current && current.sink === sink) current.layout = layout;
    };
  }

  #reporter(): RunReporter {
    return {
      output: (port) => {
        let view = this.outputs.find((candidate) => candidate.port === port);
        if (!view) {
          this.outputs.push({ port, sink: new OutputSink(port), values: 0, stream: true, type: '', layout: 'text' });
          this.#follow(this.outputs.at(-1)!.sink, this.outputs.length - 1);
          view = this.outputs.at(-1)!;
        }
        return view.sink;
      },
      watch: (node, port, role) => void this.inspector.watch(node, port, role),
      log: (line) => void this.log.push(line),
      feedFromMicrophone: (node) => this.#feed(node),
    };
  }

  async #feed(node: StreamNode): Promise<void> {
    const source = await this.microphone.open({ sampleRate: 16_000, blockFrames: 1600 });
    this.feeding++;
    this.microphone.hooks.active?.(true);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      void source.stop().then(() => {
        node.close();
        this.feeding = Math.max(0, this.feeding - 1);
        this.microphone.hooks.active?.(false);
        this.microphone.hooks.level?.(0);
      });
    };
    this.#feeds.push(stop);
    source.onblock = (block) => {
      this.microphone.hooks.level?.(block.peak);
      if (stopped || node.isClosed) return;
      node.push(
        Chunk.msgpack(
          { samples: block.samples, channels: 1, frames: block.samples.length, sampleRate: block.sampleRate, endTime: block.endTime },
          AUDIO_BUFFER_TAG,
        ),
      );
    };
    source.onended = (reason) => {
      node.abort(new Status(StatusCode.UNAVAILABLE, reason));
      stop();
    };
  }

  #stopFeeds(): void {
    for (const stop of this.#feeds.splice(0)) stop();
  }
}
