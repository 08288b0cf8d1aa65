/**
 * `flowplay run FILE [--flow NAME] [--input port=JSON]… [policy flags] [-- argv…]`: a file's entry
 * flow as a program (argv, standard streams, exit code), or one of its named flows with inputs
 * (its outputs printed as JSON). What the program may do is decided here, on the command line,
 * and cannot be widened from inside the file.
 */
import { parseDuration } from '../flow/runtime/values/time.js';
import { parseLogLevel } from '../wire/log.js';
import { UsageError, type Command } from './command.js';
import { list, policyFrom, policyOptions } from './policy.js';
import { runProgram, SIGNAL_EXIT } from './run-program.js';
import { readSource, Unreadable } from './sources.js';

const STOP_SIGNALS = Object.keys(SIGNAL_EXIT) as NodeJS.Signals[];

/** `--input name=value`: the value read as JSON where it is JSON (`limit=3` is a number, `q=who?` a string). */
export function parseInput(given: string): [string, unknown] {
  const equals = given.indexOf('=');
  if (equals <= 0) throw new UsageError(`--input takes name=value, not '${given}'`);
  const text = given.slice(equals + 1);
  try {
    return [given.slice(0, equals), JSON.parse(text) as unknown];
  } catch {
    return [given.slice(0, equals), text];
  }
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Run a .flow file: its entry flow as a program, or a named flow with inputs.',
  usage: [
    'flowplay run FILE [options] [-- ARG...]',
    '',
    'A file with an entry flow (`flow { ... }`) runs as a program: its arguments arrive on `argv` (argv[0] is the',
    'file), it reads and writes the standard streams through read_stdin/write_stdout, and an `out exit_code` port',
    'is its exit code. Otherwise (or with --flow) one named flow runs with the given inputs and its outputs are',
    'printed as a JSON object.',
    '',
    'Options:',
    '  --flow NAME         Run this named flow (default: the entry flow, else the first flow).',
    '  --input NAME=VALUE  Fill an input port; the value is read as JSON where it is JSON. Repeatable;',
    '                      a list fills a stream port one value per element.',
    '  --timeout DURATION  A bound on the whole run: 30s, 250ms, 1m30s, or seconds.',
    '  --root DIR          A directory the flow may read (repeatable; default: the working directory).',
    '  --allow-write       Let it write, inside its roots.',
    '  --allow-run         Let it run programs (spawn_process).',
    '  --allow-net         Let it reach the network (not loopback, private or link-local addresses).',
    '  --allow-local-net   Also loopback, private and link-local addresses.',
    '  --allow-env NAME    Let it read this environment variable (repeatable).',
    '  --unrestricted      No filesystem sandbox at all. For a file you wrote.',
    '  --log-level LEVEL   Print flow log records at this level or louder on stderr (default: warning).',
  ].join('\n'),
  options: {
    flow: { type: 'string' },
    input: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    ...policyOptions,
    'log-level': { type: 'string' },
  },
  allowPositionals: true,
  async run(args) {
    const [file, ...rest] = args.positionals;
    if (!file) throw new UsageError('No file to run.');
    const inputs: Record<string, unknown> = {};
    for (const given of list(args.values.input)) {
      const [name, value] = parseInput(given);
      inputs[name] = value;
    }
    let timeoutMs: number | undefined;
    if (typeof args.values.timeout === 'string') {
      const parsed = parseDuration(args.values.timeout);
      if (!parsed || parsed.nanos < 0) throw new UsageError(`--timeout takes a duration such as 30s, 250ms or 1m30s, not '${args.values.timeout}'`);
      timeoutMs = parsed.nanos / 1e6;
    }
    const logLevel = typeof args.values['log-level'] === 'string' ? parseLogLevel(args.values['log-level']) : undefined;
    if (args.values['log-level'] !== undefined && !logLevel) throw new UsageError(`--log-level takes debug, info, warning, error or critical`);
    let source: string;
    try {
      source = await readSource(file);
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    // Ctrl-C cancels the run rather than killing this process outright: the processes a flow
    // started lead process groups of their own, so the terminal's SIGINT never reaches them and
    // only the run's cancellation stops them. A second signal gives up waiting.
    const interrupt = new AbortController();
    const onSignal = (signal: NodeJS.Signals) => {
      if (interrupt.signal.aborted) process.exit(SIGNAL_EXIT[signal] ?? 130);
      interrupt.abort(signal);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    try {
      return await runProgram({
        source,
        sourceName: file,
        ...(typeof args.values.flow === 'string' ? { flow: args.values.flow } : {}),
        inputs,
        args: rest,
        policy: policyFrom(args.values),
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        ...(logLevel ? { logLevel } : {}),
        signal: interrupt.signal,
      });
    } finally {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      // A read of standard input still pending (a cancelled read_stdin on a pipe that never
      // closes) would otherwise keep this process alive after the run has ended.
      process.stdin.destroy();
    }
  },
};
