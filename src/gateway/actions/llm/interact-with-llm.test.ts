import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callAction, logText, startCall } from '../../../../test/support/actions.js';
import { fakeServer, sendEvents, type FakeServer } from '../../../../test/support/fake-http.js';
import { Chunk } from '../../../wire/chunk.js';
import { LocalDispatcher } from '../../../wire/local-dispatcher.js';
import { ActionRegistry } from '../../../wire/registry.js';
import { StatusCode } from '../../../wire/status.js';
import { getConversationSchema, getConversationsSchema, registerConversationActions } from '../conversations/actions.js';
import { ConversationStore } from '../conversations/store.js';
import { registerInteractWithLlm } from './handler.js';
import {
  base64ToText,
  INTERACTION_MIMETYPE,
  interactionText,
  makeTextInteraction,
  parseInteraction,
  type Interaction,
} from './interaction.js';
import type { Environment } from './providers/index.js';
import { interactWithLlmSchema } from './schema.js';

const servers: FakeServer[] = [];
const cleanups: (() => void)[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function serve(route: Parameters<typeof fakeServer>[0]): Promise<FakeServer> {
  const server = await fakeServer(route);
  servers.push(server);
  return server;
}

function setup(env: Environment = {}, store?: ConversationStore) {
  const registry = new ActionRegistry();
  registerInteractWithLlm(registry, { env, ...(store ? { recorder: store } : {}) });
  if (store) registerConversationActions(registry, store);
  return new LocalDispatcher(registry);
}

const question = () => makeTextInteraction('Why is the sky blue?', { systemPrompt: 'Be brief.' });

function ask(dispatcher: LocalDispatcher, headers: Record<string, string>, interactions: Interaction[] = [question()], config?: unknown) {
  return callAction(dispatcher, interactWithLlmSchema, {
    headers,
    inputs: {
      interactions: interactions.map((interaction) => Chunk.json(interaction, 'a11.sdk.Interaction')),
      ...(config ? { config: [config] } : {}),
    },
  });
}

function answerOf(result: Awaited<ReturnType<typeof ask>>): Interaction {
  expect(result.outputs.new_interactions).toHaveLength(1);
  return parseInteraction(result.outputs.new_interactions![0]);
}

describe('interact_with_llm', () => {
  it('echo streams the last user message back word by word and says what it is', async () => {
    const dispatcher = setup();
    const asked = question();
    const call = startCall(dispatcher, interactWithLlmSchema, {
      headers: { 'x-a11-llm-provider': 'echo' },
      inputs: { interactions: [Chunk.json(asked, 'a11.sdk.Interaction')], config: [{ delay_ms: 5 }] },
    });
    const tokens: string[] = [];
    for await (const chunk of call.output('text_output').reader()) tokens.push(chunk.value as string);
    expect(tokens).toEqual(['Echo: ', 'Why ', 'is ', 'the ', 'sky ', 'blue?']);
    const [answerChunk] = await call.output('new_interactions').collect();
    expect(answerChunk!.mimetype).toBe(INTERACTION_MIMETYPE);
    const answer = parseInteraction(answerChunk!.value);
    expect(answer.role).toBe('model');
    expect(answer.model).toBe('echo');
    expect(answer.previous_interaction_id).toBe(asked.id);
    expect(interactionText(answer)).toBe('Echo: Why is the sky blue?');
    expect(answer.usage_metadata).toMatchObject({ output_tokens: 6 });
    expect(base64ToText(answer.backend_specific_metadata.provider!)).toBe('echo');
    expect((await call.done).ok).toBe(true);
    expect(interactWithLlmSchema.headers.find((h) => h.name === 'x-a11-llm-provider')?.description).toMatch(/echo is offline and not a model/);
  });

  it('talks to an OpenAI-compatible server: system prompt, bearer key, tokens, reasoning and usage', async () => {
    const server = await serve((_request, response) =>
      sendEvents(response, [
        { data: { model: 'tiny-1', choices: [{ delta: { reasoning_content: 'Rayleigh…' } }] } },
        { data: { model: 'tiny-1', choices: [{ delta: { content: 'Scattering' } }] } },
        { data: { model: 'tiny-1', choices: [{ delta: { content: ' of light.' }, finish_reason: 'stop' }] } },
        { data: { model: 'tiny-1', choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } } },
        { data: '[DONE]' },
      ]),
    );
    const dispatcher = setup();
    const result = await ask(dispatcher, {
      'x-a11-llm-provider': 'ollama',
      'x-a11-llm-model': 'tiny',
      'x-a11-llm-base-url': `${server.url}/v1`,
      'x-a11-llm-api-key': 'sk-test',
    });
    expect(result.status.toString()).toBe('OK');
    expect(result.outputs.text_output).toEqual(['Scattering', ' of light.']);
    expect(result.outputs.thoughts).toEqual(['Rayleigh…']);
    expect(result.outputs.event_stream).toHaveLength(4);
    const [request] = server.requests;
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.body).toMatchObject({
      model: 'tiny',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Why is the sky blue?' },
      ],
    });
    const answer = answerOf(result);
    expect(interactionText(answer)).toBe('Scattering of light.');
    expect(answer.model).toBe('tiny-1');
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 12, output_tokens: 3, total_tokens: 15 });
    expect(base64ToText(answer.backend_specific_metadata.stop_reason!)).toBe('stop');
  });

  it("talks to Anthropic's Messages API with its typed events", async () => {
    const server = await serve((_request, response) =>
      sendEvents(response, [
        { event: 'message_start', data: { type: 'message_start', message: { model: 'claude-x', usage: { input_tokens: 9 } } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: 'Hmm.' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'Blue ' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'light.' } } },
        { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ]),
    );
    const result = await ask(setup(), {
      'x-a11-llm-provider': 'claude',
      'x-a11-llm-base-url': server.url,
      'x-a11-llm-api-key': 'ak',
    });
    expect(result.status.ok).toBe(true);
    expect(result.outputs.text_output).toEqual(['Blue ', 'light.']);
    expect(result.outputs.thoughts).toEqual(['Hmm.']);
    const [request] = server.requests;
    expect(request!.url).toBe('/v1/messages');
    expect(request!.headers['x-api-key']).toBe('ak');
    expect(request!.headers['anthropic-version']).toBe('2023-06-01');
    expect(request!.body).toMatchObject({
      system: 'Be brief.',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Why is the sky blue?' }] }],
    });
    expect(request!.body).not.toHaveProperty('tools');
    expect(answerOf(result).usage_metadata).toMatchObject({ input_tokens: 9, output_tokens: 2, total_tokens: 11 });
  });

  it("talks to Gemini's streamGenerateContent", async () => {
    const server = await serve((_request, response) =>
      sendEvents(response, [
        { data: { candidates: [{ content: { parts: [{ text: 'Because', thought: false }] } }], modelVersion: 'gemini-z' } },
        { data: { candidates: [{ content: { parts: [{ text: ' of air.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 } } },
      ]),
    );
    const result = await ask(setup({ GEMINI_API_KEY: 'gk', GEMINI_BASE_URL: server.url }), { 'x-a11-llm-model': 'gemini-z' });
    expect(result.status.ok).toBe(true);
    expect(result.outputs.text_output).toEqual(['Because', ' of air.']);
    const [request] = server.requests;
    expect(request!.url).toBe('/v1beta/models/gemini-z:streamGenerateContent?alt=sse');
    expect(request!.headers['x-goog-api-key']).toBe('gk');
    expect(request!.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Why is the sky blue?' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
    });
    expect(answerOf(result).usage_metadata).toMatchObject({ input_tokens: 5, output_tokens: 3, total_tokens: 8 });
  });

  it('reports an HTTP error from the provider with its own explanation', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'invalid x-api-key' } }));
    });
    const result = await ask(setup(), { 'x-a11-llm-provider': 'anthropic', 'x-a11-llm-base-url': server.url });
    expect(result.status.code).toBe(StatusCode.UNAUTHENTICATED);
    expect(result.status.message).toContain('HTTP 401: invalid x-api-key');
    expect(result.ends.new_interactions?.code).toBe(StatusCode.UNAUTHENTICATED);
  });

  it('fails clearly when the provider errors mid-stream, keeping what already streamed', async () => {
    const server = await serve((_request, response) =>
      sendEvents(response, [
        { event: 'content_block_delta', data: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'Half' } } },
        { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      ]),
    );
    const result = await ask(setup(), { 'x-a11-llm-provider': 'anthropic', 'x-a11-llm-base-url': server.url });
    expect(result.status.code).toBe(StatusCode.RESOURCE_EXHAUSTED);
    expect(result.status.message).toContain('failed mid-answer: Overloaded');
    expect(result.outputs.text_output).toEqual(['Half']);
    expect(result.outputs.new_interactions).toEqual([]);
  });

  it('gives up on a provider that stalls mid-stream and closes the connection', async () => {
    const server = await serve((_request, response) =>
      sendEvents(response, [{ data: { choices: [{ delta: { content: 'Once' } }] } }, { data: '[DONE]' }], { stallAfter: 1 }),
    );
    const started = Date.now();
    const result = await ask(
      setup(),
      { 'x-a11-llm-provider': 'vllm', 'x-a11-llm-base-url': server.url },
      [question()],
      { stall_timeout_seconds: 0.3 },
    );
    expect(result.status.code).toBe(StatusCode.DEADLINE_EXCEEDED);
    expect(result.status.message).toContain('sent nothing for 0.3 s');
    expect(result.outputs.text_output).toEqual(['Once']);
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.aborted).toBe(1);
  });

  it('says when the provider cannot be reached', async () => {
    const server = await serve(() => {});
    const url = server.url;
    await server.close();
    const result = await ask(setup(), { 'x-a11-llm-provider': 'lmstudio', 'x-a11-llm-base-url': url });
    expect(result.status.code).toBe(StatusCode.UNAVAILABLE);
    expect(result.status.message).toMatch(/Cannot reach the lmstudio server .*ECONNREFUSED/);
  });

  it('refuses an unknown provider, a missing key, and a conversation with nothing to answer', async () => {
    const dispatcher = setup();
    const unknown = await ask(dispatcher, { 'x-a11-llm-provider': 'skynet' });
    expect(unknown.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(unknown.status.message).toContain("Unknown LLM provider 'skynet'");
    const keyless = await ask(dispatcher, { 'x-a11-llm-provider': 'openai' });
    expect(keyless.status.code).toBe(StatusCode.FAILED_PRECONDITION);
    expect(keyless.status.message).toContain('OPENAI_API_KEY');
    const empty = await ask(dispatcher, { 'x-a11-llm-provider': 'echo' }, []);
    expect(empty.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    const malformed = await callAction(dispatcher, interactWithLlmSchema, { inputs: { interactions: [{ role: 'robot' }] } });
    expect(malformed.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(malformed.status.message).toContain('role');
  });

  it("never sends the gateway's own key to a URL the caller chose", async () => {
    const server = await serve((_request, response) => sendEvents(response, [{ data: '[DONE]' }]));
    const result = await ask(setup({ OPENAI_API_KEY: 'secret' }), { 'x-a11-llm-provider': 'openai', 'x-a11-llm-base-url': server.url });
    expect(result.status.ok).toBe(true);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('records each turn, and the conversation survives a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowplay-conversations-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'conversations.sqlite');
    const store = new ConversationStore(path);
    const dispatcher = setup({}, store);
    const first = question();
    const turn1 = await ask(dispatcher, { 'x-a11-llm-provider': 'echo' }, [first], { delay_ms: 0 });
    const answer1 = answerOf(turn1);
    const followUp = makeTextInteraction('And at sunset?');
    const turn2 = await ask(dispatcher, { 'x-a11-llm-provider': 'echo' }, [first, answer1, followUp], { delay_ms: 0 });
    expect(interactionText(answerOf(turn2))).toBe('Echo: And at sunset?');
    store.close();

    const reopened = new ConversationStore(path);
    cleanups.unshift(() => reopened.close());
    const after = setup({}, reopened);
    const listed = await callAction(after, getConversationsSchema);
    expect(listed.outputs.conversations).toEqual([{ id: first.id, title: 'Why is the sky blue?', started_at: expect.any(Number) }]);
    const read = await callAction(after, getConversationSchema, { inputs: { id: [first.id] } });
    const texts = (read.outputs.interactions as Interaction[]).map((interaction) => interactionText(parseInteraction(interaction)));
    expect(texts).toEqual(['Why is the sky blue?', 'Echo: Why is the sky blue?', 'And at sunset?', 'Echo: And at sunset?']);
    const unknown = await callAction(after, getConversationSchema, { inputs: { id: ['nope'] } });
    expect(unknown.status.ok).toBe(true);
    expect(unknown.outputs.interactions).toEqual([]);
    expect(logText(unknown)).toContain('0 interactions');
  });
});
