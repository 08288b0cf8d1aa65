import type { UsageMetadata } from '../interaction.js';
import type { LlmConfig } from '../schema.js';

/** One message of the conversation, as every provider's API can take it. */
export interface ChatMessage {
  role: 'user' | 'model';
  text: string;
}

export interface ChatRequest {
  model: string;
  system: string;
  messages: ChatMessage[];
  config: LlmConfig;
  apiKey: string | undefined;
  baseUrl: string;
  signal: AbortSignal;
  /** The longest silence allowed from the provider, before and during the answer. */
  stallMs: number;
}

/** Something the provider said; any combination of the fields may be set. */
export interface ChatEvent {
  /** The provider's own event, as parsed (goes to `event_stream`). */
  raw?: unknown;
  /** Answer text to append (goes to `text_output` as it arrives). */
  text?: string;
  /** Reasoning text to append (goes to `thoughts`). */
  thought?: string;
  /** The model that actually answered. */
  model?: string;
  stopReason?: string;
  usage?: Partial<UsageMetadata>;
}

export interface LlmProvider {
  /** What `x-a11-llm-provider` says to pick it. */
  readonly name: string;
  /** One line for the startup banner and the schema. */
  readonly summary: string;
  readonly defaultModel: string;
  readonly defaultBaseUrl: string;
  /** Environment variables holding an API key, first found wins. */
  readonly apiKeyEnv: readonly string[];
  /** Environment variables overriding the base URL. */
  readonly baseUrlEnv: readonly string[];
  /** Whether a call without any API key should be refused before it is sent. */
  readonly needsApiKey: boolean;
  chat(request: ChatRequest): AsyncIterable<ChatEvent>;
}

/** Joins a base URL and a path without doubling or losing the slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
