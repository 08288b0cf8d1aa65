/**
 * `spawn_process`: run a program, with its standard output and error on ports of their own (as
 * bytes and as lines) and its pid written before either. A non-zero exit is reported on
 * `exit_code`, not as a failure: the program ran, and this is what it said. Cancelling sends
 * SIGTERM, waits `options.grace`, then SIGKILL. Only programs the policy allows are run, and
 * nothing here confines them beyond that check — `sandbox` says so.
 */
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { ActionHandler } from '../../wire/action.js';
import { defineAction } from '../../wire/schema.js';
import { Status, StatusCode, StatusError } from '../../wire/status.js';
import { trackChildProcess } from '../activity/attribution.js';
import { resolvePath, resolveProgram, type FlowPolicy } from './policy.js';
import { bytesOfChunk, Outputs, readOptions, readRequiredText, readValue, StopSignal } from './ports.js';
import { LineSplitter, PortTextDecoder } from './streams.js';
import { CONTROL_PORT, DEADLINE_HEADERS, JSON_TYPE, OCTET_STREAM, type Registration } from './shared.js';

const SIGNALS = ['TERM', 'KILL', 'INT', 'HUP', 'QUIT', 'USR1', 'USR2', 'CONT'] as const;

export const spawnProcessSchema = defineAction({
  name: 'spawn_process',
  description:
    'Run a program, with its standard output and standard error on separate ports -- as bytes and as lines -- and ' +
    'its pid written before any of them. A non-zero exit is reported on `exit_code` rather than failing the action. ' +
    'Cancelling the action sends SIGTERM, waits options.grace, and then sends SIGKILL.',
  inputs: {
    program: { type: 'string', required: true, description: 'The program to run.' },
    arguments: {
      type: JSON_TYPE,
      description: 'The arguments, one per element. A single string is one argument and is not split on spaces.',
    },
    stdin: {
      type: OCTET_STREAM,
      stream: true,
      description: "What to write to the program's standard input, in order. Closed when the stream ends.",
    },
    options: {
      type: JSON_TYPE,
      description:
        'All optional: cwd (checked against the filesystem policy), environment (an object of names to values), ' +
        'clear_environment, grace (how long SIGTERM is given before SIGKILL, default 5s), max_output_bytes, and omit ' +
        '-- output port names to close immediately rather than write.',
    },
    [CONTROL_PORT]: {
      type: JSON_TYPE,
      stream: true,
      description: `Control commands: {"command": "stop"} to wind the process down, or {"command": "signal", "signal": "HUP"} to send one of ${SIGNALS.join(', ')}.`,
    },
  },
  outputs: {
    pid: { type: 'integer', description: 'The process id, written as soon as there is one.' },
    stdout: { type: OCTET_STREAM, stream: true, description: 'Standard output, as it arrives.' },
    stdout_lines: { type: 'string', stream: true, description: 'Standard output, one value per line, without its line ending.' },
    stderr: { type: OCTET_STREAM, stream: true, description: 'Standard error, as it arrives, and never mixed into standard output.' },
    stderr_lines: { type: 'string', stream: true, description: 'Standard error, one value per line, without its line ending.' },
    exit_code: { type: 'integer', description: 'The exit code, or 128 plus the signal number when it was killed.' },
    signal: { type: 'string', description: 'The name of the signal that ended it, or nothing when it exited of its own accord.' },
    usage: { type: JSON_TYPE, description: '{user_ms, system_ms, max_rss_bytes, output_bytes} once it has finished.' },
    sandbox: { type: 'string', description: 'What confinement was applied to the child, or why none was.' },
  },
  headers: DEADLINE_HEADERS('The process is sent SIGTERM once it is reached, then SIGKILL after options.grace.'),
});

function argumentsOf(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return [raw];
  if (Array.isArray(raw)) return raw.map((one) => (typeof one === 'string' ? one : JSON.stringify(one)));
  throw new StatusError(StatusCode.INVALID_ARGUMENT, 'arguments must be a string or a list of strings');
}

