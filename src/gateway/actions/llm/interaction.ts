/**
 * `a11.sdk.Interaction`: one turn of a conversation, as every A11 peer writes it.
 *
 * Interactions are kept in their wire form (the JSON object a peer sends), so one that arrives
 * from a peer and goes back out is the same bytes: nested values (content chunks, tool calls,
 * fragments) are left as they came, unknown fields survive, and the fourteen known fields are
 * written in the canonical order with their defaults filled in. No Node APIs here, so the
 * browser app can use it too.
 */
import { z } from 'zod';

export const INTERACTION_TAG = 'a11.sdk.Interaction';
export const INTERACTION_MIMETYPE = `application/json;type=${INTERACTION_TAG}`;

export const ROLES = ['user', 'model', 'system'] as const;
export type Role = (typeof ROLES)[number];

/** A chunk as JSON: base64 bytes and, unless it repeats the previous one's, its media type. */
export interface WireChunk {
  data: string;
  metadata?: { mimetype?: string; timestamp?: string | null; attributes?: Record<string, string> } | null;
  ref?: string;
  [extra: string]: unknown;
}

/** An action call as JSON (`a11.ActionMessage`): only `id` and `name` are always present. */
export interface WireActionMessage {
  id: string;
  name: string;
  inputs?: { name?: string; id?: string }[];
  outputs?: { name?: string; id?: string }[];
  headers?: Record<string, string>;
  [extra: string]: unknown;
}

export interface UsageMetadata {
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  cached_input_tokens: number | null;
  cache_write_tokens: number | null;
  reasoning_tokens: number | null;
}

export interface InteractionStatus {
  code: number;
  message: string;
  details?: unknown[];
}

export interface Interaction {
  id: string;
  role: Role;
  created_at_millis: number | null;
  previous_interaction_id: string;
  model: string;
  status: InteractionStatus | null;
  system_instructions: WireChunk[];
  action_configs: Record<string, unknown>;
  content: WireChunk[];
  action_calls: WireActionMessage[];
  action_inputs: Record<string, unknown[]>;
  action_outputs: Record<string, unknown[]>;
  /** Values are base64 bytes, as the wire spells them. */
  backend_specific_metadata: Record<string, string>;
  usage_metadata: UsageMetadata | null;
  [extra: string]: unknown;
}

const USAGE_FIELDS = [
  'input_tokens',
  'output_tokens',
  'total_tokens',
  'cached_input_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
] as const;

const wireChunk = z.looseObject({
  data: z.string().default(''),
  metadata: z
    .looseObject({
      mimetype: z.string().optional(),
      timestamp: z.string().nullish(),
      attributes: z.record(z.string(), z.string()).optional(),
    })
    .nullish(),
  ref: z.string().optional(),
});

const tokenCount = z.number().int().nullish();
const usageMetadata = z.looseObject({
  input_tokens: tokenCount,
  output_tokens: tokenCount,
  total_tokens: tokenCount,
  cached_input_tokens: tokenCount,
  cache_write_tokens: tokenCount,
  reasoning_tokens: tokenCount,
});

/** Validates an Interaction as it arrives; absent fields take their defaults. */
export const interactionSchema = z.looseObject({
  id: z.string().default(() => crypto.randomUUID()),
  role: z.enum(ROLES).default('user'),
  created_at_millis: z.number().int().nullish(),
  previous_interaction_id: z.string().default(''),
  model: z.string().default(''),
  status: z.looseObject({ code: z.number().int(), message: z.string().default('') }).nullish(),
  system_instructions: z.array(wireChunk).default([]),
  action_configs: z.record(z.string(), z.unknown()).default({}),
  content: z.array(wireChunk).default([]),
  action_calls: z.array(z.looseObject({ id: z.string().default(''), name: z.string().default('') })).default([]),
  action_inputs: z.record(z.string(), z.array(z.unknown())).default({}),
  action_outputs: z.record(z.string(), z.array(z.unknown())).default({}),
  backend_specific_metadata: z.record(z.string(), z.string()).default({}),
  usage_metadata: usageMetadata.nullish(),
});

/** Reads any value as an Interaction (INVALID_ARGUMENT-style errors come from zod). */
export function parseInteraction(value: unknown): Interaction {
  return toCanonical(interactionSchema.parse(value) as Record<string, unknown>);
}

/**
 * The interaction with its fields in the canonical order and every default written out, which
 * is how the reference's peers write one.
 */
