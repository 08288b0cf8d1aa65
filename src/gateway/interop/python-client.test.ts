import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../test/support/flowplay-gateway.js';
import { A11_BIN, A11_MISSING, PROJECT_ROOT } from '../../../test/support/reference.js';

/** The Python beside the reference's `a11` (its virtualenv), which has a11-kit importable. */
const PYTHON = A11_BIN ? join(dirname(A11_BIN), 'python') : null;
const DRIVER = join(PROJECT_ROOT, 'test/interop/flow_tools_client.py');
const missing = !PYTHON || !existsSync(PYTHON) ? A11_MISSING : undefined;

interface Step {
  step: string;
  error?: string;
  [field: string]: unknown;
}

function runDriver(endpoint: string): Promise<{ code: number | null; steps: Step[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON!, [DRIVER, endpoint], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const steps = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Step);
      resolve({ code, steps, stderr });
    });
  });
}

describe.skipIf(!!missing)(`the reference's Python client (a11-kit) driving our gateway${missing ? ` (${missing})` : ''}`, () => {
  let gateway: TestGateway;
  let steps: Map<string, Step>;
  let failure = '';

  beforeAll(async () => {
    gateway = await startTestGateway();
    const run = await runDriver(gateway.endpoint);
    steps = new Map(run.steps.map((step) => [step.step, step]));
    const failed = run.steps.find((step) => step.error);
    if (run.code !== 0 || failed) failure = `${failed?.step ?? 'driver'}: ${failed?.error ?? `exit ${run.code}`}\n${run.stderr.slice(-3000)}`;
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it('runs every step without an error', () => {
    expect(failure).toBe('');
  });

  it('discovers the composable actions with flow_actions, without the flow tools', () => {
    const actions = steps.get('flow_actions')?.actions as string[];
    expect(actions).toEqual(expect.arrayContaining(['shell_execute', 'interact_with_llm', 'transcribe_audio', 'get_conversations']));
    expect(actions).not.toContain('flow_run');
  });

  it('compiles with flow_check and reports a compile error by line and column', () => {
    expect(steps.get('flow_check')).toMatchObject({ format: 'flow.plan/v1', flow: 'shout', inputs: ['words'], outputs: ['loud'], steps: ['pipe'] });
    expect(steps.get('flow_check_error')?.status).toMatch(/^INVALID_ARGUMENT: flow:2:9: .*strng/);
  });

  it('streams an input port into flow_run and reads the output live, value by value', () => {
    expect(steps.get('flow_run_streamed')).toMatchObject({ live: ['ONE', 'TWO', 'THREE'], result: { loud: ['ONE', 'TWO', 'THREE'] } });
  });

  it("dispatches a flow's call step back to the client, which answers it", () => {
    expect(steps.get('flow_run_call')).toMatchObject({
      result: { names: ['interop test microphone'] },
      live: ['interop test microphone'],
      served_calls: 1,
    });
  });
});
