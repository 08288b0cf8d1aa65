/**
 * The runtime, timed: values per second through a five-stage pipeline, ours against the
 * reference's `a11 flow run`, on the same program and the same input, side by side in one run.
 *
 * Run it (built with the project's vite config, like the other benches):
 *
 *     npx vite build --ssr bench/runtime.ts --outDir build/bench-runtime --emptyOutDir --logLevel warn && node build/bench-runtime/runtime.js
 *
 * Optional: `--values N` (lines of input, default 50000), `--runs N` (best of, default 3),
 * `--ours-only`. The reference is a11-kit 0.4.4 ($A11_BIN, else .tools/a11-kit, else /opt/a11ref44).
 *
 * The program reads standard input as lines and puts them through `map | where | scan | window |
 * count`, then writes the count. Both sides run as a command would: ours is `flowplay run`'s code
 * in this process (and `node bin/flowplay.js run` as a process too, when `npm run build` has made
 * it); the reference is `a11 flow run` as a process. A process's start-up is not the pipeline's
 * work, so each process is also timed on three lines of input and that time is taken off.
 * Each side also runs the same program without its stages (`input.lines | count`), and the
 * difference is what the five stages cost on their own: the second pair of columns.
 * Both sides must print the same count, or the bench says so and fails.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PassThrough, Readable } from 'node:stream';
import { runProgram } from '../src/cli/run-program.js';
import { readOnlyPolicy } from '../src/gateway/stdlib/index.js';
import { PROJECT_ROOT } from '../test/support/reference.js';
import { REFERENCE_A11 } from '../test/support/reference-checker.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const VALUES = option('values', 50_000);
const RUNS = option('runs', 3);
const OURS_ONLY = args.includes('--ours-only');

const PROGRAM = `# Five stages over standard input's lines; the count is the answer.
flow {
  nodes scratch
  input = run read_stdin() via scratch
  skip input.bytes, input.is_tty
  total = node() in scratch
  input.lines
    | map number(it)
    | where it > 2
    | scan {"sum": 0, "last": 0} as acc, {"sum": acc.sum + it, "last": it}
    | window 3
    | count
    -> total
  o = run write_stdout(content: total | map strformat("%d\\n", it)) via scratch
  skip o.bytes_written
}
`;

/** The same program with no stages: what reading and writing cost, so the stages' own cost shows. */
const BARE = PROGRAM.replace(/input\.lines\n(?:\s+\|.*\n)+/, 'input.lines | count\n').replace('# Five stages', '# No stages');

function inputOf(count: number): string {
  const lines: string[] = [];
  for (let n = 0; n < count; n++) lines.push(String((n * 7919) % 10));
  return `${lines.join('\n')}\n`;
}

interface Timed {
  seconds: number;
  stdout: string;
}

async function inProcess(source: string, input: string, directory: string): Promise<Timed> {
  const stdout = new PassThrough();
  const pieces: Buffer[] = [];
  stdout.on('data', (piece: Buffer) => pieces.push(piece));
  const stderr = new PassThrough();
  stderr.resume();
  const started = performance.now();
  const exit = await runProgram({
    source,
    sourceName: 'five.flow',
    policy: readOnlyPolicy([directory]),
    stdin: Readable.from([Buffer.from(input)]),
    stdout,
    stderr,
  });
  const seconds = (performance.now() - started) / 1000;
  if (exit !== 0) throw new Error(`ours exited ${exit}`);
  return { seconds, stdout: Buffer.concat(pieces).toString() };
}

function asProcess(command: string, argv: string[], inputFile: string, cwd: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (piece: Buffer) => out.push(piece));
    child.stderr.on('data', (piece: Buffer) => err.push(piece));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) reject(new Error(`${command} exited ${code}: ${Buffer.concat(err).toString()}`));
      else resolve({ seconds, stdout: Buffer.concat(out).toString() });
    });
    Readable.from([Buffer.from(inputFile)]).pipe(child.stdin);
  });
}

async function best(runs: number, once: () => Promise<Timed>): Promise<Timed> {
  let fastest: Timed | undefined;
  for (let run = 0; run < runs; run++) {
    const timed = await once();
    if (!fastest || timed.seconds < fastest.seconds) fastest = timed;
  }
  return fastest!;
}

interface Row {
  name: string;
  seconds: number;
  startup: number;
  /** The same side running the program without its stages. */
  bare: number;
  stdout: string;
}

function rate(row: Row): number {
  return VALUES / Math.max(row.seconds - row.startup, 1e-9);
}

