import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceGateway, type ReferenceGateway } from '../../../test/support/gateway.js';
import { A11_BIN, A11_MISSING } from '../../../test/support/reference.js';
import { Chunk } from '../chunk.js';
import { deadlineHeaderValue } from '../deadline.js';
import { readLogChunk } from '../log.js';
import { connectSession } from '../node-ws.js';
import { ActionRegistry } from '../registry.js';
import { defineAction, port, type ActionSchema } from '../schema.js';
import type { Session } from '../session.js';
import { StatusCode } from '../status.js';

/**
 * Our client against the real thing: `a11 gateway run` from a11-kit 0.4.4 on loopback. Everything
 * here goes through our records, packets, connection and session; the gateway is the judge.
 */

const available = A11_BIN !== null;

/** Closes the four flow_run inputs a caller must settle, writing the ones given. */
async function startFlow(client: Session, flowRun: ActionSchema, id: string, source: string, extra: { inputs?: unknown; inputStreams?: string[]; flow?: string; headers?: Map<string, string> } = {}) {
  const call = client.invoke(flowRun, { id, ...(extra.headers ? { headers: extra.headers } : {}) });
  await call.input('source').finalize(Chunk.text(source));
  if (extra.inputs === undefined) call.input('inputs').close();
  else await call.input('inputs').finalize(Chunk.json(extra.inputs));
  if (extra.inputStreams === undefined) call.input('input_streams').close();
  else await call.input('input_streams').finalize(Chunk.json(extra.inputStreams));
  if (extra.flow === undefined) call.input('flow').close();
  else await call.input('flow').finalize(Chunk.text(extra.flow));
  return call;
}

