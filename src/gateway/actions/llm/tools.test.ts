import { afterEach, describe, expect, it } from 'vitest';
import { callAction } from '../../../../test/support/actions.js';
import { fakeServer, sendEvents, type FakeServer } from '../../../../test/support/fake-http.js';
import { Chunk } from '../../../wire/chunk.js';
import { LocalDispatcher } from '../../../wire/local-dispatcher.js';
import { ActionRegistry } from '../../../wire/registry.js';
import { GLOBAL_SCOPE } from '../../scope.js';
import { registerShellActions } from '../shell/handlers.js';
import { ShellManager } from '../shell/shell-manager.js';
import { registerInteractWithLlm } from './handler.js';
import { base64ToText, chunkValues, interactionText, makeTextInteraction, parseInteraction, type Interaction } from './interaction.js';
import { geminiSchema } from './providers/gemini.js';
import { interactWithLlmSchema } from './schema.js';

const servers: FakeServer[] = [];
const shells: ShellManager[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(shells.splice(0).map((manager) => manager.close()));
});

function setup(): LocalDispatcher {
  const registry = new ActionRegistry();
  const manager = new ShellManager();
  shells.push(manager);
  registerShellActions(registry, { manager, scope: GLOBAL_SCOPE });
  registerInteractWithLlm(registry, { env: {}, registry });
  return new LocalDispatcher(registry);
}

/** A provider that answers each request with the next scripted event list. */
async function scripted(rounds: { event?: string; data: unknown }[][]): Promise<FakeServer> {
  let round = 0;
  const server = await fakeServer((_request, response) => sendEvents(response, rounds[Math.min(round++, rounds.length - 1)]!));
  servers.push(server);
  return server;
}

function ask(dispatcher: LocalDispatcher, headers: Record<string, string>, text = 'Where am I?') {
  return callAction(dispatcher, interactWithLlmSchema, {
    headers,
    inputs: { interactions: [Chunk.json(makeTextInteraction(text), 'a11.sdk.Interaction')] },
  });
}

const interactions = (values: unknown[] | undefined): Interaction[] => (values ?? []).map(parseInteraction);

