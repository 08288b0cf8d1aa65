import { StatusCode, StatusError } from '../../../../wire/status.js';
import { errorMessageIn, postForEvents } from '../http.js';
import { joinUrl, type ChatEvent, type ChatMessage, type ChatRequest, type LlmProvider } from './provider.js';

interface GeminiChunk {
  candidates?: {
    content?: { parts?: { text?: string; thought?: boolean; functionCall?: { name?: string; args?: Record<string, unknown>; id?: string } }[] };
    finishReason?: string;
  }[];
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    totalTokenCount?: number;
    cachedContentTokenCount?: number;
    thoughtsTokenCount?: number;
  };
  modelVersion?: string;
  error?: unknown;
}

/** Google's Gemini API (`streamGenerateContent` with server-sent events). */
export const geminiProvider: LlmProvider = {
  name: 'gemini',
  summary: "Google's Gemini API",
  defaultModel: 'gemini-2.5-flash',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  apiKeyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  baseUrlEnv: ['GEMINI_BASE_URL'],
  needsApiKey: true,
  chat,
};

async function* chat(request: ChatRequest): AsyncGenerator<ChatEvent> {
  const { config } = request;
  const generationConfig: Record<string, unknown> = {
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.top_p !== undefined ? { topP: config.top_p } : {}),
    ...(config.max_tokens !== undefined ? { maxOutputTokens: config.max_tokens } : {}),
    ...(config.stop ? { stopSequences: config.stop } : {}),
  };
  const body: Record<string, unknown> = {
    contents: request.messages.map(geminiContent).filter((content) => content.parts.length > 0),
    ...(request.system ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
    ...(Object.keys(generationConfig).length ? { generationConfig } : {}),
    ...(request.tools.length
      ? {
          tools: [
            {
              functionDeclarations: request.tools.map((tool) => ({
                name: tool.name,
                description: tool.description,
                parameters: geminiSchema(tool.input_schema),
              })),
            },
          ],
        }
      : {}),
    ...config.extra_body,
  };
  const source = `Gemini API at ${request.baseUrl}`;
  const events = postForEvents({
    url: joinUrl(request.baseUrl, `v1beta/models/${encodeURIComponent(request.model)}:streamGenerateContent?alt=sse`),
    headers: request.apiKey ? { 'x-goog-api-key': request.apiKey } : {},
    body,
    source,
    stallMs: request.stallMs,
    signal: request.signal,
  });
  let calls = 0;
  for await (const event of events) {
    let chunk: GeminiChunk;
    try {
      chunk = JSON.parse(event.data) as GeminiChunk;
    } catch {
      throw new StatusError(StatusCode.DATA_LOSS, `The ${source} sent an event that is not JSON: ${event.data.slice(0, 200)}`);
    }
    if (chunk.error !== undefined) {
      throw new StatusError(StatusCode.UNAVAILABLE, `The ${source} failed mid-answer: ${errorMessageIn(event.data) ?? event.data}`);
    }
    const candidate = chunk.candidates?.[0];
    const out: ChatEvent = { raw: chunk };
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall?.name) {
        // Gemini gives calls no id of its own; this one only has to be unique within the turn.
        yield { toolCall: { id: part.functionCall.id ?? `call_${++calls}`, name: part.functionCall.name, arguments: part.functionCall.args ?? {} } };
      }
      if (!part.text) continue;
      if (part.thought) out.thought = (out.thought ?? '') + part.text;
      else out.text = (out.text ?? '') + part.text;
    }
    if (chunk.modelVersion) out.model = chunk.modelVersion;
    if (candidate?.finishReason) out.stopReason = candidate.finishReason;
    const usage = chunk.usageMetadata;
    if (usage) {
      out.usage = {
        input_tokens: usage.promptTokenCount ?? null,
        output_tokens: usage.candidatesTokenCount ?? null,
        total_tokens: usage.totalTokenCount ?? null,
        cached_input_tokens: usage.cachedContentTokenCount ?? null,
        reasoning_tokens: usage.thoughtsTokenCount ?? null,
      };
    }
    yield out;
  }
}

/** One conversation message as Gemini content: text, function calls, function responses. */
function geminiContent(message: ChatMessage): { role: string; parts: Record<string, unknown>[] } {
  const parts: Record<string, unknown>[] = [];
  for (const result of message.toolResults ?? []) {
    parts.push({ functionResponse: { name: result.name, response: result.isError ? { error: result.content } : { result: result.content } } });
  }
  if (message.text) parts.push({ text: message.text });
  for (const call of message.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.arguments } });
  return { role: message.role, parts };
}

/** Gemini's function parameters take a subset of JSON Schema; other keywords are refused, so they are left out. */
const GEMINI_SCHEMA_KEYS = new Set([
  'type', 'format', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'minItems', 'maxItems',
  'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'title',
]);

export function geminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!GEMINI_SCHEMA_KEYS.has(key)) continue;
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, geminiSchema(property)]));
    } else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((type) => type !== 'null');
      out.type = types[0] ?? 'string';
      if (types.length < value.length) out.nullable = true;
    } else {
      out[key] = key === 'items' || key === 'anyOf' ? geminiSchema(value) : value;
    }
  }
  return out;
}