function spawnProcess(policy: FlowPolicy): ActionHandler {
  return async (context) => {
    const program = resolveProgram(policy, await readRequiredText(context, 'program'));
    const args = argumentsOf(await readValue(context, 'arguments'));
    const options = await readOptions(context);
    const cwdOption = options.string('cwd', '');
    const cwd = cwdOption ? resolvePath(policy, cwdOption, false) : undefined;
    const clear = options.bool('clear_environment', !policy.processes.inheritEnvironment);
    const graceMs = options.durationMs('grace', 5000);
    const maxOutput = options.bytes('max_output_bytes', 0);
    const extra = options.object('environment').raw;
    const outputs = Outputs.open(context, options);
    const env: Record<string, string> = clear ? {} : { ...(process.env as Record<string, string>) };
    for (const [name, value] of Object.entries(extra)) env[name] = typeof value === 'string' ? value : JSON.stringify(value);

    const child = spawn(program, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const started = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(new StatusError((error as { code?: string }).code === 'ENOENT' ? StatusCode.NOT_FOUND : StatusCode.UNAVAILABLE, `cannot run '${program}': ${error.message}`)),
      );
    });
    await started;
    trackChildProcess(child, 'spawn_process', [program, ...args]);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('close', (code, signal) => resolve({ code, signal })),
    );
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        child.kill(signal);
      }
    };
    let winding = false;
    const windDown = () => {
      if (winding) return;
      winding = true;
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      void exited.then(() => clearTimeout(timer));
    };
    const stop = new StopSignal(context, CONTROL_PORT, (command) => {
      const record = command as { command?: unknown; signal?: unknown };
      if (record.command !== 'signal' || typeof record.signal !== 'string') {
        throw new StatusError(StatusCode.INVALID_ARGUMENT, `spawn_process takes {"command": "stop"} or {"command": "signal", "signal": NAME}, and got ${JSON.stringify(command)}`);
      }
      const name = record.signal.toUpperCase().replace(/^SIG/, '');
      if (!(SIGNALS as readonly string[]).includes(name)) {
        throw new StatusError(StatusCode.INVALID_ARGUMENT, `'${record.signal}' is not one of the signals spawn_process sends (${SIGNALS.join(', ')})`);
      }
      signalGroup(`SIG${name}` as NodeJS.Signals);
    });
    void stop.whenStopped().then(windDown);

    let outputBytes = 0;
    let overflow: StatusError | undefined;
    const pump = async (stream: NodeJS.ReadableStream, bytesPort: string, linesPort: string) => {
      const decoder = new PortTextDecoder(linesPort, bytesPort);
      const lines = new LineSplitter();
      for await (const piece of stream as AsyncIterable<Buffer>) {
        const bytes = new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength).slice();
        outputBytes += bytes.length;
        if (maxOutput && outputBytes > maxOutput && !overflow) {
          overflow = new StatusError(StatusCode.RESOURCE_EXHAUSTED, `'${program}' wrote more than the ${maxOutput} bytes this run allows`);
          windDown();
        }
        if (outputs.wants(bytesPort)) await outputs.bytes(bytesPort, bytes);
        if (outputs.wants(linesPort)) for (const line of lines.push(decoder.decode(bytes, { stream: true }))) await outputs.text(linesPort, line);
      }
      if (outputs.wants(linesPort)) for (const line of [...lines.push(decoder.decode()), ...lines.end()]) await outputs.text(linesPort, line);
      outputs.close(bytesPort);
      outputs.close(linesPort);
    };
    const feed = async () => {
      const input = context.input('stdin');
      try {
        for (let chunk = await input.next(); chunk !== undefined; chunk = await input.next()) {
          if (chunk.isNull) continue;
          if (!child.stdin.write(bytesOfChunk(chunk))) await new Promise((resolve) => child.stdin.once('drain', resolve));
        }
      } catch {
        // A program that stops reading early is not an error.
      } finally {
        child.stdin.end();
      }
    };
    child.stdin.on('error', () => {});

    try {
      await outputs.only('pid', child.pid ?? 0);
      await outputs.only('sandbox', 'none: this host checks what a flow may run against its policy, and does not confine the program');
      const [, , , ended] = await Promise.all([pump(child.stdout, 'stdout', 'stdout_lines'), pump(child.stderr, 'stderr', 'stderr_lines'), feed(), exited]);
      if (overflow) throw overflow;
      if (stop.failure) throw stop.failure;
      stop.check();
      const signalNumber = ended.signal ? (osConstants.signals[ended.signal] ?? 0) : 0;
      await outputs.only('exit_code', ended.code ?? 128 + signalNumber);
      await outputs.only('signal', ended.signal ?? null);
      await outputs.only('usage', { user_ms: null, system_ms: null, max_rss_bytes: null, output_bytes: outputBytes });
      outputs.finish();
    } catch (error) {
      windDown();
      outputs.abort(Status.fromError(error));
      throw error;
    }
  };
}

export function processActions(policy: FlowPolicy): Registration[] {
  return [{ schema: spawnProcessSchema, handler: spawnProcess(policy) }];
}
