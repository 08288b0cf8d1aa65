import { describe, expect, it } from 'vitest';
import { referenceFlows as readReferenceFlows } from '../../test/support/reference.js';
import { seededRandom } from '../../test/support/mutations.js';
import { compileFlow } from './compile.js';

/**
 * Bad input never throws and always gets an answer: random bytes, truncations, a very large
 * file, very deep nesting, invalid UTF-8. Seeded, so a failure reproduces; the test timeout is
 * the bound on how long any of it may take.
 */

const referenceFlows = readReferenceFlows().map((flow) => flow.source);

const SAMPLE = [
  'flow f {',
  '  in q: string stream required "What to read."',
  '  out o: string',
  '  header "x-a11-deadline" as deadline',
  '  x = try run web-fetch(url: q | first 1, by: deadline) timeout 20s',
  '  x.text | truncate 200 | map upper(it) -> o',
  '  for v in q parallel 2 { v -> o }',
  '  if (q | count) > 0 { log warning "many" } else { fail not_found "none" }',
  '  wait x',
  '}',
].join('\n');

const corpus = referenceFlows.length ? referenceFlows : [SAMPLE];

/** Compiles and checks the answer is well formed: diagnostics in range, sorted, a plan. */
function compiles(source: string): void {
  const result = compileFlow(source, { sourceName: 'fuzz.flow' });
  expect(Array.isArray(result.diagnostics)).toBe(true);
  expect(result.plan.format).toBe('flow.plan/v1');
  let last = -1;
  for (const diagnostic of result.diagnostics) {
    expect(diagnostic.from).toBeGreaterThanOrEqual(0);
    expect(diagnostic.to).toBeLessThanOrEqual(source.length);
    expect(diagnostic.range.start.offset).toBeGreaterThanOrEqual(last);
    last = diagnostic.range.start.offset;
    expect(diagnostic.message.length).toBeGreaterThan(0);
  }
  if (result.program) expect(result.diagnostics.every((diagnostic) => diagnostic.severity !== 'error')).toBe(true);
}

describe('compileFlow on bad input', () => {
  it('answers random bytes, decoded as UTF-8 with whatever that makes of them', () => {
    const random = seededRandom(0xf10f);
    const decoder = new TextDecoder('utf-8');
    for (let round = 0; round < 200; round++) {
      const bytes = new Uint8Array(1 + Math.floor(random() * 400));
      for (let at = 0; at < bytes.length; at++) bytes[at] = Math.floor(random() * 256);
      compiles(decoder.decode(bytes));
    }
  });

  it('answers random printable text and random flow-ish tokens', () => {
    const random = seededRandom(42);
    const pieces = ['flow', 'f', '{', '}', '(', ')', '[', ']', '|', '->', '<-', '=', 'in', 'out', ':', 'string', 'stream', 'run', 'x', '.', '"s"', '"""', '1', '2s', ',', '\n', 'for', 'if', 'else', 'repeat', 'until', 'let', 'try', 'skip', 'wait', 'first', 'of', 'map', 'it', '...', '#c', 'node()', 'status', 'fail', 'zip', 'FLOW', '…', '§', '🙂'];
    for (let round = 0; round < 300; round++) {
      const count = 1 + Math.floor(random() * 80);
      let text = '';
      for (let index = 0; index < count; index++) text += `${pieces[Math.floor(random() * pieces.length)]!}${random() < 0.7 ? ' ' : ''}`;
      compiles(text);
    }
  });

  it('answers every truncation point of real flows (sampled)', () => {
    const random = seededRandom(7);
    for (const source of corpus) {
      for (let round = 0; round < 25; round++) compiles(source.slice(0, Math.floor(random() * source.length)));
    }
  });

  it('answers 10 000 nested brackets of each kind', () => {
    for (const [open, close] of [['(', ')'], ['[', ']'], ['{', '}']] as const) {
      const deep = `flow f {\n  out o: string\n  ${open.repeat(10_000)}1${close.repeat(10_000)} -> o\n}\n`;
      compiles(deep);
      compiles(`flow f {\n  ${open.repeat(10_000)}\n`);
    }
    compiles(`flow f {\n${'  if true {\n'.repeat(10_000)}`);
  });


  it('answers invalid UTF-8 and lone surrogates', () => {
    const decoder = new TextDecoder('utf-8');
    compiles(decoder.decode(new Uint8Array([0x66, 0x6c, 0x6f, 0x77, 0x20, 0xff, 0xfe, 0x20, 0x7b, 0xc3, 0x28, 0x7d])));
    compiles('flow \ud800 { in q: string\n out o: string\n q -> o \udc00 }');
    compiles('\u0000\u0001\u0002flow f { }');
  });

  it('answers a 10 MB file', () => {
    const unit = `${SAMPLE}\n`;
    const big = unit.repeat(Math.ceil((10 * 1024 * 1024) / unit.length));
    expect(big.length).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    const result = compileFlow(big, { sourceName: 'big.flow' });
    // Thousands of flows named `f`: every one after the first is a duplicate.
    expect(result.diagnostics.some((diagnostic) => diagnostic.code === 'flow.form.duplicate-flow')).toBe(true);
  }, 120_000);
});