describe('interact_with_llm tools', () => {
  it('offers allowed actions as tools, runs the calls the model makes, and sends back their results', async () => {
    const server = await scripted([
      [
        { data: { choices: [{ delta: { content: 'Let me look.' } }] } },
        { data: { choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_pwd', function: { name: 'shell_execute', arguments: '{"command": ' } }] } }] } },
        { data: { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"cd /tmp && pwd"}' } }] }, finish_reason: 'tool_calls' }] } },
        { data: '[DONE]' },
      ],
      [{ data: { choices: [{ delta: { content: 'You are in /tmp.' }, finish_reason: 'stop' }] } }, { data: '[DONE]' }],
    ]);
    const result = await ask(setup(), {
      'x-a11-llm-provider': 'openai',
      'x-a11-llm-base-url': server.url,
      'x-a11-allowed-llm-actions': 'shell_.*',
    });
    expect(result.status.toString()).toBe('OK');
    expect(result.outputs.text_output).toEqual(['Let me look.', 'You are in /tmp.']);

    const [first, second] = server.requests.map((request) => request.body as Record<string, any>);
    const offered = (first!.tools as { function: { name: string; parameters: any } }[]).map((tool) => tool.function.name).sort();
    expect(offered).toEqual(['shell_execute', 'shell_exit', 'shell_list', 'shell_start']);
    const execute = (first!.tools as { function: { name: string; parameters: any } }[]).find((tool) => tool.function.name === 'shell_execute')!;
    expect(execute.function.parameters.properties.command).toMatchObject({ type: 'string' });
    expect(second!.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ id: 'call_pwd', type: 'function', function: { name: 'shell_execute', arguments: '{"command":"cd /tmp && pwd"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_pwd', content: '/tmp' },
    ]);

    const [call, results, answer] = interactions(result.outputs.new_interactions);
    expect(call!.action_calls).toEqual([{ id: 'call_pwd', name: 'shell_execute' }]);
    expect(results!.role).toBe('user');
    expect(Object.keys(results!.action_outputs)).toEqual(['call_pwd']);
    expect(JSON.parse(base64ToText(results!.backend_specific_metadata.tool_logs!)).call_pwd).toContain('cd /tmp && pwd');
    expect(chunkValues(results!.content)).toEqual([
      { role: 'user', content: [{ type: 'tool_result', call_id: 'call_pwd', name: 'shell_execute', content: '/tmp' }] },
    ]);
    expect(interactionText(answer!)).toBe('You are in /tmp.');
    expect(answer!.previous_interaction_id).toBe(results!.id);
  });

  it('offers no tools without the allow-list header, and none the patterns do not admit', async () => {
    const server = await scripted([[{ data: { choices: [{ delta: { content: 'Hi.' } }] } }, { data: '[DONE]' }]]);
    await ask(setup(), { 'x-a11-llm-provider': 'openai', 'x-a11-llm-base-url': server.url });
    await ask(setup(), { 'x-a11-llm-provider': 'openai', 'x-a11-llm-base-url': server.url, 'x-a11-allowed-llm-actions': 'shell_list' });
    expect(server.requests[0]!.body).not.toHaveProperty('tools');
    expect((server.requests[1]!.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name)).toEqual(['shell_list']);
  });

  it('tells the model when it calls a tool it was not given', async () => {
    const server = await scripted([
      [
        { data: { choices: [{ delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'rm_rf', arguments: '{}' } }] } }] } },
        { data: '[DONE]' },
      ],
      [{ data: { choices: [{ delta: { content: 'Sorry.' } }] } }, { data: '[DONE]' }],
    ]);
    const result = await ask(setup(), { 'x-a11-llm-provider': 'openai', 'x-a11-llm-base-url': server.url, 'x-a11-allowed-llm-actions': 'shell_list' });
    expect(result.status.ok).toBe(true);
    const toolMessage = (server.requests[1]!.body as { messages: { role: string; content: string }[] }).messages.at(-1)!;
    expect(toolMessage).toMatchObject({ role: 'tool', content: expect.stringContaining("no tool named 'rm_rf'") });
  });

  it("runs Anthropic's tool_use blocks and answers with tool_result blocks", async () => {
    const server = await scripted([
      [
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'shell_execute' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"command":"echo hi' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: ' there"}' } } },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'tool_use' } } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
      [
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'It said hi there.' } } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
    ]);
    const result = await ask(setup(), {
      'x-a11-llm-provider': 'anthropic',
      'x-a11-llm-base-url': server.url,
      'x-a11-allowed-llm-actions': 'shell_execute',
    });
    expect(result.status.toString()).toBe('OK');
    const second = server.requests[1]!.body as { messages: { role: string; content: unknown[] }[] };
    expect(second.messages.slice(-2)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shell_execute', input: { command: 'echo hi there' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi there' }] },
    ]);
  });

  it("runs Gemini's function calls, with parameter schemas it accepts", async () => {
    const server = await scripted([
      [{ data: { candidates: [{ content: { parts: [{ functionCall: { name: 'shell_execute', args: { command: 'echo gem' } } }] } }] } }],
      [{ data: { candidates: [{ content: { parts: [{ text: 'Done.' }] }, finishReason: 'STOP' }] } }],
    ]);
    const result = await ask(setup(), {
      'x-a11-llm-provider': 'gemini',
      'x-a11-llm-base-url': server.url,
      'x-a11-allowed-llm-actions': 'shell_execute',
    });
    expect(result.status.toString()).toBe('OK');
    const first = server.requests[0]!.body as { tools: { functionDeclarations: { parameters: unknown }[] }[] };
    expect(JSON.stringify(first.tools)).not.toContain('additionalProperties');
    const second = server.requests[1]!.body as { contents: { role: string; parts: unknown[] }[] };
    expect(second.contents.slice(-2)).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'shell_execute', args: { command: 'echo gem' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'shell_execute', response: { result: 'gem' } } }] },
    ]);
  });

  it('keeps only the JSON Schema keywords Gemini accepts', () => {
    expect(
      geminiSchema({
        type: 'object',
        additionalProperties: false,
        properties: { n: { type: ['integer', 'null'], exclusiveMinimum: 0 } },
        required: ['n'],
      }),
    ).toEqual({ type: 'object', properties: { n: { type: 'integer', nullable: true } }, required: ['n'] });
  });
});
