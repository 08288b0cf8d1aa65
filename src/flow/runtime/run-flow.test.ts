/**
 * runFlow as a host uses it: `run` against the local registry and `call` against a peer, the
 * headers a nested action gets, cancellation and deadlines reaching every handler, outputs
 * readable while the flow still runs, nodes attached by id, and a flow registered as an action.
 */
import { describe, expect, it } from 'vitest';
import type { ActionContext, ActionDispatcher, ActionHandler, InvokeOptions, Invocation } from '../../wire/action.js';
import { Chunk } from '../../wire/chunk.js';
import { LocalDispatcher } from '../../wire/local-dispatcher.js';
import { Media } from '../../wire/media.js';
import { ActionRegistry } from '../../wire/registry.js';
import { defineAction, type ActionSchema } from '../../wire/schema.js';
import { StatusCode } from '../../wire/status.js';
import { compileFlow } from '../compile.js';
import type { Program } from '../program.js';
import { LocalNodeMap } from './executor/nodes.js';
import { collectOutputs, flowActionSchema, makeFlowHandler, runFlow, type RunFlowOptions } from './run-flow.js';
import { plainValue } from './values/plain.js';

function compiled(source: string): Program {
  const result = compileFlow(source, { sourceName: 'test.flow' });
  const errors = result.diagnostics.filter((one) => one.severity === 'error');
  if (errors.length || !result.program) throw new Error(errors.map((one) => one.message).join('\n'));
  return result.program;
}

async function outcome(program: Program, options: RunFlowOptions) {
  const run = runFlow(program, options);
  const outputs = collectOutputs(run);
  const status = await run.done;
  return { status, outputs: plainValue(await outputs) as Record<string, unknown>, run };
}

const shoutSchema = defineAction({
  name: 'shout',
  description: 'Upper-cases its text.',
  inputs: { text: { type: 'string', required: true } },
  outputs: { loud: { type: 'string' } },
});

function shoutHandler(where: string, seen?: ActionContext[]): ActionHandler {
  return async (context) => {
    seen?.push(context);
    const text = String(await context.value('text'));
    await context.write('loud', `${text.toUpperCase()} (${where})`);
  };
}

/** A peer that runs what it is asked to on a registry of its own, and remembers how it was asked. */
class RecordingPeer implements ActionDispatcher {
  readonly asked: { name: string; options: InvokeOptions }[] = [];
  readonly seen: ActionContext[] = [];
  readonly #inner: LocalDispatcher;

  constructor() {
    const registry = new ActionRegistry();
    registry.register(shoutSchema, shoutHandler('peer', this.seen));
    this.#inner = new LocalDispatcher(registry);
  }

  invoke(schema: ActionSchema, options: InvokeOptions = {}): Invocation {
    this.asked.push({ name: schema.name, options });
    return this.#inner.invoke(schema, options);
  }
}

const callAndRun = compiled(`
flow both {
  in  word:   string
  out called: string
  out ran:    string
  c = call shout(text: word)
  r = run shout(text: word)
  c.loud -> called
  r.loud -> ran
}
`);

describe('run and call', () => {
  it('runs `run` here and dispatches `call` to the peer, even with a handler here', async () => {
    const registry = new ActionRegistry().register(shoutSchema, shoutHandler('here'));
    const peer = new RecordingPeer();
    const { status, outputs } = await outcome(callAndRun, { inputs: { word: ['hi'] }, registry, peer });
    expect(status.ok, status.message).toBe(true);
    expect(outputs).toEqual({ called: 'HI (peer)', ran: 'HI (here)' });
    expect(peer.asked.map((one) => one.name)).toEqual(['shout']);
  });

  it('calls a handler here when the flow is attached to no peer', async () => {
    const registry = new ActionRegistry().register(shoutSchema, shoutHandler('here'));
    const { status, outputs } = await outcome(callAndRun, { inputs: { word: ['hi'] }, registry });
    expect(status.ok, status.message).toBe(true);
    expect(outputs).toEqual({ called: 'HI (here)', ran: 'HI (here)' });
  });

  it("refuses to `run` what has only a schema here, saying to `call` it", async () => {
    const registry = new ActionRegistry().register(shoutSchema);
    const { status } = await outcome(callAndRun, { inputs: { word: ['hi'] }, registry, peer: new RecordingPeer() });
    expect(status.code).toBe(StatusCode.FAILED_PRECONDITION);
    expect(status.message).toContain("Say 'call'");
  });

  it('says what is registered when an action is not', async () => {
    const { status } = await outcome(callAndRun, { inputs: { word: ['hi'] }, registry: new ActionRegistry() });
    expect(status.code).toBe(StatusCode.NOT_FOUND);
    expect(status.message).toContain("'shout'");
  });
});

