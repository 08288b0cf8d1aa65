import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectCall, startCall } from '../../test/support/actions.js';
import { startTestGateway, type TestGateway } from '../../test/support/flowplay-gateway.js';
import { fakeServer, sendEvents } from '../../test/support/fake-http.js';
import { Chunk } from '../wire/chunk.js';
import { ActionRegistry } from '../wire/registry.js';
import { defineAction, port } from '../wire/schema.js';
import { Status, StatusCode } from '../wire/status.js';
import { getConversationsSchema } from './actions/conversations/actions.js';
import { interactionText, makeTextInteraction, parseInteraction } from './actions/llm/interaction.js';
import { interactWithLlmSchema } from './actions/llm/schema.js';
import { shellExecuteSchema, shellListSchema, shellStartSchema } from './actions/shell/schemas.js';
import { flowRunSchema } from './flow-tools/schemas.js';
import { readOnlyPolicy } from './stdlib/index.js';

const gateways: TestGateway[] = [];

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});

async function gateway(): Promise<TestGateway> {
  const started = await startTestGateway();
  gateways.push(started);
  return started;
}

function running(marker: string): boolean {
  return execFileSync('ps', ['-A', '-o', 'args='], { encoding: 'utf8' })
    .split('\n')
    .some((line) => line.includes(marker));
}

