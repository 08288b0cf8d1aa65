import { StatusCode, StatusError } from '../../../../wire/status.js';
import { postForEvents } from '../http.js';
import { joinUrl, type ChatEvent, type ChatMessage, type ChatRequest, type LlmProvider } from './provider.js';

/** Anthropic requires max_tokens; this is what a turn gets when config does not say. */
const DEFAULT_MAX_TOKENS = 4096;
const API_VERSION = '2023-06-01';

interface AnthropicEvent {
  type?: string;
  message?: { model?: string; usage?: AnthropicUsage };
  delta?: { type?: string; text?: string; thinking?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** Anthropic's Messages API, streamed. */
export const anthropicProvider: LlmProvider = {
  name: 'anthropic',
  summary: "Anthropic's Messages API (Claude)",
  defaultModel: 'claude-sonnet-4-5',
  defaultBaseUrl: 'https://api.anthropic.com',
  apiKeyEnv: ['ANTHROPIC_API_KEY'],
  baseUrlEnv: ['ANTHROPIC_BASE_URL'],
  needsApiKey: true,
  chat,
};

/** The API wants user and assistant turns alternating, starting with the user. */
function alternating(messages: readonly ChatMessage[]): { role: 'user' | 'assistant'; content: string }[] {
  const turns: { role: 'user' | 'assistant'; content: string }[] = [];
  for (const message of messages) {
    const role = message.role === 'model' ? 'assistant' : 'user';
    const last = turns.at(-1);
    if (last && last.role === role) last.content += `\n\n${message.text}`;
    else turns.push({ role, content: message.text });
  }
  return turns;
}

async function* chat(request: ChatRequest): AsyncGenerator<ChatEvent> {
  const { config } = request;
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: config.max_tokens ?? DEFAULT_MAX_TOKENS,
    messages: alternating(request.messages),
    stream: true,
    ...(request.system ? { system: request.system } : {}),
    ...(config.temperature !== undefined ? { temperature: Math.min(config.temperature, 1) } : {}),
    ...(config.top_p !== undefined ? { top_p: config.top_p } : {}),
    ...(config.stop ? { stop_sequences: config.stop } : {}),
    ...config.extra_body,
  };
  const source = `Anthropic API at ${request.baseUrl}`;
  const events = postForEvents({
    url: joinUrl(request.baseUrl, 'v1/messages'),
    headers: { 'anthropic-version': API_VERSION, ...(request.apiKey ? { 'x-api-key': request.apiKey } : {}) },
    body,
    source,
    stallMs: request.stallMs,
    signal: request.signal,
  });
  for await (const event of events) {
    let parsed: AnthropicEvent;
    try {
      parsed = JSON.parse(event.data) as AnthropicEvent;
    } catch {
      throw new StatusError(StatusCode.DATA_LOSS, `The ${source} sent an event that is not JSON: ${event.data.slice(0, 200)}`);
    }
    const type = parsed.type ?? event.event;
    if (type === 'error') {
      const code = parsed.error?.type === 'overloaded_error' ? StatusCode.RESOURCE_EXHAUSTED : StatusCode.UNAVAILABLE;
      throw new StatusError(code, `The ${source} failed mid-answer: ${parsed.error?.message ?? event.data}`);
    }
    const out: ChatEvent = { raw: parsed };
    if (type === 'message_start') {
      if (parsed.message?.model) out.model = parsed.message.model;
      if (parsed.message?.usage) out.usage = usageOf(parsed.message.usage);
    } else if (type === 'content_block_delta') {
      if (parsed.delta?.type === 'text_delta' && parsed.delta.text) out.text = parsed.delta.text;
      if (parsed.delta?.type === 'thinking_delta' && parsed.delta.thinking) out.thought = parsed.delta.thinking;
    } else if (type === 'message_delta') {
      if (parsed.delta?.stop_reason) out.stopReason = parsed.delta.stop_reason;
      if (parsed.usage) out.usage = usageOf(parsed.usage);
    }
    yield out;
    if (type === 'message_stop') return;
  }
}

function usageOf(usage: AnthropicUsage): ChatEvent['usage'] {
  const counts: NonNullable<ChatEvent['usage']> = {};
  if (usage.input_tokens !== undefined) counts.input_tokens = usage.input_tokens;
  if (usage.output_tokens !== undefined) counts.output_tokens = usage.output_tokens;
  if (usage.cache_read_input_tokens !== undefined) counts.cached_input_tokens = usage.cache_read_input_tokens;
  if (usage.cache_creation_input_tokens !== undefined) counts.cache_write_tokens = usage.cache_creation_input_tokens;
  return counts;
}
