/**
 * How fast a flow is checked, beside the reference compiler on the same files.
 *
 * Run it (it imports the `.grammar` file, so it is built with the project's vite config first):
 *
 *     npx vite build --ssr bench/check.ts --outDir build/bench --emptyOutDir --logLevel warn && node build/bench/check.js
 *
 * Prints, in one run: the median full check (`compileFlow`: parse, resolve, inspect) of a 50-,
 * 500- and 5000-line flow; the median incremental Lezer reparse of the 5000-line flow after one
 * keystroke; and, where a11-kit 0.4.4 is installed, the median `a11.flow.loads` of the same
 * sources timed inside one Python process, with the ratio ours / reference.
 * Goals: under 5 ms for 500 lines, under 1 ms for the reparse, and no slower than the reference.
 *
 * Where a 500-line check's time went (CPU profiles of a driver built with `vite build --ssr`, run
 * with `node --cpu-prof`), and what was done:
 * - Lezer's driver, not the language, was most of the parse: per action it scanned the state's
 *   action list for the token (about 31 entries a lookup: a Flow state accepts dozens of keyword
 *   terms), re-ran the contextual tokenizer after every reduction (1.4 runs per token) and grew a
 *   plain array as its buffer. `grammar/table-parse.ts` runs the same tables through per-state
 *   rows, one tokenizer run per position and its own stack: 6.9 ms -> 2.3 ms, the same tree.
 *   There were no GLR splits to remove (`~`/ambiguity): on clean input the grammar is
 *   deterministic. A file with a mistake still goes to Lezer (about as fast as before: the table
 *   parse up to the mistake is spent, Lezer's own parse got 10% faster through `can-shift.ts`).
 * - The "unexplained" time inside compileFlow was not repeated work: it was V8 still optimizing
 *   after five warm-up rounds, and garbage collection (a check allocated about 5.5 MB; each
 *   scavenge copies the check's live trees). The timing now warms up for 400 ms; the table parse
 *   allocates a quarter less. GC is still about a fifth of a check.
 * - A clean file's Lezer `Tree` was built (`Tree.build`) only to be walked once, through
 *   Lezer's navigation, by the typed-tree builders. `parseFlow` now reads the table
 *   parse's node buffer directly (`grammar/buffer-nodes.ts`: the nodes Lezer's navigation shows,
 *   linked in one pass; Lezer's tree is built only if `ParsedFlow.tree` is read): the typed tree
 *   takes 0.7 ms rather than 1.1. A file with a mistake is parsed by Lezer into its default
 *   1024-node buffers (`wholeFileParser`) rather than the editor's 128: 3-6% faster.
 * - Tried and dropped: spaces and comments read by the external tokenizer (one tokenizer run
 *   fewer per gap, 2-5% faster) changed what Lezer's recovery makes of broken text.
 * - Where a 500-line check goes now: table parse 2.2 ms (half of it the tokenizer: keyword
 *   lookahead, line breaks), typed tree 0.7 ms, checks 0.7 ms, lexical pass 0.2 ms; GC is a
 *   tenth, spread over all of them.
 * On the shared 2-core machine, main before this work -> after, both timed as here (400 ms
 * warm-up), side by side: 50 lines 0.96 -> 0.44 ms, 500 lines 10.1 -> 4.3 ms, 5000 lines
 * 114 -> 56 ms. One run of this script after (reference beside): 50 lines 0.399 ms (0.075 ms,
 * 5.3x), 500 lines 4.152 ms (1.90 ms, 2.2x), 5000 lines 55.5 ms (24.2 ms, 2.3x); the reparse
 * after a keystroke (Lezer's, incremental) 0.17 ms. (Before, with the old five-round warm-up, this
 * script printed 1.1 / 13.3 / 128 ms: 14.8x, 7.7x, 5.4x.)
 * Pathological input: 10 MB of prose in a flow 12 s -> 0.3 s (Lezer stops after 400 recoveries),
 * 5000 nested ifs 2.5 s -> 0.1 s, 20 000 `not`s 4 s -> 0.09 s, and a chain of thousands of
 * operators is one expression rather than a false error.
 * The buffer nodes and `wholeFileParser`, interleaved medians in one process (before, after):
 * 50 lines 0.40 -> 0.38 ms, 500 lines 4.5 -> 4.2 ms, 5000 lines 60 -> 52 ms. The reference's own
 * medians move by a fifth from run to run on this machine, so the printed ratio does too: one
 * run after, 500 lines 2.3-2.5x, 5000 lines 2.0x.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TreeFragment } from '@lezer/common';
import { parser, wholeFileParser } from '../grammar/index.js';
import { readWithoutRecovery } from '../grammar/table-parse.js';
import { compileFlow } from '../src/flow/compile.js';
import { checkSyntaxTree } from '../src/flow/check/index.js';
import { parseFlow } from '../src/flow/syntax/parse.js';
import { Builder } from '../src/flow/syntax/builder.js';
import { buildSourceFile } from '../src/flow/syntax/build.js';
import { REFERENCE_PYTHON } from '../test/support/reference-checker.js';

/** A flow of about `lines` lines using most of the language, every name bound, nothing unused. */
export function flowOfLines(lines: number): string {
  const head = [
    'flow bench {',
    '  describe "A long flow for timing the checker."',
    '  in  question: string required "What to find out."',
    '  in  pages:    string stream',
    '  out answer:   string',
    '  out notes:    string stream',
    '  header "x-a11-deadline" as deadline',
    '  nodes scratch',
    '  kept = node() in scratch',
  ];
  const body: string[] = [];
  let index = 0;
  while (head.length + body.length + 3 < lines) {
    const n = index++;
    body.push(
      `  step${n} = try run web-fetch(url: question, deadline: deadline) timeout 20s via scratch`,
      `  step${n}.text | truncate 200 | where it != "" | map upper(trim(it)) -> kept`,
      `  let size${n} = step${n}.text | count`,
      `  if size${n} > ${n} and not (status step${n}).ok {`,
      `    logf "page %s was short" size${n}`,
      `  }`,
      `  for page${n} in pages parallel 2 {`,
      `    strformat("%s: %s", question, page${n}) -> notes`,
      `  }`,
    );
  }
  return [...head, ...body.slice(0, Math.max(0, lines - head.length - 3)), '  kept | first 1 -> answer', '}', ''].join('\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Median milliseconds of `run`, after warming up; each round gets a fresh variant of the input.
 * The warm-up runs for at least 400 ms: V8 is still optimizing the compiler's functions after a
 * handful of rounds, and a median taken then measured the JIT rather than the code.
 */
function time(rounds: number, run: (round: number) => void): number {
  const warmUntil = performance.now() + 400;
  for (let round = 0; round < 5 || performance.now() < warmUntil; round++) run(-1 - round);
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    run(round);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/** The reference's `a11.flow.loads`, timed in one Python process on the same sources. */
function referenceTimes(sources: Record<string, string>, rounds: Record<string, number>): Record<string, number> | null {
  const python = REFERENCE_PYTHON;
  if (!python || !existsSync(python)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'flowplay-bench-'));
  const input = join(dir, 'sources.json');
  writeFileSync(input, JSON.stringify({ sources, rounds }));
  const script = [
    'import json, statistics, sys, time',
    'import a11.flow',
    'data = json.load(open(sys.argv[1]))',
    'out = {}',
    'for name, source in data["sources"].items():',
    '    n = data["rounds"][name]',
    '    for i in range(min(5, n)): a11.flow.loads(source + "\\n# warm %d\\n" % i)',
    '    samples = []',
    '    for i in range(n):',
    '        varied = source + "\\n# %d\\n" % i',
    '        started = time.perf_counter()',
    '        a11.flow.loads(varied)',
    '        samples.append((time.perf_counter() - started) * 1000)',
    '    out[name] = statistics.median(samples)',
    'print(json.dumps(out))',
  ].join('\n');
  const result = spawnSync(python, ['-c', script, input], { encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(`reference timing failed: ${result.stderr}\n`);
    return null;
  }
  return JSON.parse(result.stdout) as Record<string, number>;
}

function main(): void {
  const sizes = [50, 500, 5000];
  const sources: Record<string, string> = {};
  const rounds: Record<string, number> = {};
  for (const size of sizes) {
    sources[`${size} lines`] = flowOfLines(size);
    rounds[`${size} lines`] = size >= 5000 ? 30 : size >= 500 ? 200 : 400;
  }
  for (const [name, source] of Object.entries(sources)) {
    const errors = compileFlow(source).diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) throw new Error(`the ${name} benchmark flow does not check: ${errors[0]!.message}`);
  }

  const ours: Record<string, number> = {};
  for (const [name, source] of Object.entries(sources)) {
    // A fresh comment per round, so nothing can be reused between rounds.
    ours[name] = time(rounds[name]!, (round) => compileFlow(`${source}# ${round}\n`, { sourceName: 'bench.flow' }));
  }

  // One keystroke in the middle of the 5000-line flow, reparsed from the previous tree's fragments.
  const big = sources['5000 lines']!;
  const tree = parser.parse(big);
  const at = big.indexOf('truncate 200', Math.floor(big.length / 2)) + 'truncate 20'.length;
  const fragments = TreeFragment.addTree(tree);
  const reparse = time(100, (round) => {
    const digit = String(Math.abs(round) % 10);
    const edited = big.slice(0, at) + digit + big.slice(at);
    const changed = TreeFragment.applyChanges(fragments, [{ fromA: at, toA: at, fromB: at, toB: at + 1 }]);
    parser.parse(edited, changed);
  });
  const fullParse = time(10, (round) => parser.parse(`${big}# ${round}\n`));

  // Where a 500-line check goes: the table-driven parse (its nodes linked), the typed tree built
  // from those nodes, and the checks; beside them, Lezer's parse (what a file with a mistake gets).
  const medium = sources['500 lines']!;
  const nodes = readWithoutRecovery(wholeFileParser, medium)!.toNodes();
  const parsed = parseFlow(medium);
  const phases = {
    table: time(100, (round) => readWithoutRecovery(wholeFileParser, `${medium}# ${round}\n`)?.toNodes()),
    lezer: time(60, (round) => wholeFileParser.parse(`${medium}# ${round}\n`)),
    tree: time(60, () => buildSourceFile(new Builder(medium), nodes.topNode)),
    checks: time(60, () => checkSyntaxTree(parsed.ast, medium, parsed.diagnostics, { sourceName: 'bench.flow' })),
  };

  const reference = referenceTimes(sources, rounds);
  const row = (cells: string[]) => `${cells[0]!.padEnd(40)}${cells.slice(1).map((cell) => cell.padStart(14)).join('')}`;
  const ms = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(3)} ms`);
  const lines = [
    'flowplay check — median times (lower is better)',
    '',
    row(['', 'flowplay', 'reference', 'ours / ref']),
    ...sizes.map((size) => {
      const name = `${size} lines`;
      const theirs = reference?.[name];
      return row([`full check, ${name}`, ms(ours[name]), ms(theirs), theirs ? `${(ours[name]! / theirs).toFixed(2)}x` : '—']);
    }),
    row(['  500 lines: table-driven parse', ms(phases.table), '', '']),
    row(["  500 lines: Lezer's parse (the fallback)", ms(phases.lezer), '', '']),
    row(['  500 lines: syntax tree from its nodes', ms(phases.tree), '', '']),
    row(['  500 lines: checks (resolve, inspect)', ms(phases.checks), '', '']),
    row(['Lezer reparse after 1 keystroke', ms(reparse), '', '']),
    row(['(full Lezer parse, 5000 lines)', ms(fullParse), '', '']),
    '',
    `goals: 500 lines under 5 ms — ${ours['500 lines']! < 5 ? 'met' : 'missed'}; reparse under 1 ms — ${reparse < 1 ? 'met' : 'missed'}; ` +
      (reference ? `no slower than the reference — ${sizes.every((size) => ours[`${size} lines`]! <= reference[`${size} lines`]!) ? 'met' : 'missed'}` : 'reference not installed (set A11_PYTHON)'),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv[1]?.endsWith("check.js")) main();
