import { describe, expect, it } from 'vitest';
import { Chunk } from '../../wire/chunk';
import { LocalDispatcher } from '../../wire/local-dispatcher';
import type { StreamNode } from '../../wire/node';
import { ActionRegistry } from '../../wire/registry';
import { defineAction, port } from '../../wire/schema';
import { StatusCode } from '../../wire/status';
import type { PlanFlowLike } from '../plan/graph';
import type { RunReporter, RunRequest } from './executor';
import { OutputSink } from './output-sink';
import { PageExecutor } from './page-executor';

const shout = defineAction({
  name: 'shout',
  description: 'Upper-cases words (stands in for a gateway action).',
  inputs: { words: port.text({ stream: true, required: true }) },
  outputs: { loud: port.text({ stream: true }) },
});

function harness(gateway: ActionRegistry | null) {
  const watched: { port: string; role: string; values: unknown[] }[] = [];
  const sinks = new Map<string, OutputSink>();
  const reporter: RunReporter = {
    output: (name) => {
      if (!sinks.has(name)) sinks.set(name, new OutputSink(name, (callback) => queueMicrotask(callback)));
      return sinks.get(name)!;
    },
    watch: (node: StreamNode, name, role) => {
      const entry = { port: name, role, values: [] as unknown[] };
      watched.push(entry);
      node.observe({ value: (chunk) => void (chunk.isNull || entry.values.push(chunk.value)) });
    },
    log: () => {},
    feedFromMicrophone: async (node) => {
      await node.put(Chunk.text('from the microphone'));
      node.close();
    },
  };
  const executor = new PageExecutor({
    registry: new ActionRegistry(),
    gatewaySchemas: () => new Map(gateway ? gateway.list().map((entry) => [entry.schema.name, entry.schema]) : []),
    peer: () => (gateway ? new LocalDispatcher(gateway) : null),
    catalogue: () => null,
  });
  return { executor, reporter, watched, sinks };
}

function request(source: string, flow: string, plan: PlanFlowLike, values: Record<string, unknown>, open: string[] = []): RunRequest {
  return { source, flow, plan, values, open, headers: new Map() };
}

describe('running a flow in the page', () => {
  it('runs it with the runtime and streams its outputs and nodes to the inspector', async () => {
    const source = `flow greet {
  in  name: string required
  out greeting: string
  said = node()
  strformat("Hello, %s", name) -> said
  said -> greeting
}
`;
    const { executor, reporter, watched, sinks } = harness(null);
    const plan: PlanFlowLike = {
      flow: 'greet',
      inputs: { name: { type: 'string', unary: true, required: true } },
      outputs: { greeting: { type: 'string', unary: true, required: false } },
      steps: [],
    };
    const outcome = await executor.start(request(source, 'greet', plan, { name: 'Ada' }), reporter).done;
    expect(outcome.status.ok).toBe(true);
    expect(outcome.result).toEqual({ greeting: 'Hello, Ada' });
    expect(sinks.get('greeting')!.text()).toBe('Hello, Ada');
    expect(watched.find((entry) => entry.port === 'name')).toMatchObject({ role: 'input', values: ['Ada'] });
    expect(watched.find((entry) => entry.port === 'said')).toMatchObject({ role: 'node', values: ['Hello, Ada'] });
  });

  it('sends call steps to the gateway and shows the called action’s ports', async () => {
    const gateway = new ActionRegistry().register(shout, async (context) => {
      for await (const word of context.values('words')) await context.write('loud', String(word).toUpperCase());
    });
    const source = `flow loud {
  in  words: string stream
  out loud:  string stream
  s = call shout(words: words)
  s.loud -> loud
}
`;
    const { executor, reporter, watched } = harness(gateway);
    const plan: PlanFlowLike = {
      flow: 'loud',
      inputs: { words: { type: 'string', unary: false, required: false } },
      outputs: { loud: { type: 'string', unary: false, required: false } },
      steps: [],
    };
    const outcome = await executor.start(request(source, 'loud', plan, {}, ['words']), reporter).done;
    expect(outcome.status.ok).toBe(true);
    expect(outcome.result).toEqual({ loud: ['FROM THE MICROPHONE'] });
    expect(watched.find((entry) => entry.port === 'shout.loud')).toMatchObject({ role: 'node', values: ['FROM THE MICROPHONE'] });
  });

  it('refuses a flow that does not compile, saying where', async () => {
    const { executor, reporter } = harness(null);
    const plan: PlanFlowLike = { flow: 'a', inputs: {}, outputs: {}, steps: [] };
    const outcome = await executor.start(request('flow a {\n  x -> y\n}\n', 'a', plan, {}), reporter).done;
    expect(outcome.status.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(outcome.status.message).toMatch(/^flow:2:3: error: /);
  });

  it('fails a call step clearly when no gateway is connected', async () => {
    const { executor, reporter } = harness(null);
    const plan: PlanFlowLike = { flow: 'loud', inputs: {}, outputs: { loud: { type: 'string', unary: false, required: false } }, steps: [] };
    const source = 'flow loud {\n  out loud: string stream\n  s = call shout(words: "a")\n  s.loud -> loud\n}\n';
    const outcome = await executor.start(request(source, 'loud', plan, {}), reporter).done;
    expect(outcome.status.ok).toBe(false);
    expect(outcome.status.message.length).toBeGreaterThan(0);
  });

  it('has no result when the run fails, as flow_run has none: what arrived stays in the outputs', async () => {
    const gateway = new ActionRegistry().register(shout, async (context) => {
      await context.write('loud', 'FIRST');
      throw new Error('the shouting stopped');
    });
    const source = 'flow loud {\n  out loud: string stream\n  s = call shout(words: "a")\n  s.loud -> loud\n}\n';
    const { executor, reporter, sinks } = harness(gateway);
    const plan: PlanFlowLike = { flow: 'loud', inputs: {}, outputs: { loud: { type: 'string', unary: false, required: false } }, steps: [] };
    const outcome = await executor.start(request(source, 'loud', plan, {}), reporter).done;
    expect(outcome.status.ok).toBe(false);
    expect(outcome.status.message).toContain('the shouting stopped');
    expect(outcome.result).toBeUndefined();
    expect(sinks.get('loud')!.text()).toContain('FIRST');
  });
});
