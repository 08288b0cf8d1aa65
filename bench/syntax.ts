/**
 * The syntax layer, timed: a full parse (Lezer tree, syntax tree, syntax diagnostics) of a 50-,
 * 500- and 5000-line flow file, and an incremental Lezer reparse after one keystroke in the
 * 5000-line file — the editor's case — with the full Lezer parse of the same file beside it.
 *
 * Run it (built with the project's vite config, like the other benches):
 *
 *     npx vite build --ssr bench/syntax.ts --outDir build/bench-syntax --emptyOutDir --logLevel warn && node build/bench-syntax/syntax.js
 *
 * Optional: `--runs N` (timed runs per measure, default 30).
 *
 * Prints, per size: median full parseFlow time; for the 5000-line file: median full Lezer parse,
 * median incremental reparse (TreeFragment.applyChanges + parser.parse with fragments) after
 * typing one character in the middle, and the ratio between the two. The goal for the
 * incremental reparse is under 1 ms.
 */
import { TreeFragment } from '@lezer/common';
import { performance } from 'node:perf_hooks';
import { parser } from '../grammar/index.js';
import { parseFlow } from '../src/flow/syntax/parse.js';
import { flowOfLines, keystroke, reparse } from './syntax-source.js';

const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(run: () => void): number {
  const samples: number[] = [];
  for (let index = 0; index < 3; index += 1) run();
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const format = (ms: number): string => `${ms.toFixed(ms < 10 ? 3 : 1)} ms`;

for (const lines of [50, 500, 5000]) {
  const source = flowOfLines(lines);
  const { diagnostics } = parseFlow(source);
  if (diagnostics.length > 0) throw new Error(`the generated ${lines}-line flow has syntax problems: ${diagnostics[0]!.message}`);
  console.log(`parseFlow, ${lines} lines (${(source.length / 1024).toFixed(0)} KiB): median ${format(time(() => parseFlow(source)))}`);
}

const source = flowOfLines(5000);
const full = time(() => parser.parse(source));
let tree = parser.parse(source);
let fragments = TreeFragment.addTree(tree);
let text = source;
let typed = 0;
const incremental = time(() => {
  const edit = keystroke(text, typed++);
  const next = reparse(parser, edit, tree, fragments);
  text = edit.text;
  tree = next.tree;
  fragments = next.fragments;
});
console.log(`Lezer parse, 5000 lines: median ${format(full)}`);
console.log(`incremental reparse after one keystroke, 5000 lines: median ${format(incremental)} (${(full / incremental).toFixed(0)}x faster than a full parse; goal < 1 ms)`);
