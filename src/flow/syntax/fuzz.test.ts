import { describe, expect, test } from 'vitest';
import { referenceFlows } from '../../../test/support/reference';
import * as vocabulary from '../vocabulary';
import type { Span, SyntaxNode } from './ast';
import { parseFlow } from './parse';
import { forEachNode } from './walk';

/**
 * Bad input of every kind — random bytes, token soup, truncated and damaged flows, invalid UTF-8,
 * deep nesting, megabytes of text — always gives a tree and diagnostics: never a throw, never a
 * hang, every position inside the text. Seeded, so a failure names the input that caused it.
 */

/** xorshift32: small, fast and the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const example = `flow research {
  describe "Search, read the best hits."
  in  question: string required
  out answer: string
  header "x-a11-deadline" as deadline
  search = run web-search(query: question, limit: 3)
  for hit in search.hits parallel 2 {
    page = try call web-fetch(url: hit.url) timeout 20s
    page.text | truncate 200 | where it != "" -> answer
  }
  skip search.debug
}
`;

const sources: string[] = [example, ...referenceFlows().map((flow) => flow.source)];

const soupWords = [
  ...vocabulary.statementWords, ...vocabulary.clauseWords, ...vocabulary.declarationWords, ...vocabulary.logLevels,
  ...vocabulary.stages.map((stage) => stage.name), ...vocabulary.builtins.map((builtin) => builtin.name),
  'x', 'FOR', 'Skip', 'it', 'status', 'zip', 'first', 'of', 'as', '"s"', '"""t\n"""', '"open', '1', '-2', '1.5', '30s', '5x',
  '1.2.3', '|', '->', '<-', '=', '==', '.', '..', '...', '…', ':', ',', '{', '}', '(', ')', '[', ']', '#c\n', '\n', ';', '@',
];

function checkAnswer(source: string): void {
  const { ast, diagnostics, tree } = parseFlow(source);
  const inside = (span: Span): boolean => span.from >= 0 && span.from <= span.to && span.to <= source.length;
  for (const problem of diagnostics) {
    if (!(problem.from >= 0 && problem.from <= problem.to && problem.to <= source.length)) {
      throw new Error(`problem outside the text: ${JSON.stringify(problem)} for ${JSON.stringify(source.slice(0, 200))}`);
    }
  }
  for (let index = 1; index < diagnostics.length; index += 1) expect(diagnostics[index]!.from).toBeGreaterThanOrEqual(diagnostics[index - 1]!.from);
  forEachNode(ast, (node: SyntaxNode) => {
    if (!inside(node.at) || !inside(node.range)) throw new Error(`node outside the text: ${node.kind} ${JSON.stringify(node.at)}`);
  });
  expect(tree.length).toBeLessThanOrEqual(source.length);
}

describe('parseFlow on bad input', () => {
  test('random bytes, decoded as UTF-8 (invalid sequences become U+FFFD)', () => {
    const next = random(1);
    const decoder = new TextDecoder('utf-8');
    for (let run = 0; run < 150; run += 1) {
      const bytes = Uint8Array.from({ length: Math.floor(next() * 300) }, () => Math.floor(next() * 256));
      checkAnswer(decoder.decode(bytes));
    }
  });

  test('random UTF-16, lone surrogates included', () => {
    const next = random(2);
    for (let run = 0; run < 100; run += 1) {
      checkAnswer(String.fromCharCode(...Array.from({ length: Math.floor(next() * 200) }, () => Math.floor(next() * 0x10000))));
    }
  });

  test('token soup, inside a flow and out of one', () => {
    const next = random(3);
    for (let run = 0; run < 200; run += 1) {
      const tokens = Array.from({ length: Math.floor(next() * 80) }, () => soupWords[Math.floor(next() * soupWords.length)]!);
      const soup = tokens.join(next() < 0.5 ? ' ' : '');
      checkAnswer(run % 2 === 0 ? soup : `flow f {\n  ${soup}\n}\n`);
    }
  });

  test('flows cut short anywhere', () => {
    const next = random(4);
    for (let run = 0; run < 150; run += 1) {
      const source = sources[Math.floor(next() * sources.length)]!;
      checkAnswer(source.slice(0, Math.floor(next() * source.length)));
    }
  });

  test('flows with characters inserted, deleted and replaced', () => {
    const next = random(5);
    const alphabet = '{}()[]|->:,."\n#…x1 ';
    for (let run = 0; run < 150; run += 1) {
      let source = sources[Math.floor(next() * sources.length)]!;
      for (let edit = 0; edit < 1 + Math.floor(next() * 5); edit += 1) {
        const at = Math.floor(next() * (source.length + 1));
        const letter = alphabet[Math.floor(next() * alphabet.length)]!;
        const kind = Math.floor(next() * 3);
        source = kind === 0 ? source.slice(0, at) + letter + source.slice(at) : kind === 1 ? source.slice(0, at) + source.slice(at + 1) : source.slice(0, at) + letter + source.slice(at + 1);
      }
      checkAnswer(source);
    }
  });

  test.each([
    ['(', ')'],
    ['[', ']'],
    ['{', '}'],
  ])('10 000 nested %s, closed and left open', (open, close) => {
    for (const source of [
      `flow f {\n  ${open.repeat(10_000)}${close.repeat(10_000)} -> o\n}\n`,
      `flow f {\n  x = ${open.repeat(10_000)}\n`,
      open.repeat(10_000),
    ]) {
      const { diagnostics } = parseFlow(source);
      expect(diagnostics.length).toBeGreaterThan(0);
      checkAnswer(source);
    }
  });

  test('10 000 nested blocks report nesting too deep, once', () => {
    const source = `flow f {\n${'if x {\n'.repeat(10_000)}${'}\n'.repeat(10_000)}}\n`;
    const codes = parseFlow(source).diagnostics.map((problem) => problem.code);
    expect(codes.filter((code) => code === 'flow.syntax.nesting-too-deep')).toHaveLength(1);
  });

  test('10 MB of text', () => {
    const prose = 'The quick brown fox jumps over the lazy dog; it runs -> away (fast) [really].\n';
    const source = prose.repeat(Math.ceil(10_000_000 / prose.length));
    const { diagnostics } = parseFlow(source);
    expect(diagnostics[0]).toMatchObject({ code: 'flow.syntax.unexpected', from: 0 });
  });

  test('a megabyte of punctuation inside a flow is answered', () => {
    const next = random(6);
    const source = `flow f {\n${Array.from({ length: 1_000_000 }, () => '{[(|->:,"'[Math.floor(next() * 9)]).join('')}\n}\n`;
    expect(parseFlow(source).diagnostics[0]!.from).toBeLessThan(20);
    checkAnswer(source.slice(0, 100_000));
  });

  test('a flow that is mostly mistakes is read until the work budget runs out, and says where it stopped', () => {
    const source = `flow f {\n${'lorem ipsum dolor sit amet consectetur\n'.repeat(10_000)}}\n`;
    const { diagnostics } = parseFlow(source);
    expect(diagnostics[0]).toMatchObject({ code: 'flow.syntax.statement-end', from: source.indexOf('ipsum') });
    expect(diagnostics.some((problem) => problem.message.startsWith('Reading stopped here'))).toBe(true);
  });
});
