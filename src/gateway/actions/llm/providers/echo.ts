import type { ChatEvent, ChatRequest, LlmProvider } from './provider.js';

/** Pause between two words unless config.delay_ms says otherwise: slow enough to watch stream. */
const DEFAULT_DELAY_MS = 30;

/** The reply to a conversation: the last user message, said back. */
export function echoReply(request: Pick<ChatRequest, 'messages'>): string {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const said = lastUser?.text.trim();
  return said ? `Echo: ${said}` : 'Echo: (the last user turn had no text)';
}

/**
 * Not a model. An offline stand-in for demos and tests: it streams the last user message back,
 * prefixed with "Echo:", one word at a time, exactly as a real provider streams tokens.
 */
export const echoProvider: LlmProvider = {
  name: 'echo',
  summary: 'offline, not a model: streams the last user message back word by word (demos and tests)',
  defaultModel: 'echo',
  defaultBaseUrl: '',
  apiKeyEnv: [],
  baseUrlEnv: [],
  needsApiKey: false,
  async *chat(request): AsyncGenerator<ChatEvent> {
    const delay = request.config.delay_ms ?? DEFAULT_DELAY_MS;
    const words = echoReply(request).match(/\S+\s*/g) ?? [];
    yield { raw: { type: 'start', model: 'echo' }, model: 'echo' };
    for (const [index, word] of words.entries()) {
      if (index > 0 && delay > 0) await sleep(delay, request.signal);
      request.signal.throwIfAborted();
      yield { raw: { type: 'token', text: word }, text: word };
    }
    const outputTokens = words.length;
    const inputTokens = request.messages.reduce((sum, message) => sum + (message.text.match(/\S+/g)?.length ?? 0), 0);
    yield {
      raw: { type: 'stop', stop_reason: 'end_turn' },
      stopReason: 'end_turn',
      usage: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    };
  },
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