describe('headers and ids', () => {
  const program = compiled(`
flow headed {
  in  word: string
  out loud: string
  c = call shout(text: word) forward headers "x-user-*", "X-Mode" with "x-user-name": "set by with", "x-extra": strformat("%s!", word) id strformat("shout-%s", word)
  c.loud -> loud
}
`);

  it('gives a nested action every x-a11-* header, the forwarded ones, and `with` over both; `id` names the call', async () => {
    const registry = new ActionRegistry().register(shoutSchema);
    const peer = new RecordingPeer();
    const headers = {
      'x-a11-trace': 't-1',
      'x-a11-deadline': String(Date.now() + 60_000),
      'x-user-name': 'from the caller',
      'x-user-role': 'admin',
      'x-mode': 'fast',
      authorization: 'secret',
    };
    const { status, outputs } = await outcome(program, { inputs: { word: ['hi'] }, registry, peer, headers });
    expect(status.ok, status.message).toBe(true);
    expect(outputs).toEqual({ loud: 'HI (peer)' });
    const asked = peer.asked[0]!.options;
    expect(asked.id).toBe('shout-hi');
    expect(Object.fromEntries(asked.headers!)).toEqual({
      'x-a11-trace': 't-1',
      'x-a11-deadline': headers['x-a11-deadline'],
      'x-user-name': 'set by with',
      'x-user-role': 'admin',
      'x-mode': 'fast',
      'x-extra': 'hi!',
    });
  });
});

const neverEnds = defineAction({
  name: 'never_ends',
  description: 'Writes a value and then waits until it is stopped.',
  outputs: { started: { type: 'string' } },
});

function waitingHandler(stopped: string[]): ActionHandler {
  return async (context) => {
    await context.write('started', 'yes');
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      context.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    stopped.push(context.id);
  };
}

const waiting = compiled(`
flow waits {
  out started: string
  w = run never_ends()
  w.started -> started
}
`);

describe('ending a run', () => {
  it('cancel() ends every step and handler, and the run ends CANCELLED', async () => {
    const stopped: string[] = [];
    const registry = new ActionRegistry().register(neverEnds, waitingHandler(stopped));
    const run = runFlow(waiting, { registry });
    const started = await run.outputs.get('started')!.reader().next();
    expect(started?.value).toBe('yes');
    run.cancel();
    const status = await run.done;
    expect(status.code).toBe(StatusCode.CANCELLED);
    expect(stopped).toHaveLength(1);
  });

  it("the caller's signal cancels the run", async () => {
    const stopped: string[] = [];
    const registry = new ActionRegistry().register(neverEnds, waitingHandler(stopped));
    const controller = new AbortController();
    const run = runFlow(waiting, { registry, signal: controller.signal });
    await run.outputs.get('started')!.reader().next();
    controller.abort();
    expect((await run.done).code).toBe(StatusCode.CANCELLED);
    expect(stopped).toHaveLength(1);
  });

  it('x-a11-deadline bounds the whole run and reaches the handlers', async () => {
    const stopped: string[] = [];
    let deadline: number | undefined;
    const registry = new ActionRegistry().register(neverEnds, async (context) => {
      deadline = context.deadline;
      await waitingHandler(stopped)(context);
    });
    const at = Date.now() + 150;
    const { status } = await outcome(waiting, { registry, headers: { 'x-a11-deadline': String(at) } });
    expect(status.code).toBe(StatusCode.DEADLINE_EXCEEDED);
    expect(deadline).toBe(at);
    expect(stopped).toHaveLength(1);
  });

  it('a call timeout fails the flow, or is a status the flow reads under try', async () => {
    const stopped: string[] = [];
    const registry = new ActionRegistry().register(neverEnds, waitingHandler(stopped));
    const strict = compiled(`
flow strict {
  out started: string
  w = run never_ends() timeout 50ms
  w.started -> started
}
`);
    const failed = await outcome(strict, { registry });
    expect(failed.status.code).toBe(StatusCode.DEADLINE_EXCEEDED);
    expect(failed.status.message).toContain('timeout');

    const tolerant = compiled(`
flow tolerant {
  out code: string
  out started: string
  w = try run never_ends() timeout 50ms
  w.started -> started
  s = wait w
  s | map it.code -> code
}
`);
    const tolerated = await outcome(tolerant, { registry });
    expect(tolerated.status.ok, tolerated.status.message).toBe(true);
    expect(tolerated.outputs).toEqual({ code: 'DEADLINE_EXCEEDED', started: 'yes' });
    expect(stopped).toHaveLength(2);
  });
});

