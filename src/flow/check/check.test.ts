import { describe, expect, it } from 'vitest';
import { readCatalogue } from '../catalogue.js';
import { compileFlow } from '../compile.js';

/**
 * Small flows, one problem each (or a deliberate handful), with every diagnostic the reference
 * compiler (a11-kit 0.4.4) reports for them, as `code@line:column`. Each was checked against
 * `a11 flow check` when it was written.
 */
const cases: [name: string, source: string, expected: string[]][] = [
  ["unknown-name", "flow f {\n  in a: string\n  out b: string\n  c -> b\n}\n", ["flow.name.unknown@4:3"]],
  ["bound-later", "flow f {\n  in a: string\n  out b: string\n  x -> b\n  x = node()\n  a -> x\n}\n", ["flow.name.unknown@4:3"]],
  ["taken", "flow f {\n  in a: string\n  out b: string\n  a = node()\n  a -> b\n}\n", ["flow.name.taken@4:3"]],
  ["not-writable-in", "flow f {\n  in a: string\n  out b: string\n  b -> a\n}\n", ["flow.name.not-a-stream@4:3", "flow.name.not-writable@4:8"]],
  ["not-a-stream-out", "flow f {\n  in a: string\n  out b: string\n  a -> b\n  b -> b\n}\n", ["flow.name.not-a-stream@5:3"]],
  ["call-as-stream", "flow f {\n  in a: string\n  out b: string\n  x = run act(q: a)\n  x -> b\n}\n", ["flow.name.call-as-stream@5:3"]],
  ["unknown-port-sibling", "flow f {\n  in a: string\n  out b: string\n  x = run g(nope: a)\n  x.o -> b\n}\nflow g {\n  in q: string\n  out o: string\n  q -> o\n}\n", ["flow.name.unknown-port@4:13"]],
  ["unknown-out-port-sibling", "flow f {\n  in a: string\n  out b: string\n  x = run g(q: a)\n  x.nope -> b\n}\nflow g {\n  in q: string\n  out o: string\n  q -> o\n}\n", ["flow.name.unknown-port@5:4"]],
  ["it-outside", "flow f {\n  in a: string\n  out b: string\n  it -> b\n}\n", ["flow.name.it-outside-stage@4:3"]],
  ["not-a-call", "flow f {\n  in a: string\n  out b: string\n  a -> b\n  if true { cancel a }\n}\n", ["flow.name.not-a-call@5:13"]],
  ["unknown-node-map", "flow f {\n  in a: string\n  out b: string\n  x = node() in m\n  a -> x\n  x -> b\n}\n", ["flow.name.unknown-node-map@4:7"]],
  ["carry-outside", "flow f {\n  in a: string\n  out b: string\n  a -> b\n  s <- a\n}\n", ["flow.barrier.carry-outside-repeat@5:3"]],
  ["until-outside", "flow f {\n  in a: string\n  out b: string\n  a -> b\n  until true\n}\n", ["flow.barrier.until-outside-repeat@5:3"]],
  ["wrong-carry", "flow f {\n  in a: string\n  out b: string\n  repeat s = 0 max 3 {\n    t <- a\n  }\n  a -> b\n}\n", ["flow.barrier.wrong-carry@5:5"]],
  ["dup-carry", "flow f {\n  in a: string\n  out b: string\n  repeat s = 0 max 3 {\n    s <- a\n    s <- a\n  }\n  a -> b\n}\n", ["flow.barrier.duplicate-carry@6:5"]],
  ["dup-until", "flow f {\n  in a: string\n  out b: string\n  repeat s = 0 {\n    until true\n    while false\n  }\n  a -> b\n}\n", ["flow.barrier.duplicate-until@6:5"]],
  ["until-parallel", "flow f {\n  in a: string stream\n  out b: string\n  for x in a parallel 2 {\n    x -> b\n    until true\n  }\n}\n", ["flow.barrier.until-parallel@6:5"]],
  ["unbounded", "flow f {\n  in a: string\n  out b: string\n  repeat {\n    a -> b\n  }\n}\n", ["flow.form.unbounded-repeat@4:3"]],
  ["unconditional", "flow f {\n  in a: string\n  out b: string\n  a -> b\n  fail\n  log a\n  logf \"x %s\" a\n}\n", ["flow.form.unconditional-fail@5:3", "flow.form.unconditional-log@6:3", "flow.form.unconditional-logf@7:3"]],
  ["unknown-level", "flow f {\n  in a: string\n  out b: string\n  a -> b\n  if true { log loud a }\n}\n", ["flow.form.unknown-log-level@5:17"]],
  ["unknown-status", "flow f {\n  in a: string\n  out b: string\n  a -> b\n  if true { fail nope \"x\" }\n}\n", ["flow.form.unknown-status-code@5:18"]],
  ["unknown-type", "flow f {\n  in a: strig\n  out b: list[string, int]\n  a -> b\n}\n", ["flow.form.unknown-type@2:9", "flow.form.unknown-type@3:10"]],
  ["dup-port", "flow f {\n  in a: string\n  in a: string\n  out b: string\n  a -> b\n}\n", ["flow.form.duplicate-port@3:3"]],
  ["dup-flow", "flow f {\n  in a: string\n  out b: string\n  a -> b\n}\nflow f {\n  in a: string\n  out b: string\n  a -> b\n}\nflow {\n}\nflow {\n}\n", ["flow.form.duplicate-flow@6:1", "flow.form.duplicate-flow@13:1"]],
  ["advance-bad", "flow f {\n  in q: string stream\n  out o: string\n  x = node()\n  advance x\n  advance zz\n  q -> o\n}\n", ["flow.name.not-advanceable@5:3", "flow.name.unknown@6:3"]],
  ["advance-loop", "flow f {\n  in q: string stream required\n  out o: string\n  let v = q\n  for w in q {\n    advance v\n    v -> o\n  }\n}\n", ["flow.form.advance-in-loop@6:5"]],
  ["wait-all-value", "flow f {\n  in q: string\n  out n: integer\n  a = run x(q: q)\n  b = run y(q: q)\n  wait all of a, b -> n\n  let v = wait all of a, b\n}\n", ["flow.form.wait-all-has-no-value@6:23", "flow.form.wait-all-has-no-value@7:11"]],
  ["struct-stuff", "struct string {\n  a: int\n}\nstruct S {\n  a: int\n  a: int\n  b: strng\n  c: int unique\n  d: int matching \"x\"\n  e: bool 1..2\n  f: int 5..1\n  g: string -1..4\n  h: bool default 3\n  i: int required default 1\n  j: int one of [\"a\"]\n}\nstruct S {\n}\nflow f {\n  in a: S\n  out b: string\n  a -> b\n}\n", ["flow.form.struct-shadows-builtin@1:8", "flow.form.duplicate-field@6:3", "flow.form.unknown-type@7:6", "flow.form.field-constraint@8:3", "flow.form.field-constraint@9:3", "flow.form.field-constraint@10:3", "flow.form.empty-range@11:3", "flow.form.field-constraint@12:3", "flow.form.field-type-mismatch@13:3", "flow.form.default-on-required@14:3", "flow.form.field-type-mismatch@15:3", "flow.form.duplicate-struct@17:8"]],
  ["shape-literal", "struct P {\n  name: string required\n  age: int\n}\nflow f {\n  in a: string\n  out b: P\n  P{nme: a, age: \"x\"} -> b\n  P{age: 3} -> b\n}\n", ["flow.form.missing-field@8:4", "flow.form.unknown-field@8:10", "flow.form.field-type-mismatch@8:18", "flow.form.missing-field@9:4"]],
  ["unknown-field-port", "struct P {\n  name: string\n}\nflow f {\n  in a: P\n  out b: string\n  a.nme -> b\n  a | map it.nme -> b\n}\n", []],
  ["bad-pattern", "flow f {\n  in a: string stream\n  out b: string\n  a | match \"{x\" -> b\n}\n", ["flow.form.bad-pattern@4:7"]],
  ["pattern-field", "flow f {\n  in a: string stream\n  out b: string\n  a | match \"n={n}\" | map it.m -> b\n}\n", ["flow.form.unknown-field@4:29"]],
  ["not-json", "struct B {\n  data: bytes\n}\nflow f {\n  in a: B stream\n  out b: string\n  a | json -> b\n}\n", ["flow.form.not-json-representable@7:7"]],
  ["warnings", "flow f {\n  in a: string stream\n  out b: string\n  out c: string\n  header \"x-a11-h\" as h\n  nodes m\n  x = try run act(q: a)\n  let v = a\n  for i in a { \"k\" -> b }\n  w = wait x\n  a | collect | drop 2 -> b\n  a | count | first 1 -> b\n  a | text | text -> b\n  a | first 0 -> b\n}\n", ["flow.unused.output-port@4:3", "flow.unused.header@5:3", "flow.unused.node-map@6:9", "flow.unused.value@8:7", "flow.unused.loop-variable@9:7", "flow.unused.barrier-name@10:3", "flow.sequence.impossible@11:17", "flow.sequence.redundant-stage@12:15", "flow.sequence.redundant-stage@13:14", "flow.sequence.impossible@14:7"]],
  ["try-pipe", "flow f {\n  in a: string\n  out b: string\n  try a -> b\n}\n", ["flow.unused.try-pipe@4:3"]],
  ["constant-required", "flow f {\n  in a: string\n  out b: string\n  repeat s = a max 2 {\n    a -> b\n  }\n}\n", ["flow.syntax.constant-required@4:14"]],
  ["index-const", "flow f {\n  in a: list stream\n  out b: string\n  a[a] -> b\n}\n", ["flow.syntax.constant-required@4:5"]],
  ["no-status-after", "flow f {\n  in a: string\n  out b: string\n  let v = a\n  a -> b after v\n}\n", ["flow.name.no-status@5:16"]],
  ["no-status-status", "flow f {\n  in a: string\n  out b: string\n  let v = a\n  status v -> b\n}\n", ["flow.name.no-status@5:10"]],
  ["bind-many-try", "flow f {\n  in q: string\n  out o: string\n  out p: string\n  x = try q -> o, p\n}\n", ["flow.form.bind-many-targets@5:3"]],
  ["not-writable-barrier", "flow f {\n  in q: string\n  out o: string\n  w = wait q\n  q -> w\n  w.ok -> o\n}\n", ["flow.name.not-writable@5:8"]],
  ["not-writable-value", "flow f {\n  in q: string\n  out o: string\n  let v = q\n  q -> v\n  v -> o\n}\n", ["flow.name.not-writable@5:8"]],
  ["not-writable-noncall-attr", "flow f {\n  in q: string\n  out o: string\n  x = node()\n  q -> x.y\n  x -> o\n}\n", ["flow.name.not-writable@5:9"]],
  ["status-of-call", "flow f {\n  in q: string\n  out o: string\n  x = try run a(q: q)\n  status x.code -> o\n  skip x\n}\n", []],
  ["carry-in-for", "flow f {\n  in q: string stream\n  out o: string\n  for v in q {\n    v <- q\n    v -> o\n  }\n}\n", ["flow.barrier.carry-outside-repeat@5:5"]],
  ["cancel-after-wait", "flow f {\n  in q: string\n  out o: string\n  x = run a(q: q)\n  x.r -> o\n  if true {\n    wait x\n    cancel x\n  }\n}\n", ["flow.barrier.cancel-after-wait@8:5"]],
  ["barrier-dup", "flow f {\n  in q: string\n  out o: string\n  x = run a(q: q)\n  x.r -> o\n  if true {\n    wait x\n    wait x\n  }\n}\n", ["flow.barrier.duplicate@8:5"]],
  ["parallel-zero", "flow f {\n  in q: string stream\n  out o: string\n  for v in q parallel 0 {\n    v -> o\n  }\n}\n", ["flow.form.count-not-positive@4:3"]],
  ["repeat-max-zero", "flow f {\n  in q: string\n  out o: string\n  repeat max 0 {\n    q -> o\n  }\n}\n", ["flow.form.count-not-positive@4:3"]],
  ["unused-struct", "struct S {\n  a: int\n}\nstruct T {\n  s: S\n}\nflow f {\n  in q: string\n  out o: string\n  q -> o\n}\n", ["flow.unused.struct@4:8"]],
  ["try-status", "flow f {\n  in q: string\n  out o: string\n  x = try run a(q: q)\n  x.r -> o\n}\n", ["flow.unused.try-status@4:7"]],
  ["values-taken", "flow f {\n  in u: json stream required\n  out o: string\n  let a, a = u\n  a -> o\n}\n", ["flow.name.taken@4:3"]],
  ["advance-part", "flow f {\n  in u: json stream required\n  out o: string\n  let a, b = u\n  advance a\n  a -> o\n  b -> o\n}\n", ["flow.name.not-advanceable@5:3"]],
  ["race-ok", "flow f {\n  in q: string\n  out n: integer\n  a = run x(q: q)\n  b = run y(q: q)\n  wait first of a, b -> n\n}\n", []],
  ["typed-unknown", "flow f {\n  in q: string\n  out o: string\n  q | map it as strng -> o\n  q | map a11.Foo{x: 1} -> o\n}\n", ["flow.form.unknown-type@4:17"]],
  ["entry", "flow {\n  in argv: string\n  argv -> x\n}\n", ["flow.form.duplicate-port@2:3", "flow.name.unknown@3:11"]],
  ["fold-scope", "flow f {\n  in q: int stream\n  out o: int\n  q | fold 0 as t, t + it -> o\n  q | fold 0 as t, u + it -> o\n}\n", ["flow.name.unknown@5:20"]],];

