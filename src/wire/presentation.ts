import { Chunk } from './chunk.js';
import { decodeText } from './codecs.js';
import { Media } from './media.js';
import { Status, StatusCode, statusCodeName } from './status.js';

/**
 * How a conversation is drawn: stored `a11.sdk.Interaction`s (or a live turn's deltas) turned into
 * a flat list of blocks — text, thoughts, tool runs with their logs, usage, errors — so every client
 * shows the same conversation the same way. Checked against the reference's presentation_events.json.
 *
 * Works on interactions in their JSON wire form (content chunks with base64 data), the shape
 * `interact_with_llm` and `get_conversation` send.
 */

/** Where a turn's tool logs ride: base64 JSON `{call id: log}` in `backend_specific_metadata`. */
export const TOOL_LOGS_KEY = 'tool_logs';

export type BlockKind = 'text' | 'thought' | 'image' | 'tool_run' | 'tool_result' | 'error' | 'usage';

export interface Usage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  [other: string]: unknown;
}

export interface PresentationBlock {
  kind: BlockKind;
  role: string;
  /** Prose, or for a tool run its user-facing log (not its result). */
  text: string;
  /** The tool call id (tool runs and results). */
  id?: string;
  toolName?: string;
  status?: Status;
  usage?: Usage;
  interactionId?: string;
  /** Still growing (live deltas only). */
  partial?: boolean;
}

/** An interaction as JSON: only the fields drawing reads. */
export interface InteractionView {
  id?: string;
  role?: string;
  status?: { code: number; message?: string } | null;
  content?: { data?: string; metadata?: { mimetype?: string } | null }[];
  action_calls?: { id?: string; name?: string }[];
  action_outputs?: Record<string, unknown>;
  backend_specific_metadata?: Record<string, unknown>;
  usage_metadata?: Usage | null;
}

/** The tool logs an interaction carries, by call id; a broken log is no reason to fail drawing. */
export function toolLogs(interaction: InteractionView): Record<string, string> {
  const raw = interaction.backend_specific_metadata?.[TOOL_LOGS_KEY];
  if (typeof raw !== 'string' || raw === '') return {};
  try {
    const parsed: unknown = JSON.parse(decodeText(fromBase64(raw)));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).map(([id, log]) => [id, String(log)]));
  } catch {
    return {};
  }
}

/** What an interaction says, as text: each content chunk decoded and read by its shape. */
export function plainText(interaction: InteractionView): string {
  return (interaction.content ?? []).map(chunkText).join('');
}

/** An interaction that only carries tool results back to the model: not drawn, its logs folded into the run. */
export function isToolResultCarrier(interaction: InteractionView): boolean {
  return Object.keys(interaction.action_outputs ?? {}).length > 0 && plainText(interaction) === '';
}

/** One interaction's blocks: its text, its tool runs (with `logs`), its usage, its failure. */
export function presentInteraction(interaction: InteractionView, logs: Record<string, string> = {}): PresentationBlock[] {
  const role = interaction.role ?? 'model';
  const base = { role, ...(interaction.id ? { interactionId: interaction.id } : {}) };
  const blocks: PresentationBlock[] = [];
  const text = plainText(interaction);
  if (text) blocks.push({ ...base, kind: 'text', text });
  for (const call of interaction.action_calls ?? []) {
    const id = call.id ?? '';
    blocks.push({ ...base, kind: 'tool_run', text: logs[id] ?? '', id, toolName: call.name ?? '' });
  }
  if (interaction.usage_metadata) blocks.push({ ...base, kind: 'usage', text: '', usage: interaction.usage_metadata });
  const status = interaction.status;
  if (status && status.code !== StatusCode.OK) blocks.push({ ...base, kind: 'error', text: '', status: new Status(status.code, status.message ?? '') });
  return blocks;
}

/**
 * A stored conversation's blocks, in order. Tool logs are gathered first (a call's log arrives
 * with the interaction after it); system interactions and result carriers are not drawn.
 */
export function presentConversation(interactions: readonly InteractionView[]): PresentationBlock[] {
  const logs: Record<string, string> = {};
  for (const interaction of interactions) Object.assign(logs, toolLogs(interaction));
  return interactions
    .filter((interaction) => interaction.role !== 'system' && !isToolResultCarrier(interaction))
    .flatMap((interaction) => presentInteraction(interaction, logs));
}

