import type { UsageMetadata } from '../interaction.js';
import type { LlmConfig } from '../schema.js';

/** A tool the model may call: an action, described the way model APIs want it. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  input_schema: Record<string, unknown>;
}

/** The model asking for a tool to be run. */
export interface ToolCall {
  /** The provider's id for the call (generated when the provider gives none). */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** What a tool call came to, as the model is told it. */
export interface ToolResult {
  callId: string;
  name: string;
  content: string;
  isError?: boolean;
}

/** One message of the conversation, as every provider's API can take it. */
export interface ChatMessage {
  role: 'user' | 'model';
  text: string;
  /** On a model message: the tools it called. */
  toolCalls?: ToolCall[];
  /** On a user message: what those calls came to. */
  toolResults?: ToolResult[];
}

export interface ChatRequest {
  model: string;
  system: string;
  messages: ChatMessage[];
  config: LlmConfig;
  /** Tools the model may call this round (none: it must answer). */
  tools: ToolDefinition[];
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
  /** A complete tool call, once the provider has finished describing it. */
  toolCall?: ToolCall;
}

/** Parses a model's tool arguments; text that is not a JSON object becomes `{}` plus the reason. */
export function parseToolArguments(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    return { __unparsed_arguments: text };
  }
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