function found(source: string): string[] {
  return compileFlow(source, { sourceName: 'case.flow' }).diagnostics.map(
    (diagnostic) => `${diagnostic.code}@${diagnostic.range.start.line}:${diagnostic.range.start.column}`,
  );
}

describe('the checker reports what the reference reports, where it reports it', () => {
  it.each(cases)('%s', (_name, source, expected) => {
    expect(found(source)).toEqual(expected);
  });
});

describe('compileFlow', () => {
  it('returns a program only when nothing is an error', () => {
    expect(compileFlow('flow f {\n  in a: string\n  out b: string\n  a -> b\n}\n').program?.flows).toHaveLength(1);
    expect(compileFlow('flow f {\n  in a: string\n  out b: string\n  c -> b\n}\n').program).toBeUndefined();
  });

  it('keeps a warning-only file compilable', () => {
    const result = compileFlow('flow f {\n  in a: string\n  out b: string\n  out c: string\n  a -> b\n}\n');
    expect(result.program).toBeDefined();
    expect(result.diagnostics.map((diagnostic) => diagnostic.severity)).toEqual(['warning']);
  });

  it('names the flow a problem is in', () => {
    const [diagnostic] = compileFlow('flow outer {\n  in a: string\n  out b: string\n  c -> b\n}\n').diagnostics;
    expect(diagnostic?.flow).toBe('outer');
  });
});