describe('after a cancel', () => {
  const endless = defineAction({
    name: 'endless',
    description: 'Counts up every millisecond until stopped.',
    outputs: { n: { type: 'application/json', stream: true } },
  });
  let running = 0;
  const endlessHandler: ActionHandler = async (context) => {
    running++;
    try {
      for (let n = 0; !context.signal.aborted; n++) {
        await context.write('n', n);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } finally {
      running--;
    }
  };

  function timers(): number {
    return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  }

  it('leaves no timer, handler or loop running', async () => {
    const program = compiled(`
flow busy {
  out sums: integer stream
  out seen: integer stream
  e = run endless()
  e.n | pace 2ms | timeout 10s | scan 0 as total, total + it | window 3 | map it[2] -> sums
  for n in e.n {
    slow = run endless()
    slow.n | first 2 | map it + n -> seen
  }
}
`);
    const registry = new ActionRegistry().register(endless, endlessHandler);
    const before = timers();
    const run = runFlow(program, { registry });
    const sums = run.outputs.get('sums')!.reader();
    for (let read = 0; read < 5; read++) expect(await sums.next(), 'sums ended early').toBeDefined();
    expect(running).toBeGreaterThan(1);
    run.cancel();
    expect((await run.done).code).toBe(StatusCode.CANCELLED);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running).toBe(0);
    expect(timers()).toBeLessThanOrEqual(before);
    expect(run.outputs.get('sums')!.isClosed).toBe(true);
    expect(run.outputs.get('seen')!.isClosed).toBe(true);
  });
});