/** Values per second through the five stages alone: the whole program less the bare one. */
function stageRate(row: Row): number {
  return VALUES / Math.max(row.seconds - row.bare, 1e-9);
}

async function main(): Promise<number> {
  const directory = mkdtempSync(join(tmpdir(), 'flowplay-bench-runtime-'));
  try {
    writeFileSync(join(directory, 'five.flow'), PROGRAM);
    writeFileSync(join(directory, 'bare.flow'), BARE);
    const input = inputOf(VALUES);
    const tiny = inputOf(3);
    process.stdout.write(`five-stage pipeline (map | where | scan | window 3 | count), ${VALUES} values, best of ${RUNS}\n\n`);

    const rows: Row[] = [];
    await inProcess(PROGRAM, inputOf(2000), directory); // warm the JIT, as a long-running host would be
    await inProcess(BARE, inputOf(2000), directory);
    const here = await best(RUNS, () => inProcess(PROGRAM, input, directory));
    const hereBare = await best(RUNS, () => inProcess(BARE, input, directory));
    rows.push({ name: 'ours, in process', seconds: here.seconds, startup: 0, bare: hereBare.seconds, stdout: here.stdout });

    const cli = join(PROJECT_ROOT, 'bin', 'flowplay.js');
    if (existsSync(join(PROJECT_ROOT, 'build', 'node', 'main.js'))) {
      const argv = [cli, 'run', 'five.flow'];
      const startup = await best(RUNS, () => asProcess(process.execPath, argv, tiny, directory));
      const timed = await best(RUNS, () => asProcess(process.execPath, argv, input, directory));
      const bare = await best(RUNS, () => asProcess(process.execPath, [cli, 'run', 'bare.flow'], input, directory));
      rows.push({ name: 'ours, flowplay run', seconds: timed.seconds, startup: startup.seconds, bare: bare.seconds, stdout: timed.stdout });
    } else {
      process.stdout.write('(flowplay run as a process skipped: `npm run build` has not made build/node/main.js)\n');
    }

    let reference: Row | undefined;
    if (OURS_ONLY) {
      process.stdout.write('(reference skipped: --ours-only)\n');
    } else if (!REFERENCE_A11) {
      process.stdout.write('(reference skipped: a11-kit 0.4.4 not installed; run scripts/install-test-deps.sh or set A11_BIN)\n');
    } else {
      const argv = ['flow', 'run', 'five.flow'];
      const startup = await best(RUNS, () => asProcess(REFERENCE_A11!, argv, tiny, directory));
      const timed = await best(RUNS, () => asProcess(REFERENCE_A11!, argv, input, directory));
      const bare = await best(RUNS, () => asProcess(REFERENCE_A11!, ['flow', 'run', 'bare.flow'], input, directory));
      reference = { name: 'reference, a11 flow run', seconds: timed.seconds, startup: startup.seconds, bare: bare.seconds, stdout: timed.stdout };
      rows.push(reference);
    }

    const width = Math.max(...rows.map((row) => row.name.length));
    const columns = ['seconds', 'start-up', 'values/s', 'vs ref', 'no stages', 'stages v/s', 'vs ref'];
    const widths = [8, 8, 11, 8, 9, 11, 8];
    const line = (name: string, cells: string[]) => `${name.padEnd(width)}${cells.map((cell, at) => `  ${cell.padStart(widths[at]!)}`).join('')}\n`;
    process.stdout.write(line('side', columns));
    for (const row of rows) {
      const ratio = (value: number, of: number) => (reference ? `${(value / of).toFixed(2)}x` : '-');
      process.stdout.write(
        line(row.name, [
          row.seconds.toFixed(3),
          row.startup.toFixed(3),
          Math.round(rate(row)).toLocaleString('en-US'),
          reference ? ratio(rate(row), rate(reference)) : '-',
          row.bare.toFixed(3),
          Math.round(stageRate(row)).toLocaleString('en-US'),
          reference ? ratio(stageRate(row), stageRate(reference)) : '-',
        ]),
      );
    }
    process.stdout.write(
      '\nvalues/s: input lines over the run, start-up taken off. stages v/s: input lines over what the five stages\n' +
        'added to the same program without them (so reading standard input and writing the answer are left out).\n',
    );

    const answers = new Set(rows.map((row) => row.stdout.trim()));
    if (answers.size !== 1) {
      process.stdout.write(`\nthe sides disagree: ${rows.map((row) => `${row.name}: ${JSON.stringify(row.stdout)}`).join('; ')}\n`);
      return 1;
    }
    process.stdout.write(`\nevery side counted ${[...answers][0]} windows (above 1.00x is faster than the reference)\n`);
    return 0;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
