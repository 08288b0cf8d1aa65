import { describe, expect, it } from 'vitest';
import { compileFlow } from './compile.js';
import {
  entryFlow,
  exprRefs,
  findFlow,
  nestedBodies,
  stageDestinations,
  stepDestinations,
  stepObserved,
  stepSources,
  stepValueSources,
  upstreamsOf,
  valueRefsOf,
  type FlowProgram,
  type Program,
  type Ref,
  type Step,
} from './program.js';

function compiled(source: string): Program {
  const result = compileFlow(source, { sourceName: 'test.flow' });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (!result.program) throw new Error(errors.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.message}`).join('\n'));
  return result.program;
}

function refLabelled(flow: FlowProgram, label: string): Ref {
  const found = flow.refs.find((ref) => ref.label === label);
  if (!found) throw new Error(`no ref '${label}'; there are: ${flow.refs.map((ref) => ref.label).join(' | ')}`);
  return found;
}

function stepsOf(flow: FlowProgram, kind: Step['kind']): Step[] {
  return flow.steps.filter((step) => step.kind === kind);
}

describe('the program IR', () => {
  it('knows which streams carry at most one value', () => {
    const [flow] = compiled(`flow counts {
  in  single: string required
  in  several: string stream
  out sink: string stream
  header "x-a11-deadline" as deadline
  mine = node()
  single -> mine
  several | collect -> sink
  several | count -> sink
  several | first 1 -> sink
  several | first 3 -> sink
  several | sum | map it -> sink
  single | truncate 5 -> sink
  single | chunk 8 -> sink
  zip(single, single) -> sink
  zip(single, several) -> sink
  interleave(single) -> sink
  interleave(single, single) -> sink
  deadline -> sink
  mine -> sink
}`).flows;
    const unary = (label: string) => refLabelled(flow!, label).unary;
    expect(unary('single')).toBe(true);
    expect(unary('several')).toBe(false);
    expect(unary('header "x-a11-deadline"')).toBe(true);
    expect(unary('mine')).toBe(false);
    expect(unary('several | collect')).toBe(true);
    expect(unary('several | count')).toBe(true);
    expect(unary('several | first 1')).toBe(true);
    expect(unary('several | first 3')).toBe(false);
    expect(unary('several | sum | map it')).toBe(true);
    expect(unary('single | truncate 5')).toBe(true);
    expect(unary('single | chunk 8')).toBe(false);
    expect(unary('zip(single, single)')).toBe(true);
    expect(unary('zip(single, several)')).toBe(false);
    expect(unary('interleave(single)')).toBe(true);
    expect(unary('interleave(single, single)')).toBe(false);
  });

  it('makes a call a step whose ports are refs, fed by one pipe per argument', () => {
    const [flow] = compiled(`flow calling {
  in  q: string
  out a: string
  x = try run web-fetch(url: q, limit: 3) timeout 20s
  x.body | first 1 -> a
  wait x
}`).flows;
    const [call] = stepsOf(flow!, 'call');
    expect(call).toMatchObject({ kind: 'call', label: 'x', action: 'web-fetch', mode: 'run', tolerant: true, timeout: 20, sibling: false });
    if (call?.kind !== 'call') throw new Error('no call');
    expect(Object.keys(call.ports).sort()).toEqual(['inputs:limit', 'inputs:url', 'outputs:body']);
    const feeds = stepsOf(flow!, 'pipe').filter((step) => step.kind === 'pipe' && flow!.refs[step.destination]?.kind === 'call-port');
    expect(feeds.map((step) => step.label)).toEqual(['q -> x.url', '3 -> x.limit']);
    const body = flow!.refs[call.ports['outputs:body']!]!;
    expect(body).toMatchObject({ kind: 'call-port', direction: 'outputs', call: call.id, writable: false });
    const [wait] = stepsOf(flow!, 'wait');
    if (wait?.kind !== 'wait' || wait.outcome === null) throw new Error('no wait');
    expect(flow!.refs[wait.outcome]).toMatchObject({ kind: 'status', subjectStep: call.id });
  });

  it('resolves every name in an expression to the ref it reads', () => {
    const [flow] = compiled(`flow reading {
  in  q: string
  in  n: integer
  out a: string
  q | map strformat("%s/%s", it, n + 1) -> a
}`).flows;
    const mapped = refLabelled(flow!, 'q | map strformat("%s/%s", it, n + 1)');
    if (mapped.kind !== 'derived' || mapped.stage.takes !== 'expr' || !mapped.stage.expr) throw new Error('not a map');
    const read = exprRefs(mapped.stage.expr).map((id) => flow!.refs[id]!.label);
    expect(read).toEqual(['n']);
    expect(valueRefsOf(mapped).map((id) => flow!.refs[id]!.label)).toEqual(['n']);
    expect(upstreamsOf(mapped).map((id) => flow!.refs[id]!.label)).toEqual(['q']);
    expect(mapped.stage.expr).toMatchObject({ kind: 'builtin', name: 'strformat' });
  });

  it('gives loops and branches bodies of their own, with per-pass refs', () => {
    const [flow] = compiled(`flow looping {
  in  items: string stream
  out seen: string stream
  for item, spot in zip(items, items) parallel 2 {
    if spot == "" {
      item -> seen
    } else {
      spot -> seen
    }
  }
  repeat n = 0 max 3 {
    n <- items | count
    until n > 2
  }
}`).flows;
    const [loop] = stepsOf(flow!, 'for');
    if (loop?.kind !== 'for') throw new Error('no for');
    expect(loop.parallel).toBe(2);
    expect(flow!.bodies[loop.inner]).toMatchObject({ ownerStep: loop.id, parent: flow!.root });
    expect(flow!.refs[loop.item]).toMatchObject({ kind: 'bound', role: 'item', step: loop.id });
    const [branch] = stepsOf(flow!, 'if');
    if (branch?.kind !== 'if') throw new Error('no if');
    expect(flow!.bodies[branch.then]!.parent).toBe(loop.inner);
    expect(flow!.bodies[branch.then]!.steps).toHaveLength(1);
    expect(flow!.bodies[branch.else]!.steps).toHaveLength(1);
    const [repeat] = stepsOf(flow!, 'repeat');
    if (repeat?.kind !== 'repeat') throw new Error('no repeat');
    expect(repeat.max).toBe(3);
    expect(repeat.start).toEqual({ kind: 'integer', value: 0 });
    expect(repeat.carrySource).not.toBeNull();
    expect(repeat.condition).toMatchObject({ kind: 'binary', op: '>' });
    expect(stepsOf(flow!, 'capture').map((step) => (step.kind === 'capture' ? step.slot : ''))).toContain('carry');
  });

  it('adds counted skips up on the node they take values off', () => {
    const [flow] = compiled(`flow skipping {
  in  rows: string stream
  out body: string stream
  skip 1 rows
  skip 2 rows
  rows -> body
}`).flows;
    expect(refLabelled(flow!, 'rows').skip).toBe(3);
  });

  it('finds flows by name, never the entry flow', () => {
    const program = compiled(`flow {
  out exit_code: integer
  argc | map 0 -> exit_code
}

flow helper {
  in  q: string
  out a: string
  q -> a
}`);
    expect(entryFlow(program)?.ports.map((port) => `${port.name}:${port.unary}`)).toEqual(['argc:true', 'argv:false', 'exit_code:true']);
    expect(findFlow(program, '')).toBeUndefined();
    expect(findFlow(program, 'helper')?.ports.map((port) => port.name)).toEqual(['q', 'a']);
  });

  it('says what each step reads, reads a value of, writes and watches', () => {
    const [flow] = compiled(`flow stepping {
  in  items: string stream
  in  limit: integer
  out kept: string stream
  out bad: json stream
  failures = node()
  items | try map it as int into failures | where it > limit -> kept
  failures -> bad
  skip 1 items
  done = node()
  items -> done
  drain done
  x = run t(q: items) with "x-a11-n": limit
  skip x
  for v in items {
    if v == "" { log v }
  }
}`).flows;
    const label = (ids: number[]) => ids.map((id) => flow!.refs[id]!.label);
    const pipe = flow!.steps.find((step) => step.label.startsWith('items | try map'))!;
    expect(label(stepSources(pipe))).toEqual(['items | try map int{...} into failures | where it > limit']);
    expect(label(stepDestinations(pipe))).toEqual(['kept']);
    expect(label(stageDestinations(flow!, pipe))).toEqual(['failures']);
    const counted = flow!.steps.find((step) => step.kind === 'skip' && step.count === 1)!;
    expect(stepSources(counted)).toEqual([]);
    const drain = flow!.steps.find((step) => step.kind === 'drain')!;
    expect(label(stepObserved(flow!, drain))).toEqual(['done']);
    const call = flow!.steps.find((step) => step.kind === 'call')!;
    expect(label(stepValueSources(call))).toEqual(['limit']);
    expect(nestedBodies(flow!, flow!.root)).toHaveLength(3);
  });
});
