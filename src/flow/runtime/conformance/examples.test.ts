/**
 * The reference's example programs (examples/006-flow-programs, all but ask.flow, which needs a
 * model) run under `flowplay run` and under the reference's `a11 flow run`, on the same
 * arguments and input: standard output and exit code must be the same.
 *
 * `flowplay run` is the built command (`node bin/flowplay.js`) when `npm run build` has made it,
 * and otherwise the same code in process.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runA11, stopA11 } from '../../../../test/support/a11.js';
import { runProgramCaptured } from '../../../../test/support/run-program.js';
import { A11_BIN, A11_MISSING, PROJECT_ROOT, REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../../../test/support/reference.js';
import { parseCommandArgs } from '../../../cli/command.js';
import { policyFrom } from '../../../cli/policy.js';
import { runCommand } from '../../../cli/run.js';

interface Run {
  exit: number;
  stdout: string;
  stderr: string;
}

interface Example {
  /** The example's file name without `examples__006-flow-programs__` and `.flow`. */
  program: string;
  title: string;
  args?: (directory: string) => string[];
  stdin?: string;
  flags?: (directory: string) => string[];
  /** Files the run needs in its directory beforehand. */
  files?: Record<string, string>;
  /** What else must agree afterwards: a file the run wrote, read back. */
  after?: (directory: string) => string;
}

const LOG = 'compiling\nwarning: unused variable\nlinking\nwarn: slow step\nerror: none\n';

const examples: Example[] = [
  { program: 'greet', title: 'greets the world with no argument', args: () => [] },
  { program: 'greet', title: 'greets whoever is named, trimmed', args: () => ['  Helena '] },
  { program: 'wc', title: 'counts lines', stdin: 'one\ntwo\nthree\n' },
  { program: 'wc', title: 'counts a last line without a newline', stdin: 'one\ntwo' },
  { program: 'wc', title: 'counts nothing on empty input', stdin: '' },
  { program: 'grep', title: 'prints matching lines, exit 0', args: () => ['warn'], stdin: LOG },
  { program: 'grep', title: 'exits 1 when nothing matches', args: () => ['panic'], stdin: LOG },
  { program: 'span', title: 'finds a phrase across a line break', args: () => ['END OF'], stdin: 'start\nthe END\nOF file\nEND OF one line\n' },
  { program: 'span', title: 'exits 1 when the phrase is nowhere', args: () => ['END OF'], stdin: 'start\nthe END\nfile\n' },
  {
    program: 'extract',
    title: 'prints the lines between the markers',
    args: () => ['BEGIN', 'END'],
    stdin: 'keep1\nBEGIN here\nkeep1\nkeep2\nEND there\nkeep3\nBEGIN\nlast\n',
  },
  { program: 'extract', title: 'exits 1 when there is no block', args: () => ['BEGIN', 'END'], stdin: 'a\nb\n' },
  {
    program: 'copy',
    title: 'copies a file, streaming',
    files: { 'from.bin': 'x'.repeat(200_000) + '\u00e9\n'.repeat(1000) },
    args: (directory) => [join(directory, 'from.bin'), join(directory, 'to.bin')],
    flags: (directory) => ['--root', directory, '--allow-write'],
    after: (directory) => readFileSync(join(directory, 'to.bin'), 'latin1'),
  },
  {
    program: 'poll',
    title: "reports a file's size until two readings agree",
    files: { 'steady.log': 'line\n'.repeat(321) },
    args: (directory) => [join(directory, 'steady.log')],
    flags: (directory) => ['--root', directory],
  },
  {
    program: 'watch',
    title: "reports a file's size once a second for ten seconds",
    files: { 'watched.log': 'line\n'.repeat(12) },
    args: (directory) => [join(directory, 'watched.log')],
    flags: (directory) => ['--root', directory],
  },
];

const FLOWPLAY = join(PROJECT_ROOT, 'bin', 'flowplay.js');
const BUILT = existsSync(join(PROJECT_ROOT, 'build', 'node', 'main.js'));
const directories: string[] = [];
const MODIFIED = new Date('2024-01-02T03:04:05.25Z');

/**
 * Instants to the microsecond. The reference converts a file's modification time from the file
 * clock to the system clock through two readings of `now`, so its nanoseconds jitter by tens;
 * ours are the file's own.
 */
function toMicroseconds(text: string): string {
  return text.replace(/(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?\+00:00/g, (_, base: string, fraction = '') => {
    const micros = Math.round(Number(`0.${fraction || '0'}`) * 1e6);
    return `${base}.${String(micros).padStart(6, '0')}`;
  });
}

afterAll(() => {
  stopA11();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function prepared(example: Example): string {
  const directory = mkdtempSync(join(tmpdir(), `flowplay-example-${example.program}-`));
  directories.push(directory);
  for (const [name, content] of Object.entries(example.files ?? {})) {
    writeFileSync(join(directory, name), content);
    // Both copies modified at the same instant, so a program that prints it prints the same.
    utimesSync(join(directory, name), MODIFIED, MODIFIED);
  }
  writeFileSync(join(directory, `${example.program}.flow`), readFileSync(referencePath('flows', `examples__006-flow-programs__${example.program}.flow`)));
  return directory;
}

function commandLine(example: Example, directory: string): string[] {
  const args = example.args?.(directory) ?? [];
  return [...(example.flags?.(directory) ?? []), `${example.program}.flow`, ...(args.length ? ['--', ...args] : [])];
}

function runBuilt(argv: string[], cwd: string, stdin: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [FLOWPLAY, 'run', ...argv], { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ exit: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
    child.stdin?.end(stdin);
  });
}

function runInProcess(argv: string[], cwd: string, stdin: string): Promise<Run> {
  const parsed = parseCommandArgs(runCommand, argv);
  const [file, ...args] = parsed.positionals;
  return runProgramCaptured({
    source: readFileSync(join(cwd, file!), 'utf8'),
    sourceName: file!,
    args,
    policy: policyFrom(parsed.values),
    stdin: Readable.from([Buffer.from(stdin)]),
  });
}

const missing = REFERENCE_DIR ? (A11_BIN ? null : A11_MISSING) : REFERENCE_MISSING;

describe.skipIf(missing !== null)(`the example programs under flowplay run and a11 flow run${missing ? ` (${missing})` : ''}`, () => {
  for (const example of examples) {
    // Generous: the watch example runs for ten seconds, and a loaded machine runs all of them slower.
    const timeoutMs = 60_000;
    it.concurrent(
      `${example.program}: ${example.title}`,
      async () => {
        const ours = prepared(example);
        const theirs = prepared(example);
        const stdin = example.stdin ?? '';
        const [here, reference] = await Promise.all([
          BUILT ? runBuilt(commandLine(example, ours), ours, stdin, timeoutMs) : runInProcess(commandLine(example, ours), ours, stdin),
          runA11(['flow', 'run', ...commandLine(example, theirs)], { cwd: theirs, stdin, timeoutMs }),
        ]);
        const context = `reference (exit ${reference.exit}):\n${reference.stdout}\n${reference.stderr}\nflowplay (exit ${here.exit}):\n${here.stdout}\n${here.stderr}`;
        const same = (text: string, directory: string) => toMicroseconds(text.split(directory).join('DIR'));
        expect(same(here.stdout, ours), context).toBe(same(reference.stdout, theirs));
        expect(here.exit, context).toBe(reference.exit);
        if (example.after) expect(example.after(ours)).toBe(example.after(theirs));
      },
      timeoutMs * 2,
    );
  }
});
