import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectCall, startCall, type CallResult } from '../../../test/support/actions.js';
import { startTestGateway, type TestGateway } from '../../../test/support/flowplay-gateway.js';
import { SHOUT, checkFlow, connectCaller, logText } from '../../../test/support/flow-tools.js';
import type { Session } from '../../wire/session.js';
import { StatusCode } from '../../wire/status.js';
import { flowActionsSchema } from './schemas.js';

let gateway: TestGateway;
let client: Session;

beforeAll(async () => {
  gateway = await startTestGateway();
  client = await connectCaller(gateway);
});

afterAll(async () => {
  await gateway?.close();
});

const check = (source: string, headers: Record<string, string> = {}): Promise<CallResult> => checkFlow(client, source, headers);

describe('flow_actions', () => {
  it('lists what a flow may compose, with ports, runnable, and without the flow tools', async () => {
    const result = await collectCall(startCall(client, flowActionsSchema));
    expect(result.status.ok).toBe(true);
    const actions = result.outputs.actions![0] as { action: string; runnable: boolean; inputs: { port: string; stream?: boolean }[] }[];
    const names = actions.map((entry) => entry.action);
    expect(names).toEqual(expect.arrayContaining(['shell_execute', 'interact_with_llm', 'transcribe_audio']));
    expect(names).not.toEqual(expect.arrayContaining(['flow_run']));
    const execute = actions.find((entry) => entry.action === 'shell_execute')!;
    expect(execute.runnable).toBe(true);
    expect(execute.inputs.map((port) => port.port).sort()).toEqual(['command', 'parameters']);
    const llm = actions.find((entry) => entry.action === 'interact_with_llm')!;
    expect(llm.inputs.find((port) => port.port === 'interactions')?.stream).toBe(true);
  });

  it('lists only what x-a11-allowed-llm-actions admits, matching whole names', async () => {
    const result = await collectCall(startCall(client, flowActionsSchema, { headers: { 'x-a11-allowed-llm-actions': ' shell_list , get_.* ,' } }));
    const names = (result.outputs.actions![0] as { action: string }[]).map((entry) => entry.action).sort();
    expect(names).toEqual(['get_conversation', 'get_conversations', 'shell_list']);
    const bad = await collectCall(startCall(client, flowActionsSchema, { headers: { 'x-a11-allowed-llm-actions': 'shell_(' } }));
    expect(bad.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(bad.status.message).toContain("'shell_('");
  });
});

describe('flow_check', () => {
  it('compiles without running anything and returns the flow.plan/v1 envelope', async () => {
    const result = await check(SHOUT);
    expect(result.status.ok).toBe(true);
    const plan = result.outputs.plan![0] as { format: string; source: string; flows: { flow: string }[] };
    expect(plan.format).toBe('flow.plan/v1');
    expect(plan.source).toBe('flow');
    expect(plan.flows.map((flow) => flow.flow)).toEqual(['shout', 'whisper']);
    expect(logText(result)).toContain('Compiled 2 flow(s): shout, whisper.');
  });

  it('refuses a blank source', async () => {
    const result = await check('   \n ');
    expect(result.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(result.status.message).toContain("The 'source' input is required");
  });

  it('reports a flow that does not compile as flow:LINE:COLUMN: message', async () => {
    const result = await check('flow broken {\n  in x: strng\n}\n');
    expect(result.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(result.status.message).toMatch(/^flow:2:9: .*strng/);
  });

  it('refuses a call to an action nobody serves', async () => {
    const result = await check('flow f {\n  x = run no_such_action()\n}\n');
    expect(result.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(result.status.message).toMatch(/^flow:2:\d+: .*no_such_action/);
  });

  it('refuses a flow that calls a flow tool, and one calling what the allow-list does not admit', async () => {
    const recursive = await check('flow f {\n  in s: string\n  r = run flow_check(source: s)\n  skip r\n}\n');
    expect(recursive.status.code).toBe(StatusCode.PERMISSION_DENIED);
    expect(recursive.status.message).toContain("A flow may not call 'flow_check'");
    const forbidden = await check('flow f {\n  x = run shell_list()\n  skip x\n}\n', { 'x-a11-allowed-llm-actions': 'get_.*' });
    expect(forbidden.status.code).toBe(StatusCode.PERMISSION_DENIED);
    expect(forbidden.status.message).toContain("'shell_list', which is not an action you are allowed to call");
  });

  it('lets a flow call a flow declared in the same source whatever the allow-list says', async () => {
    const source = `${SHOUT}\nflow both {\n  in w: string required\n  out q: string\n  s = run whisper(word: w)\n  s.quiet -> q\n}\n`;
    const result = await check(source, { 'x-a11-allowed-llm-actions': 'nothing' });
    expect(result.status.ok).toBe(true);
  });
});
