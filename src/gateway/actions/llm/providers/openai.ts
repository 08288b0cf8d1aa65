import { StatusCode, StatusError } from '../../../../wire/status.js';
import { errorMessageIn, postForEvents } from '../http.js';
import { joinUrl, parseToolArguments, type ChatEvent, type ChatMessage, type ChatRequest, type LlmProvider } from './provider.js';

interface OpenAiChunk {
  model?: string;
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
  } | null;
  error?: unknown;
}

export interface OpenAiCompatibleSpec {
  name: string;
  summary: string;
  defaultModel: string;
  defaultBaseUrl: string;
  apiKeyEnv?: string[];
  baseUrlEnv?: string[];
  needsApiKey?: boolean;
}

/**
 * A server speaking OpenAI's chat completions API with `stream: true`: OpenAI itself, and the
 * local servers that copy it (Ollama's /v1, llama.cpp's server, vLLM, LM Studio).
 */
export function openAiCompatible(spec: OpenAiCompatibleSpec): LlmProvider {
  return {
    name: spec.name,
    summary: spec.summary,
    defaultModel: spec.defaultModel,
    defaultBaseUrl: spec.defaultBaseUrl,
    apiKeyEnv: spec.apiKeyEnv ?? [],
    baseUrlEnv: spec.baseUrlEnv ?? [],
    needsApiKey: spec.needsApiKey ?? false,
    chat: (request) => chat(spec, request),
  };
}

async function* chat(spec: OpenAiCompatibleSpec, request: ChatRequest): AsyncGenerator<ChatEvent> {
  const { config } = request;
  const messages = [...(request.system ? [{ role: 'system', content: request.system }] : []), ...request.messages.flatMap(openAiMessages)];
  const body: Record<string, unknown> = {
    model: request.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.top_p !== undefined ? { top_p: config.top_p } : {}),
    ...(config.max_tokens !== undefined ? { max_tokens: config.max_tokens } : {}),
    ...(config.stop ? { stop: config.stop } : {}),
    ...(request.tools.length
      ? { tools: request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.input_schema } })) }
      : {}),
    ...config.extra_body,
  };
  const source = `${spec.name} server at ${request.baseUrl}`;
  const events = postForEvents({
    url: joinUrl(request.baseUrl, 'chat/completions'),
    headers: request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {},
    body,
    source,
    stallMs: request.stallMs,
    signal: request.signal,
  });
  // Tool calls arrive in pieces (the arguments as a growing string), keyed by their index.
  const calls = new Map<number, { id: string; name: string; args: string }>();
  const finishCalls = function* (): Generator<ChatEvent> {
    for (const [index, call] of [...calls].sort(([a], [b]) => a - b)) {
      yield { toolCall: { id: call.id || `call_${index}`, name: call.name, arguments: parseToolArguments(call.args) } };
    }
    calls.clear();
  };
  for await (const event of events) {
    if (event.data.trim() === '[DONE]') break;
    let chunk: OpenAiChunk;
    try {
      chunk = JSON.parse(event.data) as OpenAiChunk;
    } catch {
      throw new StatusError(StatusCode.DATA_LOSS, `The ${source} sent an event that is not JSON: ${event.data.slice(0, 200)}`);
    }
    if (chunk.error !== undefined) {
      throw new StatusError(StatusCode.UNAVAILABLE, `The ${source} failed mid-answer: ${errorMessageIn(JSON.stringify(chunk)) ?? event.data}`);
    }
    const choice = chunk.choices?.[0];
    const delta = choice?.delta;
    const thought = delta?.reasoning_content ?? delta?.reasoning ?? undefined;
    const out: ChatEvent = { raw: chunk };
    if (chunk.model) out.model = chunk.model;
    if (delta?.content) out.text = delta.content;
    if (thought) out.thought = thought;
    if (choice?.finish_reason) out.stopReason = choice.finish_reason;
    for (const piece of delta?.tool_calls ?? []) {
      const index = piece.index ?? 0;
      const call = calls.get(index) ?? { id: '', name: '', args: '' };
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.name += piece.function.name;
      if (piece.function?.arguments) call.args += piece.function.arguments;
      calls.set(index, call);
    }
    if (chunk.usage) {
      out.usage = {
        input_tokens: chunk.usage.prompt_tokens ?? null,
        output_tokens: chunk.usage.completion_tokens ?? null,
        total_tokens: chunk.usage.total_tokens ?? null,
        cached_input_tokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? null,
        reasoning_tokens: chunk.usage.completion_tokens_details?.reasoning_tokens ?? null,
      };
    }
    yield out;
  }
  yield* finishCalls();
}

/** One conversation message as chat completions messages (tool results are messages of their own). */
function openAiMessages(message: ChatMessage): Record<string, unknown>[] {
  if (message.role === 'model') {
    const calls = message.toolCalls ?? [];
    return [
      {
        role: 'assistant',
        content: message.text || (calls.length ? null : ''),
        ...(calls.length
          ? { tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })) }
          : {}),
      },
    ];
  }
  const results = (message.toolResults ?? []).map((result) => ({ role: 'tool', tool_call_id: result.callId, content: result.content }));
  return message.text ? [...results, { role: 'user', content: message.text }] : results;
}