export function toCanonical(value: Record<string, unknown>): Interaction {
  const usage = value.usage_metadata as Record<string, unknown> | null | undefined;
  const canonical: Record<string, unknown> = {
    id: value.id ?? crypto.randomUUID(),
    role: value.role ?? 'user',
    created_at_millis: value.created_at_millis ?? null,
    previous_interaction_id: value.previous_interaction_id ?? '',
    model: value.model ?? '',
    status: value.status ?? { code: 0, message: '' },
    system_instructions: value.system_instructions ?? [],
    action_configs: value.action_configs ?? {},
    content: value.content ?? [],
    action_calls: value.action_calls ?? [],
    action_inputs: value.action_inputs ?? {},
    action_outputs: value.action_outputs ?? {},
    backend_specific_metadata: value.backend_specific_metadata ?? {},
    usage_metadata: usage ? canonicalUsage(usage) : null,
  };
  for (const [key, field] of Object.entries(value)) if (!(key in canonical)) canonical[key] = field;
  return canonical as Interaction;
}

function canonicalUsage(usage: Record<string, unknown>): UsageMetadata {
  const canonical: Record<string, unknown> = {};
  for (const field of USAGE_FIELDS) canonical[field] = usage[field] ?? null;
  for (const [key, value] of Object.entries(usage)) if (!(key in canonical)) canonical[key] = value;
  return canonical as unknown as UsageMetadata;
}

export function makeUsage(counts: Partial<UsageMetadata>): UsageMetadata {
  return canonicalUsage(counts);
}

// --- chunks -------------------------------------------------------------------------------

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function textToBase64(text: string): string {
  return bytesToBase64(textEncoder.encode(text));
}

export function base64ToText(text: string): string {
  return textDecoder.decode(base64ToBytes(text));
}

/** A text/plain chunk. */
export function textChunk(text: string): WireChunk {
  return { data: textToBase64(text), metadata: { mimetype: 'text/plain' } };
}

/** An application/json chunk. */
export function jsonChunk(value: unknown): WireChunk {
  return { data: textToBase64(JSON.stringify(value)), metadata: { mimetype: 'application/json' } };
}

/**
 * The decoded values of a list of chunks. A chunk with no media type repeats the one before it
 * (peers leave out a media type equal to the previous chunk's); undecodable chunks are skipped.
 */
export function chunkValues(chunks: readonly WireChunk[]): unknown[] {
  const values: unknown[] = [];
  let mimetype = '';
  for (const chunk of chunks) {
    mimetype = chunk.metadata?.mimetype || mimetype;
    try {
      const bytes = base64ToBytes(chunk.data ?? '');
      const base = mimetype.split(';')[0]!.trim().toLowerCase();
      if (base === 'application/json') values.push(bytes.length ? JSON.parse(textDecoder.decode(bytes)) : null);
      else if (base.startsWith('text/') || base === '') values.push(textDecoder.decode(bytes));
      else values.push(bytes);
    } catch {
      // A chunk this side cannot read is not a reason to lose the rest of the turn.
    }
  }
  return values;
}

// --- text ---------------------------------------------------------------------------------

/**
 * The readable text of one decoded content value, by its shape: a string, `{text}`, or the
 * backend-neutral `{role, content: [{type: "text", text}]}` envelope (content may be a string).
 */
export function shapeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '';
  const record = value as Record<string, unknown>;
  const blocks = record.content;
  if (typeof blocks === 'string') return blocks;
  if (Array.isArray(blocks)) {
    return blocks
      .map((block) =>
        typeof block === 'object' && block !== null && typeof (block as { text?: unknown }).text === 'string'
          ? (block as { text: string }).text
          : '',
      )
      .join('');
  }
  return typeof record.text === 'string' ? record.text : '';
}

/** Best-effort text of an interaction's content (tool calls and images contribute nothing). */
export function interactionText(interaction: Pick<Interaction, 'content'>): string {
  return chunkValues(interaction.content).map(shapeText).join('');
}

/** The system instructions an interaction carries, as text. */
export function systemInstructionsText(interaction: Pick<Interaction, 'system_instructions'>): string[] {
  return chunkValues(interaction.system_instructions).map((value) => (typeof value === 'string' ? value : shapeText(value)));
}

// --- building -----------------------------------------------------------------------------

/** The backend-neutral text message envelope every A11 client and backend reads. */
export function textMessage(role: 'user' | 'model', text: string): { role: string; content: { type: 'text'; text: string }[] } {
  return { role, content: [{ type: 'text', text }] };
}

/** A user (or model) turn carrying one text message, optionally opening with a system prompt. */
export function makeTextInteraction(text: string, options: { role?: 'user' | 'model'; systemPrompt?: string } = {}): Interaction {
  const role = options.role ?? 'user';
  return toCanonical({
    role,
    content: [jsonChunk(textMessage(role, text))],
    system_instructions: options.systemPrompt ? [textChunk(options.systemPrompt)] : [],
  });
}

/** The interaction as the bytes a peer sends: compact JSON, canonical field order. */
export function encodeInteraction(interaction: Interaction): string {
  return JSON.stringify(toCanonical(interaction));
}
