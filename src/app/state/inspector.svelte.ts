/**
 * The stream inspector: every value on every port of a run — its inputs, its outputs and, when
 * the flow runs in the page, the flow's own nodes — with sequence number, time since the run
 * started, mimetype, size and a preview. Records are kept in a plain array and the view is told
 * about them once a frame; pausing freezes the view while recording goes on.
 */
import type { Chunk } from '../../wire/chunk';
import type { StreamNode } from '../../wire/node';
import type { Status } from '../../wire/status';
import { FrameBatcher, type FrameScheduler } from '../lib/frame-batcher';
import { previewChunk, sizeOfChunk } from '../run/preview';

export type PortRole = 'input' | 'output' | 'node';

export interface TraceRecord {
  /** Position in the run's whole trace, from 0. */
  index: number;
  port: string;
  role: PortRole;
  seq: number;
  /** Milliseconds since the run started. */
  ms: number;
  mimetype: string;
  size: number;
  preview: string;
}

export interface PortSummary {
  port: string;
  role: PortRole;
  values: number;
  bytes: number;
  mimetype: string;
  /** `open` until the stream ends; then `ok` or the failure's text. */
  state: 'open' | 'ok' | 'failed';
  message: string;
}

export class Inspector {
  /** Records the view shows; frozen while paused. */
  shown = $state(0);
  /** Records kept (updated once a frame, paused or not). */
  recorded = $state(0);
  paused = $state(false);
  ports = $state<PortSummary[]>([]);
  /** Which port the view shows; empty for all. */
  filter = $state('');
  /** Bumped whenever records change in a way a view must re-read (clear, filter). */
  revision = $state(0);

  #records: TraceRecord[] = [];
  #summaries = new Map<string, PortSummary>();
  #startedAt = 0;
  #index = 0;
  #label = '';
  readonly #batcher: FrameBatcher<null>;

  constructor(schedule?: FrameScheduler) {
    this.#batcher = new FrameBatcher(() => this.#publish(), schedule);
  }

  /** Starts a new run's trace: everything before it is dropped. */
  begin(label: string, startedAt = performance.now()): void {
    this.#records = [];
    this.#summaries.clear();
    this.#startedAt = startedAt;
    this.#index = 0;
    this.#label = label;
    this.shown = 0;
    this.recorded = 0;
    this.ports = [];
    this.revision++;
  }

  get records(): readonly TraceRecord[] {
    return this.#records;
  }

  /** The records the view lists (after the port filter), up to what it shows. */
  visible(): readonly TraceRecord[] {
    const upTo = this.#records.slice(0, this.shown);
    return this.filter ? upTo.filter((record) => record.port === this.filter) : upTo;
  }

  /** Records every value written to `node` from now on under `port`; returns the unsubscribe. */
  watch(node: StreamNode, port: string, role: PortRole): () => void {
    this.#summary(port, role);
    return node.observe({
      value: (chunk, seq) => this.record(port, role, chunk, seq),
      end: (status) => this.end(port, status),
    });
  }

  record(port: string, role: PortRole, chunk: Chunk, seq: number): void {
    if (chunk.isNull) return;
    const size = sizeOfChunk(chunk);
    this.#records.push({
      index: this.#index++,
      port,
      role,
      seq,
      ms: performance.now() - this.#startedAt,
      mimetype: chunk.mimetype,
      size,
      preview: previewChunk(chunk),
    });
    const summary = this.#summary(port, role);
    summary.values++;
    summary.bytes += size;
    summary.mimetype = chunk.mimetype;
    this.#batcher.push(null);
  }

  end(port: string, status: Status): void {
    const summary = this.#summaries.get(port);
    if (!summary) return;
    summary.state = status.ok ? 'ok' : 'failed';
    summary.message = status.ok ? '' : status.toString();
    this.#batcher.push(null);
  }

  togglePause(): void {
    this.paused = !this.paused;
    if (!this.paused) this.#publish();
  }

  /** Forgets the values recorded so far (ports stay listed; counting goes on). */
  clear(): void {
    this.#records = [];
    this.shown = 0;
    this.recorded = 0;
    this.revision++;
  }

  /** The trace as a JSON document: the run, each port's summary and every record. */
  exportJson(): string {
    return JSON.stringify(
      {
        format: 'flowplay.trace/v1',
        run: this.#label,
        ports: [...this.#summaries.values()],
        records: this.#records,
      },
      null,
      2,
    );
  }

  #summary(port: string, role: PortRole): PortSummary {
    let summary = this.#summaries.get(port);
    if (!summary) {
      summary = { port, role, values: 0, bytes: 0, mimetype: '', state: 'open', message: '' };
      this.#summaries.set(port, summary);
      this.#batcher.push(null);
    }
    return summary;
  }

  #publish(): void {
    this.ports = [...this.#summaries.values()].map((summary) => ({ ...summary }));
    this.recorded = this.#records.length;
    if (!this.paused) this.shown = this.#records.length;
  }
}