/** Hears a live turn's blocks open, grow and close. */
export interface PresentationSink {
  opened?(block: PresentationBlock): void;
  appended?(block: PresentationBlock, delta: string): void;
  closed?(block: PresentationBlock): void;
}

/**
 * One turn's blocks as they happen: text and thought deltas (from `text_output`, `thoughts`)
 * grow the open block; whole interactions (from `new_interactions`, or replayed from storage)
 * add their tool runs, usage and failures — and their text only when none was streamed, since
 * the same prose arrives both ways on a live turn.
 */
export class PresentationReducer {
  readonly #blocks: PresentationBlock[] = [];
  readonly #sink: PresentationSink;
  readonly #role: string;
  readonly #logs: Record<string, string> = {};
  readonly #runs = new Set<string>();
  #open: PresentationBlock | undefined;
  #streamedText = false;

  constructor(sink: PresentationSink = {}, role = 'model') {
    this.#sink = sink;
    this.#role = role;
  }

  get blocks(): readonly PresentationBlock[] {
    return this.#blocks;
  }

  text(delta: string): void {
    if (delta) this.#streamedText = true;
    this.#append('text', delta);
  }

  thought(delta: string): void {
    this.#append('thought', delta);
  }

  interaction(interaction: InteractionView): void {
    Object.assign(this.#logs, toolLogs(interaction));
    // A log arriving late belongs to the run already drawn.
    for (const block of this.#blocks) if (block.kind === 'tool_run' && !block.text) block.text = this.#logs[block.id ?? ''] ?? '';
    if (interaction.role === 'system' || isToolResultCarrier(interaction)) return;
    for (const block of presentInteraction(interaction, this.#logs)) {
      if (block.kind === 'text' && this.#streamedText) continue;
      if (block.kind === 'tool_run') {
        if (this.#runs.has(block.id ?? '')) continue;
        this.#runs.add(block.id ?? '');
      }
      this.#add(block);
    }
  }

  error(status: Status): void {
    this.#add({ kind: 'error', role: this.#role, text: '', status });
  }

  /** The turn is over: nothing is still growing. */
  end(): void {
    this.#closeOpen();
  }

  #add(block: PresentationBlock): void {
    this.#closeOpen();
    this.#blocks.push(block);
    this.#sink.opened?.(block);
    this.#sink.closed?.(block);
  }

  #append(kind: 'text' | 'thought', delta: string): void {
    if (!delta) return;
    if (this.#open?.kind !== kind) {
      this.#closeOpen();
      this.#open = { kind, role: this.#role, text: '', partial: true };
      this.#blocks.push(this.#open);
      this.#sink.opened?.(this.#open);
    }
    this.#open.text += delta;
    this.#sink.appended?.(this.#open, delta);
  }

  #closeOpen(): void {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    open.partial = false;
    this.#sink.closed?.(open);
  }
}

/** A block in the reference fixture's portable form (status by code name). */
export function portableBlock(block: PresentationBlock): Record<string, unknown> {
  const entry: Record<string, unknown> = { kind: block.kind, role: block.role, text: block.text };
  if (block.id) entry.id = block.id;
  if (block.toolName) entry.tool_name = block.toolName;
  if (block.status) entry.status_code = statusCodeName(block.status.code);
  if (block.usage) entry.usage = { input_tokens: block.usage.input_tokens ?? null, output_tokens: block.usage.output_tokens ?? null };
  return entry;
}

/**
 * The text of one content chunk, read by shape rather than by which model wrote it: a string,
 * `{text}`, `{content: string}`, or `{role, content: [{type: 'text', text}]}`.
 */
function chunkText(item: { data?: string; metadata?: { mimetype?: string } | null }): string {
  let value: unknown;
  try {
    value = Chunk.fromBytes(item.metadata?.mimetype || Media.bytes, fromBase64(item.data ?? '')).value;
  } catch {
    return '';
  }
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return '';
  const record = value as { content?: unknown; text?: unknown };
  if (typeof record.content === 'string') return record.content;
  if (Array.isArray(record.content)) {
    return record.content
      .map((part: unknown) => {
        const piece = part as { type?: unknown; text?: unknown } | null;
        return piece && piece.type === 'text' && typeof piece.text === 'string' ? piece.text : '';
      })
      .join('');
  }
  return typeof record.text === 'string' ? record.text : '';
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