describe.skipIf(!available)(`interop with the reference gateway${available ? '' : ` (skipped: ${A11_MISSING})`}`, () => {
  let gateway: ReferenceGateway;
  let client: Session;
  const servedHere: { headers: Record<string, string>; command: unknown }[] = [];

  // The gateway resolves a flow's `call` step against its own shell_execute and sends it here.
  const shellExecute = defineAction({
    name: 'shell_execute',
    description: 'Answered by the test client: writes the words of the command as lines.',
    inputs: { command: port.text(), parameters: port.json() },
    outputs: { output_lines: port.text({ stream: true }) },
  });
  const clientRegistry = new ActionRegistry().register(shellExecute, async (ctx) => {
    const command = await ctx.value('command');
    servedHere.push({ headers: Object.fromEntries(ctx.headers), command });
    for (const word of String(command).split(/\s+/)) await ctx.write('output_lines', word);
    ctx.log('answered by the client');
  });

  beforeAll(async () => {
    gateway = await startReferenceGateway(A11_BIN!);
    client = await connectSession(gateway.url, { registry: clientRegistry });
  }, 60_000);

  afterAll(async () => {
    if (client && !client.status) await client.close();
    await gateway?.stop();
  });

  it('lists actions over HTTP and with __list_actions__, identically', async () => {
    const response = await fetch(`${gateway.httpUrl}/actions?name=flow_.*&name=shell_execute`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const overHttp = await response.json();
    const overWire = await client.listActions({ names: ['flow_.*', 'shell_execute'] });
    expect(overWire).toEqual(overHttp);
    expect(overWire.actions.map((entry) => entry.name)).toEqual(['flow_actions', 'flow_check', 'flow_run', 'shell_execute']);
    const everything = await client.listActions({ include_reserved: true });
    expect(everything.actions.map((entry) => entry.name)).toEqual(expect.arrayContaining(['__list_actions__', '__ping', 'flow_run']));
    expect(await client.ping('interop')).toBe('interop');
  });

  it('calls flow_actions: one JSON value, then a narrated log, then OK', async () => {
    const call = client.invoke(await client.describe('flow_actions'));
    const [actions] = await call.output('actions').collect();
    const listed = actions!.value as { action: string }[];
    expect(listed.map((entry) => entry.action)).toContain('shell_execute');
    const log = (await call.log.collect()).map(readLogChunk);
    expect(log[0]).toMatchObject({ level: 'info', internal: false, message: expect.stringMatching(/^Listed \d+ action/) });
    expect((await call.done).ok).toBe(true);
  });

  it('checks a good flow (the plan) and a bad one (INVALID_ARGUMENT at flow:L:C)', async () => {
    const flowCheck = await client.describe('flow_check');
    const good = client.invoke(flowCheck);
    await good.input('source').finalize(Chunk.text('flow f {\n  out lines: string stream\n  x = run shell_execute(command: "true")\n  x.output_lines -> lines\n}\n'));
    const [plan] = await good.output('plan').collect();
    expect((plan!.value as { flows: { flow: string }[] }).flows.map((flow) => flow.flow)).toEqual(['f']);
    expect((await good.done).ok).toBe(true);

    const bad = client.invoke(flowCheck);
    await bad.input('source').finalize(Chunk.text('flow f {\n  out lines: string stream\n  x = run shell_execute(command: "true"\n}\n'));
    const status = await bad.done;
    expect(status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(status.message).toMatch(/^flow:4:1: /);
    await expect(bad.output('plan').collect()).rejects.toMatchObject({ status: { code: StatusCode.INVALID_ARGUMENT } });
  });

  it('runs a flow whose shell_execute output streams back while the flow is still running', async () => {
    const flowRun = await client.describe('flow_run');
    const source =
      'flow count {\n  out lines: string stream\n  x = run shell_execute(command: "for i in 1 2 3; do echo $i; sleep 0.3; done")\n  x.output_lines -> lines\n}\n';
    const call = await startFlow(client, flowRun, 'interop_run1', source);
    let ended = false;
    void call.done.then(() => (ended = true));
    const lines = client.node('interop_run1-flow#lines').reader();
    const first = await lines.next();
    expect(first?.value).toBe('1');
    // The first value was here before the call ended.
    expect(ended).toBe(false);
    const rest: unknown[] = [];
    for (let chunk = await lines.next(); chunk; chunk = await lines.next()) rest.push(chunk.value);
    expect(rest).toEqual(['2', '3']);
    expect((await call.output('result').collect()).map((chunk) => chunk.value)).toEqual([{ lines: ['1', '2', '3'] }]);
    expect((await call.done).ok).toBe(true);
  });

  it('feeds a flow through input_streams while it runs, with the other inputs as values', async () => {
    const flowRun = await client.describe('flow_run');
    const source = 'flow echo {\n  in words: string stream\n  in greeting: string\n  out said: string stream\n  words -> said\n  greeting -> said\n}\n';
    const call = await startFlow(client, flowRun, 'interop_run2', source, { inputs: { greeting: 'hi' }, inputStreams: ['words'], flow: 'echo' });
    const words = client.publish('interop_run2-flow#words');
    const said = client.node('interop_run2-flow#said').reader();
    await words.put(Chunk.text('one'));
    const heard = [(await said.next())?.value];
    await words.put(Chunk.text('two'));
    words.close();
    for (let chunk = await said.next(); chunk; chunk = await said.next()) heard.push(chunk.value);
    expect(heard.sort()).toEqual(['hi', 'one', 'two']);
    expect((await call.done).ok).toBe(true);
  });

  it('answers the call step a flow dispatches back, from our registry, with the call’s x-a11-* headers', async () => {
    const flowRun = await client.describe('flow_run');
    const source = 'flow back {\n  out lines: string stream\n  x = call shell_execute(command: "alpha beta gamma")\n  x.output_lines -> lines\n}\n';
    const deadline = deadlineHeaderValue(Date.now() + 20_000);
    const call = await startFlow(client, flowRun, 'interop_run3', source, {
      headers: new Map([
        ['x-a11-deadline', deadline],
        ['x-a11-shell-id', 'interop'],
      ]),
    });
    expect((await client.node('interop_run3-flow#lines').collect()).map((chunk) => chunk.value)).toEqual(['alpha', 'beta', 'gamma']);
    expect((await call.done).ok).toBe(true);
    expect(servedHere.at(-1)).toEqual({ command: 'alpha beta gamma', headers: { 'x-a11-deadline': deadline, 'x-a11-shell-id': 'interop' } });
  });

  it('describes one action the same way over HTTP and with __get_schema__', async () => {
    const overHttp = await (await fetch(`${gateway.httpUrl}/actions/flow_run`)).json();
    const schema = await client.describe('flow_run');
    expect(overHttp.actions[0].name).toBe('flow_run');
    expect(schema.inputs.map((input) => input.name).sort()).toEqual(overHttp.actions[0].inputs.map((input: { name: string }) => input.name).sort());
    const missing = await fetch(`${gateway.httpUrl}/actions/nope`);
    expect(missing.status).toBe(404);
    await expect(client.describe('nope')).rejects.toMatchObject({ code: StatusCode.NOT_FOUND });
  });

  it('ends cleanly', async () => {
    const second = await connectSession(gateway.url);
    expect(await second.ping()).toBe('ping');
    expect((await second.close()).ok).toBe(true);
  });
});
