import { StatusCode, StatusError } from '../../../../wire/status.js';
import { errorMessageIn, postForEvents } from '../http.js';
import { joinUrl, type ChatEvent, type ChatRequest, type LlmProvider } from './provider.js';

interface GeminiChunk {
  candidates?: { content?: { parts?: { text?: string; thought?: boolean }[] }; finishReason?: string }[];
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
    contents: request.messages.map((message) => ({ role: message.role, parts: [{ text: message.text }] })),
    ...(request.system ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
    ...(Object.keys(generationConfig).length ? { generationConfig } : {}),
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
