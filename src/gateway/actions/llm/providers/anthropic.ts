import { StatusCode, StatusError } from '../../../../wire/status.js';
import { postForEvents } from '../http.js';
import { joinUrl, parseToolArguments, type ChatEvent, type ChatMessage, type ChatRequest, type LlmProvider } from './provider.js';

/** Anthropic requires max_tokens; this is what a turn gets when config does not say. */
const DEFAULT_MAX_TOKENS = 4096;
const API_VERSION = '2023-06-01';

interface AnthropicEvent {
  type?: string;
  index?: number;
  content_block?: { type?: string; id?: string; name?: string };
  message?: { model?: string; usage?: AnthropicUsage };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
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

type Block = Record<string, unknown>;

/** One conversation message as content blocks: text, tool uses, tool results. */
function blocks(message: ChatMessage): Block[] {
  const out: Block[] = [];
  for (const result of message.toolResults ?? []) {
    out.push({ type: 'tool_result', tool_use_id: result.callId, content: result.content, ...(result.isError ? { is_error: true } : {}) });
  }
  if (message.text) out.push({ type: 'text', text: message.text });
  for (const call of message.toolCalls ?? []) out.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  return out;
}

/** The API wants user and assistant turns alternating, starting with the user. */
function alternating(messages: readonly ChatMessage[]): { role: 'user' | 'assistant'; content: Block[] }[] {
  const turns: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  for (const message of messages) {
    const role = message.role === 'model' ? 'assistant' : 'user';
    const content = blocks(message);
    if (content.length === 0) continue;
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else turns.push({ role, content });
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
    ...(request.tools.length ? { tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.input_schema })) } : {}),
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
  // A tool use arrives as a block start, then its input as pieces of JSON, then the block's end.
  const uses = new Map<number, { id: string; name: string; json: string }>();
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
    } else if (type === 'content_block_start' && parsed.content_block?.type === 'tool_use') {
      uses.set(parsed.index ?? 0, { id: parsed.content_block.id ?? '', name: parsed.content_block.name ?? '', json: '' });
    } else if (type === 'content_block_delta') {
      if (parsed.delta?.type === 'text_delta' && parsed.delta.text) out.text = parsed.delta.text;
      if (parsed.delta?.type === 'thinking_delta' && parsed.delta.thinking) out.thought = parsed.delta.thinking;
      const use = uses.get(parsed.index ?? 0);
      if (parsed.delta?.type === 'input_json_delta' && use) use.json += parsed.delta.partial_json ?? '';
    } else if (type === 'content_block_stop') {
      const use = uses.get(parsed.index ?? 0);
      if (use) {
        uses.delete(parsed.index ?? 0);
        out.toolCall = { id: use.id || `toolu_${parsed.index ?? 0}`, name: use.name, arguments: parseToolArguments(use.json) };
      }
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
