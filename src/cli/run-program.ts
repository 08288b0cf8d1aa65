/**
 * Running a `.flow` file from a command line: its entry flow as a program (argv, the standard
 * streams, an exit code) or one of its named flows with inputs (its outputs printed). What
 * `flowplay run` does, callable in process so a test can hand it streams of its own.
 */
import type { Readable, Writable } from 'node:stream';
import { compileFlow } from '../flow/compile.js';
import { diagnosticToText } from '../flow/diagnostics/diagnostic.js';
import { entryFlow, findFlow, type FlowProgram } from '../flow/program.js';
import { collectOutputs, runFlow } from '../flow/runtime/run-flow.js';
import { asText } from '../flow/runtime/values/convert.js';
import { plainValue } from '../flow/runtime/values/plain.js';
import type { Value } from '../flow/runtime/values/value.js';
import { registerStandardLibrary, type FlowPolicy } from '../gateway/stdlib/index.js';
import { DEADLINE_HEADER } from '../wire/action.js';
import { parseLogLevel, type LogLevel } from '../wire/log.js';
import { ActionRegistry } from '../wire/registry.js';
import { StatusCode } from '../wire/status.js';

export interface ProgramRun {
  source: string;
  /** What messages call the file: its path, or `-`. */
  sourceName: string;
  /** Run this named flow rather than the entry flow. */
  flow?: string;
  /** A named flow's inputs, one value a port; a list given to a stream port is its values in order. */
  inputs?: Record<string, unknown>;
  /** The program's arguments after its own name (argv[0] is `sourceName`). */
  args?: string[];
  policy: FlowPolicy;
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  /** A bound on the whole run, in milliseconds. */
  timeoutMs?: number;
  /** Log records at this level or louder go to standard error (default: warning). */
  logLevel?: LogLevel;
  /**
   * Stops the run (Ctrl-C): every step ends and every process it started is stopped. The abort
   * reason, when it is a signal's name, is what the message names; the exit code is 128 + its number.
   */
  signal?: AbortSignal;
}

/** Exit codes of a program stopped by a signal, as a shell reports them. */
export const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

const LEVEL_ORDER: readonly LogLevel[] = ['debug', 'info', 'warning', 'error', 'critical'];

function say(stream: Writable, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** What each input port is written: a stream port takes a list's items one by one. */
function portValues(flow: FlowProgram, given: Record<string, unknown>): Record<string, unknown[]> {
  const values: Record<string, unknown[]> = {};
  for (const [name, value] of Object.entries(given)) {
    const port = flow.ports.find((one) => one.name === name && one.direction === 'inputs');
    values[name] = port && !port.unary && Array.isArray(value) ? value : [value];
  }
  return values;
}

/** Runs the file; resolves to the process exit code. */
export async function runProgram(options: ProgramRun): Promise<number> {
  const { stderr, sourceName } = options;
  const compiled = compileFlow(options.source, { sourceName });
  const shownName = sourceName === '-' ? '' : sourceName;
  if (!compiled.program) {
    for (const diagnostic of compiled.diagnostics) {
      if (diagnostic.severity === 'error') say(stderr, diagnosticToText(diagnostic, shownName));
    }
    return 1;
  }
  const program = compiled.program;
  const warnings = () => {
    for (const diagnostic of compiled.diagnostics) {
      if (diagnostic.severity !== 'error') say(stderr, diagnosticToText(diagnostic, shownName));
    }
  };

  const entry = entryFlow(program);
  const asProgram = entry !== undefined && options.flow === undefined;
  if (!asProgram) {
    const named = program.flows.filter((flow) => !flow.entry).map((flow) => flow.name);
    const wanted = options.flow ?? named[0];
    if (wanted === undefined || !findFlow(program, wanted)) {
      const hint = entry ? ' It does declare a program, which runs without --flow.' : '';
      say(stderr, `${sourceName} has no flow named '${wanted ?? ''}' (declared: ${named.join(', ') || 'none'}).${hint}`);
      return 2;
    }
  }

  const registry = registerStandardLibrary(new ActionRegistry(), options.policy, {
    streams: { stdin: options.stdin, stdout: options.stdout, stderr: options.stderr },
  });
  const loudest = LEVEL_ORDER.indexOf(options.logLevel ?? 'warning');
  const headers: Record<string, string> = {};
  if (options.timeoutMs !== undefined) headers[DEADLINE_HEADER] = String(Math.floor(Date.now() + options.timeoutMs));

  const flowName = asProgram ? undefined : (options.flow ?? program.flows.find((flow) => !flow.entry)!.name);
  const inputs: Record<string, unknown[]> = asProgram
    ? { argc: [1 + (options.args?.length ?? 0)], argv: [sourceName, ...(options.args ?? [])] }
    : portValues(findFlow(program, flowName!)!, options.inputs ?? {});
  let run;
  try {
    run = runFlow(program, {
      ...(flowName !== undefined ? { flow: flowName } : {}),
      inputs,
      registry,
      headers,
      ...(options.signal ? { signal: options.signal } : {}),
      actionId: asProgram ? 'main' : flowName!.replace(/[^A-Za-z0-9_]/g, '_'),
      log: (message, level) => {
        if (LEVEL_ORDER.indexOf(parseLogLevel(level) ?? 'info') < loudest) return;
        say(stderr, typeof message === 'string' ? message : asText(message as Value));
      },
    });
  } catch (error) {
    say(stderr, `${flowName ?? sourceName}: ${(error as Error).message.replace(/^[A-Z_]+: /, '')}`);
    return error instanceof Error && 'code' in error && error.code === StatusCode.NOT_FOUND ? 2 : 1;
  }
  const outputs = collectOutputs(run);
  const status = await run.done;
  const produced = await outputs;
  if (options.signal?.aborted) {
    const reason = typeof options.signal.reason === 'string' ? options.signal.reason : 'a signal';
    say(stderr, `${sourceName}: interrupted by ${reason}; the flow and every process it started were stopped.`);
    return SIGNAL_EXIT[reason] ?? 130;
  }
  if (!status.ok) {
    say(stderr, `${asProgram ? sourceName : flowName}: ${status.message || status.codeName}`);
    return 1;
  }
  warnings();
  if (asProgram) {
    const code = produced.exit_code;
    return typeof code === 'number' && Number.isInteger(code) ? code : 0;
  }
  options.stdout.write(`${JSON.stringify(plainValue(produced), null, 2)}\n`);
  return 0;
}
