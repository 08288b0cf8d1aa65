import { describe, expect, it } from 'vitest';
import { Chunk } from '../../wire/chunk';
import { StreamNode } from '../../wire/node';
import { Status, StatusCode } from '../../wire/status';
import type { PlanFlowLike } from '../plan/graph';
import type { RunExecutor, RunReporter, RunRequest } from '../run/executor';
import { Inspector } from './inspector.svelte';
import { MicrophoneState } from './microphone.svelte';
import { RunState } from './run.svelte';

const flow: PlanFlowLike = {
  flow: 'shout',
  inputs: {
    words: { type: 'string', unary: false, required: true },
    times: { type: 'integer', unary: true, required: false },
  },
  outputs: { loud: { type: 'string', unary: false, required: false } },
  steps: [],
};

/** An executor that writes what it is told to and ends when the test says. */
function scripted() {
  const requests: RunRequest[] = [];
  let finish: (status: Status) => void = () => {};
  let reporter: RunReporter | undefined;
  const executor: RunExecutor = {
    unavailable: () => null,
    start(request, report) {
      requests.push(request);
      reporter = report;
      const done = new Promise<Status>((resolve) => (finish = resolve));
      return { done: done.then((status) => ({ status, result: { loud: ['A', 'B'] } })), cancel: () => finish(new Status(StatusCode.CANCELLED, 'stop')) };
    },
  };
  return { executor, requests, finish: (status = Status.OK) => finish(status), reporter: () => reporter! };
}

function runState(executor: RunExecutor) {
  const microphone = new MicrophoneState(async () => {
    throw new Error('no microphone here');
  });
  return new RunState({ gateway: executor }, new Inspector((callback) => queueMicrotask(callback)), microphone, () => [flow]);
}

describe('RunState', () => {
  it('refuses to start with the inputs wrong, naming the port', () => {
    const { executor, requests } = scripted();
    const run = runState(executor);
    run.setDraft('times', { texts: ['2.5'], fromMicrophone: false });
    expect(run.start('flow shout {}')).toBe(false);
    expect(run.errors).toEqual({ words: 'required', times: 'a whole number is needed' });
    expect(run.message).toMatch(/^Fix the inputs first: words — required; times — a whole number is needed\.$/);
    expect(requests).toEqual([]);
  });

  it('runs: sends values and headers, shows outputs, ends with the result', async () => {
    const { executor, requests, finish, reporter } = scripted();
    const run = runState(executor);
    run.settings.allowed = 'shell_.*';
    run.setDraft('words', { texts: ['a', 'b'], fromMicrophone: false });
    expect(run.start('flow shout {}')).toBe(true);
    expect(run.phase).toBe('running');
    expect(requests[0]).toMatchObject({ flow: 'shout', values: { words: ['a', 'b'] }, open: [] });
    expect(requests[0]!.headers.get('x-a11-allowed-llm-actions')).toBe('shell_.*');
    expect(Number(requests[0]!.headers.get('x-a11-deadline'))).toBeGreaterThan(Date.now());
    expect(run.outputs.map((view) => view.port)).toEqual(['loud']);
    const node = new StreamNode();
    reporter().watch(node, 'loud', 'output');
    reporter().output('loud').push(Chunk.text('A'));
    expect(run.blocker('flow shout {}')).toBe('A run is in progress.');
    finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(run.phase).toBe('succeeded');
    expect(run.result).toEqual({ loud: ['A', 'B'] });
    expect(run.message).toMatch(/^Finished in /);
  });

  it('cancels a running flow and says so', async () => {
    const { executor } = scripted();
    const run = runState(executor);
    run.setDraft('words', { texts: ['a'], fromMicrophone: false });
    run.start('flow shout {}');
    expect(run.cancel()).toBe(true);
    expect(run.phase).toBe('cancelling');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(run.phase).toBe('cancelled');
    expect(run.message).toMatch(/^CANCELLED after /);
    expect(run.cancel()).toBe(false);
  });

  it('fills the form from an example, a list for a stream port', () => {
    const run = runState(scripted().executor);
    run.prefill('shout', { words: ['x', 'y'], times: 3 }, 'gateway');
    expect(run.draft('words').texts).toEqual(['x', 'y']);
    expect(run.draft('times').texts).toEqual(['3']);
  });
});
