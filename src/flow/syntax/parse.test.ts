import { describe, expect, test } from 'vitest';
import { REFERENCE_DIR, REFERENCE_MISSING, referenceFlows } from '../../../test/support/reference';
import type { Pipe, Statement } from './ast';
import { parseFlow } from './parse';

/**
 * The first problem the reference parser (a11-kit 0.4.4, `a11 flow parse`) reports for each
 * source — code, UTF-16 offset and message — recorded from it once; `null` where it reports none.
 */
const firstProblems: [source: string, code: string | null, offset: number, message: string][] = [
  ["flow f { in a: stream string\n }", 'flow.form.port-modifier-order', 15, "'stream' follows the type: write 'a: TYPE stream'."],
  ["flow f { in a: list[string\n }", 'flow.syntax.unexpected', 26, "Expected ']' after the type parameters, found '\\n'."],
  ["flow f { in a: string\n out b: string\n a -> b b -> b }", 'flow.syntax.statement-end', 45, "Unexpected 'b' after a complete statement; one statement per line."],
  ["flow f { in a: string", 'flow.syntax.unclosed', 21, "Flow 'f' is missing its closing '}'."],
  ["flow wrong { out o: string\n x = run thing(a: \"b\") forward \"x\"\n x.out -> o }", 'flow.syntax.statement-end', 58, "Unexpected '\"x\"' after a complete statement; one statement per line."],
  ["flow wrong { out o: string stream\n n = node\n n -> o }", 'flow.form.node-parentheses', 39, "Making a node takes parentheses: 'node()', or 'node(id)' to attach to one somebody else named."],
  ["flow wrong { in w: string stream\n skip 0 w }", 'flow.form.count-not-positive', 39, "'skip' counts whole values, so 0 is not a number of them to skip."],
  ["flow wrong { in w: string stream\n skip 1.5 w }", 'flow.form.count-not-positive', 39, "'skip' counts whole values, so 1.5 is not a number of them to skip."],
  ["flow f { in a: string\n x = 5 }", 'flow.syntax.statement-end', 27, "Unexpected '5' after a complete statement; one statement per line."],
  ["flow f { in a: string\n a | first -> b }", 'flow.form.stage-argument', 33, "Expected a count for 'first', found '->'."],
  ["flow f { in w: string stream\n out o: string stream\n w | collect parallel 4 -> o }", 'flow.form.stage-not-parallel', 56, "'collect' reads the whole stream, so there is nothing for 'parallel' to run at once. It goes on a stage that reshapes each value, like 'map'."],
  ["flow f { in w: string stream\n out o: string stream\n w | map it unordered -> o }", 'flow.form.unordered-without-parallel', 56, "'unordered' says a parallel stage may finish its values in any order, so it needs 'parallel n'. Without it, 'map' sees one value at a time and the order is the one it was given."],
  ["flow f { in w: string stream\n out o: string stream\n out b: json stream\n w | map it into b -> o }", 'flow.form.into-without-try', 76, "'into' says where a *tolerated* failure goes, so the stage has to be a 'try': `try map ... into failures`."],
  ["flow f { in w: number stream\n out o: number\n w | fold it as total, total + it -> o }", 'flow.form.fold-name', 54, "'fold' names what it carries: `fold 0 as total, total + it`. Found 'it'."],
  ["flow f { in w: number stream\n out o: number\n w | fold 0, it -> o }", 'flow.form.fold-name', 55, "'fold' names what it carries: `fold 0 as total, total + it`. Found ','."],
  ["flow f { header \"x-a\" default a }", 'flow.syntax.constant-required', 30, "Expected a constant value."],
  ["# nothing here\n", 'flow.syntax.unexpected', 15, "A flow file must declare at least one flow or struct."],
  ["flow f { out o: string\n x = run t(a: \"b\") headers \"x\"\n x.o -> o }", 'flow.form.forward-headers', 42, "'headers' belongs to 'forward headers'; write 'forward headers \"x-name\"'."],
  ["flow f { in a: string\n [1, 2 }", 'flow.syntax.unexpected', 29, "Expected '->' and a destination port, found '}'."],
  ["flow f { in a: string\n a | wat -> b\n a | nope -> b\n nothing(1) -> b\n}\n", 'flow.form.unknown-stage', 27, "Unknown stage 'wat' (known: avg, batch, chunk, collect, count, distinct, drop, first, flatten, fold, group, join, json, last, log, logf, map, match, max, mime, min, pace, packb, scan, sort, strformat, sum, text, then, timeout, truncate, where, window)."],
  ["flow f {\n  in  a: string\n  a -> b\n  \"unterminated -> a\n  a -> b\n}\n", 'flow.syntax.unterminated-string', 36, "Unterminated string."],
  ["flow f { a -> [...x, \u2026y] }", 'flow.syntax.unexpected', 14, "Expected a port or a node here, like 'out-port' or 'call.port'."],
  ["flow f { a ; b }", 'flow.syntax.statement-end', 11, "Unexpected ';' after a complete statement; one statement per line."],
  ["flow f { x = run t() timeout 5x }", 'flow.syntax.statement-end', 29, "Unexpected '5x' after a complete statement; one statement per line."],
  ["flow f { a | map 1.2.3 -> b }", 'flow.form.bad-number', 17, "Bad number '1.2.3'."],
  ["flow f { log }", 'flow.form.log-value', 13, "A 'log' takes something to log."],
  ["flow f { log error }", 'flow.form.log-value', 19, "A 'log' takes something to log after the level. (If 'error' is the value, a level of the same name is read first; write the level too.)"],
  ["flow f { logf x }", 'flow.form.log-format', 14, "A 'logf' takes a format to fill, found 'x'; write 'log' to log a value as it is."],
  ["flow f { zip() -> x }", 'flow.form.zip-empty', 9, "'zip' reads several streams as one, so it takes at least one."],
  ["flow f { x = wait first of a }", 'flow.form.wait-of-one', 13, "'wait first of' waits on several subjects; with one, write 'wait first's subject on its own."],
  ["struct S { a: string unique required }", 'flow.form.field-modifier-order', 28, "'required' is written before 'unique'; a field's modifiers read required, unique, matching, one of, default."],
  ["struct S { a: string 5..1 }", null, 0, ''],
  ["struct S { a: string .. }", 'flow.form.empty-range', 21, "A range bounds something: write '1..', '..200' or '1..200'."],
  ["struct S { a: string 1..2 3..4 }", 'flow.form.repeated-modifier', 26, "A field has one range."],
  ["struct S { a: string one of \"x\" }", 'flow.form.one-of-not-a-list', 28, "'one of' takes a list: write 'one of [\"a\", \"b\"]'."],
  ["struct S { a: string one of [] }", 'flow.form.one-of-empty', 28, "'one of []' allows nothing, so nothing would validate."],
  ["struct S { a: string one of [x] }", 'flow.syntax.constant-required', 28, "'one of' takes a list of constant values."],
  ["struct S { a: string default x }", 'flow.syntax.constant-required', 29, "A field's default is a constant value."],
  ["flow f { describe }", 'flow.syntax.unexpected', 18, "Expected '->' and a destination port, found '}'."],
  ["flow f {\n  \"\"\"open\n", 'flow.syntax.unterminated-string', 11, "Unterminated \"\"\" string."],
  ["", 'flow.syntax.unexpected', 0, "A flow file must declare at least one flow or struct."],
  ["}", 'flow.syntax.unexpected', 0, "Expected 'flow', found '}'."],
  ["flow", 'flow.syntax.unexpected', 4, "Expected a flow name, found 'end of file'."],
  ["flow f {\n a", 'flow.syntax.unclosed', 11, "Flow 'f' is missing its closing '}'."],
  ["flow f { a( }", 'flow.form.unknown-builtin', 9, "'a' is not a built-in function (known: b64decode, b64encode, b64urldecode, b64urlencode, bool, contains, default, duration, ends-with, from_chunk, get, join, keys, len, lower, match, merge, now, number, replace, seconds, slice, split, starts-with, strformat, text, time, to_chunk, trim, upper, values)."],
  ["flow f { in }", 'flow.syntax.unexpected', 12, "Expected '->' and a destination port, found '}'."],
  ["flow f { for }", 'flow.syntax.unexpected', 13, "Expected 'in', found '}'."],
  ["flow f { if { } }", 'flow.syntax.unexpected', 16, "Expected {, found '}'."],
  ["flow f { repeat }", 'flow.syntax.unexpected', 16, "Expected {, found '}'."],
  ["flow f { x = }", 'flow.syntax.unexpected', 13, "Expected 'run' or 'call', found '}'."],
  ["flow f { \"s\" }", 'flow.syntax.unexpected', 13, "Expected '->' and a destination port, found '}'."],
  ["flow f { a -> b, }", 'flow.syntax.unexpected', 17, "Expected a value, found '}'."],
  ["flow f { {\"a\": } }", 'flow.syntax.unexpected', 15, "Expected a value, found '}'."],
  [",,,,", 'flow.syntax.unexpected', 0, "Expected 'flow', found ','."],
  ["flow f { a | then }", 'flow.syntax.unexpected', 18, "Expected '->' and a destination port, found '}'."],
  ["flow f { status }", 'flow.syntax.unexpected', 16, "Expected '->' and a destination port, found '}'."],
  ["flow f { a[ }", 'flow.syntax.unexpected', 12, "Expected '->' and a destination port, found '}'."],
];