async function eventually(check: () => boolean, withinMs = 5000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const uniqueSleep = () => `sleep 6${Math.floor(Math.random() * 9000) + 1000}`;

describe('the gateway over A11', () => {
  it('answers discovery with its actions, as GET /actions and GET /actions/<name>', async () => {
    const { started } = await gateway();
    const base = started.server.url.slice(0, started.server.url.indexOf('?'));
    const listed = (await (await fetch(`${base}actions`)).json()) as { format: string; actions: { name: string }[] };
    expect(listed.format).toBe('a11.actions/v1');
    const names = listed.actions.map((action) => action.name);
    for (const name of ['shell_execute', 'interact_with_llm', 'get_conversations', 'transcribe_audio']) expect(names).toContain(name);
    const one = await fetch(`${base}actions/shell_execute`);
    expect(one.status).toBe(200);
    expect(((await one.json()) as { actions: { name: string }[] }).actions[0]!.name).toBe('shell_execute');
    expect((await fetch(`${base}actions/no_such_action`)).status).toBe(404);
  });

  it('runs shell commands for a local client and streams their lines', async () => {
    const served = await gateway();
    const session = await served.connect();
    const started = await collectCall(startCall(session, shellStartSchema));
    const id = String(started.outputs.shell_id![0]);
    const headers = { 'x-a11-shell-id': id };
    await collectCall(startCall(session, shellExecuteSchema, { headers, inputs: { command: ['cd /tmp && X=42'] } }));
    const result = await collectCall(startCall(session, shellExecuteSchema, { headers, inputs: { command: ['pwd; echo $X'] } }));
    expect(result.status.ok).toBe(true);
    expect(result.outputs.output_lines).toEqual(['/tmp', '42']);
    expect(result.log.map((record) => String(record.message)).join('\n')).toContain('exit code 0');
  });

  it('streams a model turn and records the conversation', async () => {
    const served = await gateway();
    const session = await served.connect();
    const asked = makeTextInteraction('hello over the wire');
    const call = startCall(session, interactWithLlmSchema, {
      headers: { 'x-a11-llm-provider': 'echo' },
      inputs: { interactions: [Chunk.json(asked, 'a11.sdk.Interaction')], config: [{ delay_ms: 1 }] },
    });
    const result = await collectCall(call);
    expect(result.status.toString()).toBe('OK');
    expect((result.outputs.text_output as string[]).join('')).toBe('Echo: hello over the wire');
    expect(interactionText(parseInteraction(result.outputs.new_interactions![0]))).toBe('Echo: hello over the wire');
    const listed = await collectCall(startCall(session, getConversationsSchema));
    expect(listed.outputs.conversations).toMatchObject([{ id: asked.id, title: 'hello over the wire' }]);
  });

  it("runs a tool the caller serves itself when the model calls it", async () => {
    let round = 0;
    const provider = await fakeServer((_request, response) =>
      sendEvents(
        response,
        round++ === 0
          ? [
              { data: { choices: [{ delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'client_clock', arguments: '{"zone":"UTC"}' } }] } }] } },
              { data: '[DONE]' },
            ]
          : [{ data: { choices: [{ delta: { content: 'It is noon.' } }] } }, { data: '[DONE]' }],
      ),
    );
    try {
      const clock = defineAction({
        name: 'client_clock',
        description: 'The time where the client is.',
        inputs: { zone: port.text() },
        outputs: { time: port.text() },
      });
      const asked: unknown[] = [];
      const registry = new ActionRegistry().register(clock, async (ctx) => {
        asked.push(await ctx.value('zone'));
        await ctx.write('time', '12:00');
      });
      const served = await gateway();
      const session = await served.connect({ registry });
      const result = await collectCall(
        startCall(session, interactWithLlmSchema, {
          headers: { 'x-a11-llm-provider': 'openai', 'x-a11-llm-base-url': provider.url, 'x-a11-allowed-llm-actions': 'client_.*' },
          inputs: {
            interactions: [Chunk.json(makeTextInteraction('What time is it?'), 'a11.sdk.Interaction')],
            tools: [{ name: 'client_clock', description: 'The time where the client is.', input_schema: { type: 'object', properties: { zone: { type: 'string' } } } }],
          },
        }),
      );
      expect(result.status.toString()).toBe('OK');
      expect(asked).toEqual(['UTC']);
      const messages = (provider.requests[1]!.body as { messages: { role: string; content: string }[] }).messages;
      expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: '12:00' });
      expect(result.outputs.text_output).toEqual(['It is noon.']);
    } finally {
      await provider.close();
    }
  });

  it('ends the runs of a client that goes away, kills their processes, and keeps serving others', async () => {
    const served = await gateway();
    const leaving = await served.connect();
    const staying = await served.connect();
    const marker = uniqueSleep();
    startCall(leaving, shellExecuteSchema, { inputs: { command: [marker] } });
    const shell = await collectCall(startCall(leaving, shellStartSchema));
    const shellId = String(shell.outputs.shell_id![0]);
    expect(await eventually(() => running(marker))).toBe(true);
    leaving.abort(new Status(StatusCode.CANCELLED, 'the client left'));
    expect(await eventually(() => !running(marker))).toBe(true);
    expect(await eventually(() => served.started.gateway.shells.size === 0)).toBe(true);
    const other = await collectCall(startCall(staying, shellExecuteSchema, { inputs: { command: ['echo still here'] } }));
    expect(other.outputs.output_lines).toEqual(['still here']);
    const listed = await collectCall(startCall(staying, shellListSchema));
    expect(listed.outputs.shell_ids).not.toContain(shellId);
  });

  it("serves the standard library to flows, within the policy it was started with", async () => {
    const root = mkdtempSync(join(tmpdir(), 'flowplay-root-'));
    try {
      writeFileSync(join(root, 'notes.txt'), 'first\nsecond\n');
      const served = await startTestGateway({ stdlib: readOnlyPolicy([root]) });
      gateways.push(served);
      const session = await served.connect();
      const source = `flow lines {\n  in path: string required\n  out lines: string stream\n  f = run read_file(path: path)\n  f.lines -> lines\n  skip f.info, f.bytes, f.text\n}\n`;
      const inside = await collectCall(startCall(session, flowRunSchema, { inputs: { source: [source], inputs: [{ path: join(root, 'notes.txt') }] } }));
      expect(inside.status.toString()).toBe('OK');
      expect(inside.outputs.result).toEqual([{ lines: ['first', 'second'] }]);
      const outside = await collectCall(startCall(session, flowRunSchema, { inputs: { source: [source], inputs: [{ path: '/etc/hostname' }] } }));
      expect(outside.status.code).toBe(StatusCode.PERMISSION_DENIED);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('ends every run when it shuts down', async () => {
    const served = await gateway();
    const session = await served.connect();
    const marker = uniqueSleep();
    const call = startCall(session, shellExecuteSchema, { inputs: { command: [marker] } });
    expect(await eventually(() => running(marker))).toBe(true);
    await served.started.close();
    const status = await call.done;
    expect(status.ok).toBe(false);
    expect(await eventually(() => !running(marker))).toBe(true);
    expect(served.started.gateway.shells.size).toBe(0);
  });
});
