import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { compileFlow } from '../../flow/compile.js';
import { runFlow } from '../../flow/runtime/run-flow.js';
import { ActionRegistry } from '../../wire/registry.js';
import { StatusCode } from '../../wire/status.js';
import { readOnlyPolicy, registerStandardLibrary } from './index.js';

async function runUnder(source: string, timeoutMs: number | undefined) {
  const compiled = compileFlow(source, { sourceName: 'bounded.flow' });
  expect(compiled.diagnostics.filter((one) => one.severity === 'error')).toEqual([]);
  const stdin = new PassThrough(); // never ends
  const streams = { stdin, stdout: new PassThrough(), stderr: new PassThrough() };
  const policy = { ...readOnlyPolicy([]), ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
  const registry = registerStandardLibrary(new ActionRegistry(), policy, { streams });
  const started = Date.now();
  const status = await runFlow(compiled.program!, { registry }).done;
  return { status, elapsed: Date.now() - started };
}

const sleeps = `
flow sleeps {
  out woke: object
  s = run sleep_for(duration: "20s")
  s.woke -> woke
}
`;

const reads = `
flow reads {
  out lines: integer
  input = run read_stdin()
  skip input.bytes, input.is_tty
  input.lines | count -> lines
}
`;

describe("the policy's bound on every action", () => {
  it('stops a long sleep and fails it DEADLINE_EXCEEDED, naming the limit', async () => {
    const { status, elapsed } = await runUnder(sleeps, 100);
    expect(status.code).toBe(StatusCode.DEADLINE_EXCEEDED);
    expect(status.message).toContain("this host's limit of 0.1s");
    expect(elapsed).toBeLessThan(5000);
  });

  it('ends a source that never ends at the limit, the way a source ends at a deadline', async () => {
    const { status, elapsed } = await runUnder(reads, 100);
    expect(status.ok, status.message).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(5000);
  });

  it('leaves actions alone that finish within it', async () => {
    const { status } = await runUnder(sleeps.replace('20s', '10ms'), 5000);
    expect(status.ok, status.message).toBe(true);
  });
});