describe('parseFlow reports the problem the reference reports first, where it reports it', () => {
  test.each(firstProblems)('%j', (source, code, offset, message) => {
    const first = parseFlow(source).diagnostics[0];
    if (code === null) {
      expect(first).toBeUndefined();
      return;
    }
    expect(first).toMatchObject({ code, from: offset });
    // Messages are ours to word, but they say the same thing: what was expected and found.
    if (/^Expected .*, found /.test(message)) expect(first!.message).toMatch(/^Expected .*, found .*\.$/);
  });
});

function body(source: string): readonly Statement[] {
  const { ast, diagnostics } = parseFlow(source);
  expect(diagnostics.filter((problem) => problem.severity === 'error')).toEqual([]);
  return ast.flows[0]!.body;
}

describe('the syntax tree', () => {
  test('try fronts a call, a pipe and a block, told apart by what follows', () => {
    const kinds = body(`flow f {
  x = try run t(p: a)
  try run t(p: a)
  try call t(p: a)
  try a -> o
  try a | first 1 -> o
  try { a -> o }
}`).map((statement) => statement.kind);
    expect(kinds).toEqual(['bind', 'call-statement', 'call-statement', 'pipe', 'pipe', 'block']);
  });

  test('a description may stand alone below, at any indentation, and a run of strings is one', () => {
    const { ast } = parseFlow(`flow f {
  describe
    "What this flow is for."
  in  question: string required
      "What to find out, " "at length."
  out answer: string
"not indented at all"
  header "x-a11-budget" as budget default 3
    "How many pages to read."
}`);
    const flow = ast.flows[0]!;
    expect(flow.description).toBe('What this flow is for.');
    expect(flow.ports.map((port) => port.description)).toEqual(['What to find out, at length.', 'not indented at all']);
    expect(flow.headers[0]).toMatchObject({ alias: { text: 'budget' }, defaultValue: { kind: 'integer', value: 3 }, description: 'How many pages to read.' });
    expect(flow.body).toEqual([]);
  });

  test('a triple-quoted string loses its first and last blank lines and its shared indentation', () => {
    const { ast } = parseFlow('flow f {\n  describe """\n    What this is for.\n\n      Kept indented.\n    """\n  """a value""" -> b\n}\n');
    expect(ast.flows[0]!.description).toBe('What this is for.\n\n  Kept indented.');
    const pipe = ast.flows[0]!.body[0] as Pipe;
    expect(pipe.pipeline.source).toMatchObject({ kind: 'literal', value: { kind: 'string', value: 'a value' } });
  });

  test('escapes are resolved and adjacent strings join', () => {
    const pipe = body('flow f {\n  "a\\tb\\"c" "d\\qe" -> x\n}') [0] as Pipe;
    expect(pipe.pipeline.source).toMatchObject({ value: { value: 'a\tb"cdqe' } });
  });

  test('a header alias defaults to the name with - and . made _', () => {
    const { ast } = parseFlow('flow f {\n  header "x-a11.deadline"\n}');
    expect(ast.flows[0]!.headers[0]!.alias.text).toBe('x_a11_deadline');
  });

  test('types keep what was written', () => {
    const { ast } = parseFlow('flow f {\n  in a: string[][]\n  in b: object[string, int]\n  in c: "audio/wav"\n}');
    const [a, b, c] = ast.flows[0]!.ports;
    expect(a!.type).toMatchObject({ name: 'list', sugared: true, written: 'string[][]' });
    expect(b!.type).toMatchObject({ name: 'object', written: 'object[string, int]' });
    expect(c!.type).toMatchObject({ name: 'audio/wav', quoted: true });
  });

  test('skip: several subjects, a count, and outputs of a call', () => {
    const statements = body('flow f {\n  skip a.x, b\n  skip 2 rows.lines\n  skip e, t of act\n  skip (e, t) of act\n}');
    expect(statements[0]).toMatchObject({ kind: 'skip', count: null, targets: [{ form: 'pipeline' }, { form: 'pipeline' }] });
    expect(statements[1]).toMatchObject({ kind: 'skip', count: 2, counted: true });
    for (const statement of statements.slice(2)) {
      expect(statement).toMatchObject({ kind: 'skip', targets: [{ form: 'outputs', call: { text: 'act' }, outputs: [{ text: 'e' }, { text: 't' }] }] });
    }
  });

  test('a stage knows what it takes, its tail and whether it is tolerated', () => {
    const pipe = body('flow f {\n  a | try map it parallel 4 unordered into bad | fold 0 as n, n + 1 | timeout 2m -> b\n}')[0] as Pipe;
    const [map, fold, timeout] = pipe.pipeline.stages;
    expect(map).toMatchObject({ name: 'map', tolerant: true, parallel: 4, ordered: false, failures: { kind: 'name', name: 'bad' } });
    expect(fold!.argument).toMatchObject({ takes: 'fold', start: { kind: 'integer', value: 0 }, carried: { text: 'n' } });
    expect(timeout!.argument).toMatchObject({ takes: 'duration', seconds: 120 });
  });

  test('a record spread of constants is a constant default', () => {
    const { ast } = parseFlow('flow f {\n  header "h" default {...{"a": 1}, "a": 2, "b": [1, ...[2]]}\n}');
    expect(ast.flows[0]!.headers[0]!.defaultValue).toEqual({
      kind: 'object',
      pairs: [
        ['a', { kind: 'integer', value: 2 }],
        ['b', { kind: 'list', items: [{ kind: 'integer', value: 1 }, { kind: 'integer', value: 2 }] }],
      ],
    });
  });

  test('a spread written with … is read as one, with a fix offered', () => {
    const { diagnostics, ast } = parseFlow('flow f {\n  [...a, …b] -> c\n}');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'flow.syntax.unexpected-character', fixes: [{ edits: [{ text: '...' }] }] });
    expect((ast.flows[0]!.body[0] as Pipe).pipeline.source).toMatchObject({ kind: 'list', items: [{ kind: 'spread' }, { kind: 'spread' }] });
  });

  test('a problem costs its own line: the statements around it are still there', () => {
    const { ast, diagnostics } = parseFlow('flow f {\n  in  a: string\n  out b: string\n  a | wat -> b\n  a -> b\n}\n');
    expect(diagnostics.map((problem) => problem.code)).toEqual(['flow.form.unknown-stage']);
    expect(ast.flows[0]!.ports).toHaveLength(2);
    expect(ast.flows[0]!.body.map((statement) => statement.kind)).toEqual(['pipe', 'pipe']);
  });

  test('nesting past the bound is reported once, at the token where it is passed', () => {
    const deep = `flow f {\n  out o: json\n  ${'['.repeat(400)}${']'.repeat(400)} -> o\n}\n`;
    const codes = parseFlow(deep).diagnostics.map((problem) => problem.code);
    expect(codes.filter((code) => code === 'flow.syntax.nesting-too-deep')).toHaveLength(1);
    expect(parseFlow(deep).diagnostics[0]).toMatchObject({ code: 'flow.syntax.nesting-too-deep', from: deep.indexOf('[') + 127 });
  });

  test('a long chain of operators is one expression, not a mistake', () => {
    // Lezer's driver cuts a left-associative chain after about 800 operators; the reference reads
    // thousands (it crashes only past ten thousand).
    for (const [operator, length] of [['+', 3000], ['and', 2000], ['or', 1200]] as const) {
      const source = `flow f {\n  in a: integer\n  out b: boolean\n  let x = ${Array(length).fill('a').join(` ${operator} `)}\n  x -> b\n}\n`;
      const { ast, diagnostics } = parseFlow(source);
      expect(diagnostics, `${length} × ${operator}`).toEqual([]);
      expect(ast.flows[0]!.body.map((statement) => statement.kind)).toEqual(['let', 'pipe']);
    }
  });

  test('comparisons do not chain: the second operator is where the reference stops', () => {
    const source = 'flow f { a < b < c -> x }';
    expect(parseFlow(source).diagnostics.slice(0, 2)).toMatchObject([
      { code: 'flow.syntax.statement-end', from: 15 },
      { code: 'flow.syntax.unexpected', from: 15 },
    ]);
    const bracketed = 'flow f { [a == b in c] -> x }';
    expect(parseFlow(bracketed).diagnostics[0]).toMatchObject({ code: 'flow.syntax.unexpected', from: 17 });
  });

  test('every problem inside a flow names the flow', () => {
    const { diagnostics } = parseFlow('flow first { a -> b }\nflow second { a | wat -> b }\n');
    expect(diagnostics).toMatchObject([{ code: 'flow.form.unknown-stage', flow: 'second' }]);
  });
});

describe.skipIf(!REFERENCE_DIR)(`the reference flows ${REFERENCE_DIR ? '' : `(${REFERENCE_MISSING})`}`, () => {
  test.each(referenceFlows())('$name has no syntax problems', ({ source }) => {
    expect(parseFlow(source).diagnostics).toEqual([]);
  });
});