describe('ports and nodes', () => {
  it('writes outputs as they are produced, while an input is still open', async () => {
    const program = compiled(`
flow echo {
  in  words: string stream
  out loud:  string stream
  words | map upper(it) -> loud
}
`);
    const run = runFlow(program, { openInputs: ['words'] });
    const words = run.inputs.get('words')!;
    const loud = run.outputs.get('loud')!.reader();
    await words.put(Chunk.fromValue(Media.text, 'one'));
    expect((await loud.next())?.value).toBe('ONE');
    await words.put(Chunk.fromValue(Media.text, 'two'));
    expect((await loud.next())?.value).toBe('TWO');
    words.close();
    expect(await loud.next()).toBeUndefined();
    expect((await run.done).ok).toBe(true);
  });

  it('attaches node(id) to a node of the map the host gives it', async () => {
    const program = compiled(`
flow attach {
  out seen: string stream
  feed = node("feed-1")
  feed | map strformat("<%s>", it) -> seen
}
`);
    const nodeMap = new LocalNodeMap();
    const feed = nodeMap.get('feed-1');
    const run = runFlow(program, { nodeMap });
    const outputs = collectOutputs(run);
    await feed.put(Chunk.fromValue(Media.json, 'a'));
    await feed.put(Chunk.fromValue(Media.json, 'b'));
    feed.close();
    expect((await run.done).ok).toBe(true);
    expect(plainValue(await outputs)).toEqual({ seen: ['<a>', '<b>'] });
  });

  it("keeps the flow's own nodes under its action id in the host's map", async () => {
    const program = compiled(`
flow named {
  in  n:   integer
  out out: integer
  mid = node()
  n | map it + 1 -> mid
  mid -> out
}
`);
    const nodeMap = new LocalNodeMap();
    const { status, outputs } = await outcome(program, { inputs: { n: [1] }, nodeMap, actionId: 'job-7' });
    expect(status.ok).toBe(true);
    expect(outputs).toEqual({ out: 2 });
    expect(nodeMap.ids()).toContain('job-7#mid');
  });

  it('keeps nodes of a private map (`nodes`, `in`, `via`) out of the host\'s map', async () => {
    const program = compiled(`
flow private {
  in  word: string
  out loud: string
  out kept: string
  shown = node()
  nodes hidden {
    inside = node()
    word -> inside
    inside | map upper(it) -> shown
  }
  also = node() in hidden
  word -> also
  s = run shout(text: also) via hidden id "private-call"
  s.loud -> kept
  shown -> loud
}
`);
    const registry = new ActionRegistry().register(shoutSchema, shoutHandler('here'));
    const nodeMap = new LocalNodeMap();
    const { status, outputs } = await outcome(program, { inputs: { word: ['hi'] }, registry, nodeMap, actionId: 'job-8' });
    expect(status.ok, status.message).toBe(true);
    expect(outputs).toEqual({ loud: 'HI', kept: 'HI (here)' });
    expect(nodeMap.ids()).toContain('job-8#shown');
    expect(nodeMap.ids().filter((id) => /inside|also|private-call/.test(id))).toEqual([]);
  });
});

describe('tee', () => {
  it("puts a `run` step's ports in the host's node map only when the step says tee", async () => {
    const program = compiled(`
flow teed {
  in  word:  string
  out quiet: string
  out shown: string
  q = run shout(text: word) id "quiet-call"
  s = run shout(text: word) tee id "shown-call"
  q.loud -> quiet
  s.loud -> shown
}
`);
    const registry = new ActionRegistry().register(shoutSchema, shoutHandler('here'));
    const nodeMap = new LocalNodeMap();
    const { status, outputs } = await outcome(program, { inputs: { word: ['hi'] }, registry, nodeMap });
    expect(status.ok, status.message).toBe(true);
    expect(outputs).toEqual({ quiet: 'HI (here)', shown: 'HI (here)' });
    expect(nodeMap.ids().filter((id) => id.includes('-call#')).sort()).toEqual(['shown-call#loud', 'shown-call#text']);
    expect(nodeMap.get('shown-call#loud').isClosed).toBe(true);
  });
});

describe('a flow as an action', () => {
  const program = compiled(`
flow greet {
  describe "Greets."
  in  name:     string "Who."
  out greeting: string "What is said."
  name | map strformat("hello %s", it) -> greeting
  if name != "" { log warning strformat("greeting %s", name) }
}
`);

  it('presents its ports as an action schema', () => {
    const schema = flowActionSchema(program.flows[0]!);
    expect(schema.name).toBe('greet');
    expect(schema.inputs.map((port) => port.name)).toEqual(['name']);
    expect(schema.outputs.map((port) => port.name)).toEqual(['greeting']);
  });

  it('runs as a registered handler: its outputs on its ports, its log records on the action log', async () => {
    const registry = new ActionRegistry();
    registry.register(flowActionSchema(program.flows[0]!), makeFlowHandler(program, 'greet', { registry }));
    const invocation = new LocalDispatcher(registry).invoke(registry.require('greet').schema);
    const log = invocation.log.reader();
    const greeting = invocation.output('greeting').reader();
    await invocation.input('name').put(Chunk.fromValue(Media.text, 'Ada'));
    invocation.input('name').close();
    expect((await greeting.next())?.value).toBe('hello Ada');
    expect((await invocation.done).ok).toBe(true);
    const records: unknown[] = [];
    for (let chunk = await log.next(); chunk; chunk = await log.next()) records.push(chunk.value);
    expect(JSON.stringify(records)).toContain('greeting Ada');
  });
});