describe('fixes, where one edit is obviously right', () => {
  const fixed = (source: string, code: string): string | null => {
    const diagnostic = compileFlow(source).diagnostics.find((one) => one.code === code);
    const fix = diagnostic?.fixes[0];
    if (!fix) return null;
    let text = source;
    for (const edit of [...fix.edits].sort((a, b) => b.from - a.from)) text = text.slice(0, edit.from) + edit.text + text.slice(edit.to);
    return text;
  };

  it('replaces a misspelt type, status code, log level or name with the one it is close to', () => {
    expect(fixed('flow f {\n  in a: strig\n  out b: string\n  a -> b\n}\n', 'flow.form.unknown-type')).toContain('in a: string');
    expect(fixed('flow f {\n  in a: string\n  out b: string\n  a -> b\n  if true { fail NOT_FUND }\n}\n', 'flow.form.unknown-status-code')).toContain('fail NOT_FOUND');
    expect(fixed('flow f {\n  in a: string\n  out b: string\n  a -> b\n  if true { log warnin a }\n}\n', 'flow.form.unknown-log-level')).toContain('log warning a');
    expect(fixed('flow f {\n  in question: string\n  out b: string\n  qustion -> b\n}\n', 'flow.name.unknown')).toContain('  question -> b');
  });

  it('removes a try nothing reads', () => {
    expect(fixed('flow f {\n  in a: string\n  out b: string\n  x = try run t(q: a)\n  x.o -> b\n}\n', 'flow.unused.try-status')).toContain('x = run t(q: a)');
    expect(fixed('flow f {\n  in a: string\n  out b: string\n  try a -> b\n}\n', 'flow.unused.try-pipe')).toContain('\n  a -> b\n');
  });

  it('offers nothing when no word is close, or two are equally close', () => {
    expect(fixed('flow f {\n  in a: zzzzzz\n  out b: string\n  a -> b\n}\n', 'flow.form.unknown-type')).toBeNull();
    expect(fixed('flow f {\n  in ab: string\n  in ac: string\n  out b: string\n  ad -> b\n}\n', 'flow.name.unknown')).toBeNull();
  });

  it('carries the fix in bytes on the wire', () => {
    const source = 'flow f {\n  describe "§"\n  in a: strig\n  out b: string\n  a -> b\n}\n';
    const [diagnostic] = compileFlow(source).diagnostics;
    const edit = diagnostic!.fixes[0]!.edits[0]!;
    expect(edit.start - edit.from).toBe(1);
    expect(diagnostic!.fixes[0]!.label).toBe("Replace 'strig' with 'string'");
  });
});

describe('checks against a catalogue of actions', () => {
  const catalogue = readCatalogue({
    actions: [
      { name: 'fetch', inputs: [{ name: 'url', type: 'string' }], outputs: [{ name: 'pages', type: 'string', unary: false }, { name: 'size', type: 'int' }], runnable: true },
      { name: 'mic', inputs: [], outputs: [{ name: 'audio', type: 'bytes', unary: false }], runnable: false },
      { name: 'vague', inputs: [{ name: 'q', type: 'string' }] },
    ],
  });
  const codes = (source: string) =>
    compileFlow(source, { catalogue }).diagnostics.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.column}`);
  const head = 'flow f {\n  in u: string\n  out o: string\n';

  it('accepts what the catalogue offers, run where there is a handler and call where there is not', () => {
    expect(codes(`${head}  x = run fetch(url: u)\n  x.size | map text(it) -> o\n  skip x.pages\n  m = call mic()\n  skip m.audio\n  v = run vague(q: u)\n}\n`)).toEqual([]);
  });

  it('refuses an action it does not have, naming the near one', () => {
    const result = compileFlow(`${head}  x = run fetc(url: u)\n  u -> o\n}\n`, { catalogue });
    expect(result.diagnostics.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.column}`)).toEqual(['flow.name.unknown-action@4:11']);
    expect(result.diagnostics[0]!.message).toContain("did you mean 'fetch'");
  });

  it('refuses a port the action does not declare, in either direction', () => {
    expect(codes(`${head}  x = run fetch(link: u)\n  x.body -> o\n}\n`)).toEqual(['flow.name.unknown-port@4:17', 'flow.name.unknown-port@5:4']);
  });

  it("refuses 'run' of an action with no handler here", () => {
    expect(codes(`${head}  m = run mic()\n  skip m.audio\n  u -> o\n}\n`)).toEqual(['flow.name.not-runnable@4:11']);
  });

  it('lets a flow of the same file stand in for a catalogue action of the same name', () => {
    expect(codes(`${head}  x = run mic(q: u)\n  x.a -> o\n}\nflow mic {\n  in q: string\n  out a: string\n  q -> a\n}\n`)).toEqual([]);
  });

  it("takes a port's unary-ness from the catalogue", () => {
    const program = compileFlow(`${head}  x = run fetch(url: u)\n  x.size | map text(it) -> o\n  skip x.pages\n}\n`, { catalogue }).program!;
    const refs = program.flows[0]!.refs;
    expect(refs.find((ref) => ref.label === 'x.size')?.unary).toBe(true);
    expect(refs.find((ref) => ref.label === 'x.pages')?.unary).toBe(false);
  });

  it('checks nothing about actions without a catalogue', () => {
    expect(compileFlow(`${head}  x = run anything(at: u)\n  x.all -> o\n}\n`).diagnostics).toEqual([]);
  });
});
