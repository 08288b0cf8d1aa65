/**
 * `read_stdin`, `write_stdout`, `write_stderr`: what makes a flow a filter something else can pipe
 * into and out of. Reading is paced by whoever reads the output, and writing is the backpressure
 * point, so a slow consumer is felt upstream rather than buffered.
 */
import type { Readable, Writable } from 'node:stream';
import type { ActionContext, ActionHandler } from '../../wire/action.js';
import { defineAction, type ActionSchema } from '../../wire/schema.js';
import { Status, StatusCode, StatusError } from '../../wire/status.js';
import { bytesOfChunk, Outputs, readOptions, StopSignal } from './ports.js';
import { CONTROL_PORT, DEADLINE_HEADERS, JSON_TYPE, OCTET_STREAM, OMIT_HELP, type Registration } from './shared.js';

export interface StandardStreams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
}

export const readStdinSchema: ActionSchema = defineAction({
  name: 'read_stdin',
  description:
    "Read this process's standard input, as bytes and as lines. What makes a composition a filter something else can " +
    'pipe into: the reads are paced by whoever is reading the output. `is_tty` is written first, before any waiting, ' +
    'so a composition can tell an interactive run from a piped one.',
  inputs: {
    options: { type: JSON_TYPE, description: `Optional: chunk_bytes (65536), and ${OMIT_HELP}` },
    [CONTROL_PORT]: { type: JSON_TYPE, stream: true, description: 'Control commands; a {"command": "stop"} stops reading.' },
  },
  outputs: {
    bytes: { type: OCTET_STREAM, stream: true, description: 'Standard input, as it arrives.' },
    lines: { type: 'string', stream: true, description: 'Standard input, one value per line, without its line ending.' },
    is_tty: { type: 'bool', description: 'Whether standard input is a terminal, written before any reading.' },
  },
  headers: DEADLINE_HEADERS('Reading ends once it is reached.'),
});

function writeStreamSchema(name: string, which: string, why: string): ActionSchema {
  return defineAction({
    name,
    description:
      `Write a stream to this process's ${which}. ${why} The write is the backpressure point, so whoever is ` +
      'producing the content is held behind the terminal or the pipe rather than buffered ahead of it.',
    inputs: { content: { type: OCTET_STREAM, stream: true, description: 'What to write, in order.' } },
    outputs: { bytes_written: { type: 'integer', description: 'How many bytes were written.' } },
    headers: DEADLINE_HEADERS('The write fails once it is reached.'),
  });
}

export const writeStdoutSchema = writeStreamSchema('write_stdout', 'standard output', 'The other half of what makes a composition a filter.');
export const writeStderrSchema = writeStreamSchema(
  'write_stderr',
  'standard error',
  'Kept apart from standard output for the reason the system keeps them apart: what a composition says about its ' +
    "work should not land in the middle of the work's own output.",
);

/**
 * Decodes what a text port (`lines`, `text`, `stdout_lines`, …) carries, refusing bytes that are
 * not UTF-8 with INVALID_ARGUMENT rather than replacing them with U+FFFD: a line silently changed
 * (a Latin-1 `café` printed back as `caf\uFFFD`) is worse than a run that says the port cannot
 * carry it and names the bytes port that can. The reference refuses such a value the same way.
 */
export class PortTextDecoder {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(
    readonly port: string,
    readonly bytesPort: string,
  ) {}

  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string {
    try {
      return this.#decoder.decode(bytes, options);
    } catch {
      throw new StatusError(
        StatusCode.INVALID_ARGUMENT,
        `the port '${this.port}' holds bytes that are not valid UTF-8, which a text value cannot carry. ` +
          `Read the \`${this.bytesPort}\` port, which is exact by construction, and omit '${this.port}'.`,
      );
    }
  }
}

/** Splits text into lines as it arrives, without their endings (`\r\n` included). */
export class LineSplitter {
  #pending = '';

  push(text: string): string[] {
    const joined = this.#pending + text;
    const lines = joined.split('\n');
    this.#pending = lines.pop()!;
    return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  }

  /** The last line, when it had no newline after it. */
  end(): string[] {
    const last = this.#pending;
    this.#pending = '';
    if (!last) return [];
    return [last.endsWith('\r') ? last.slice(0, -1) : last];
  }
}

function readStdin(streams: StandardStreams): ActionHandler {
  return async (context) => {
    const options = await readOptions(context);
    const chunkBytes = options.intInRange('chunk_bytes', 64 * 1024, 1, 8 * 1024 * 1024);
    const outputs = Outputs.open(context, options);
    const stop = new StopSignal(context, CONTROL_PORT);
    try {
      await outputs.only('is_tty', streams.stdin.isTTY === true);
      const decoder = new PortTextDecoder('lines', 'bytes');
      const lines = new LineSplitter();
      const pieces = streams.stdin[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
      const stopped = stop.whenStopped().then(() => 'stop' as const);
      for (;;) {
        const next = await Promise.race([pieces.next(), stopped]);
        if (next === 'stop') {
          void pieces.return?.();
          break;
        }
        if (next.done) break;
        const piece = next.value;
        const whole = typeof piece === 'string' ? new TextEncoder().encode(piece) : new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength);
        for (let at = 0; at < whole.length; at += chunkBytes) {
          const bytes = whole.subarray(at, at + chunkBytes);
          if (outputs.wants('bytes')) await outputs.bytes('bytes', bytes.slice());
          if (outputs.wants('lines')) {
            for (const line of lines.push(decoder.decode(bytes, { stream: true }))) await outputs.text('lines', line);
          }
        }
      }
      if (outputs.wants('lines')) {
        for (const line of lines.push(decoder.decode())) await outputs.text('lines', line);
        for (const line of lines.end()) await outputs.text('lines', line);
      }
      if (stop.failure) throw stop.failure;
      outputs.finish();
    } catch (error) {
      const status = Status.fromError(error);
      outputs.abort(status);
      throw error instanceof StatusError ? error : new StatusError(StatusCode.UNAVAILABLE, `cannot read standard input: ${status.message}`);
    }
  };
}

function writeStream(stream: () => Writable, which: string): ActionHandler {
  return async (context: ActionContext) => {
    const outputs = Outputs.open(context);
    const content = context.input('content');
    const target = stream();
    let written = 0;
    const write = (bytes: Uint8Array): Promise<void> | void => {
      if (bytes.length === 0) return;
      written += bytes.length;
      if (target.write(bytes)) return;
      return new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          target.off('drain', onDrain);
          target.off('error', done);
          if (error) reject(new StatusError(StatusCode.UNAVAILABLE, `cannot write to ${which}: ${error.message}`));
          else resolve();
        };
        const onDrain = () => done();
        target.once('drain', onDrain);
        target.once('error', done);
      });
    };
    try {
      for (;;) {
        if (context.signal.aborted) break;
        // Everything already there in one write: a syscall per line would be most of what a line costs.
        let batch = content.poll(256);
        if (batch === undefined) break;
        if (batch.length === 0) {
          const one = await content.next();
          if (one === undefined) break;
          batch = [one, ...(content.poll(255) ?? [])];
        }
        const pieces = batch.filter((chunk) => !chunk.isNull).map(bytesOfChunk);
        const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
        const joined = pieces.length === 1 ? pieces[0]! : new Uint8Array(total);
        if (pieces.length > 1) {
          let at = 0;
          for (const piece of pieces) {
            joined.set(piece, at);
            at += piece.length;
          }
        }
        await write(joined);
      }
      await outputs.only('bytes_written', written);
      outputs.finish();
    } catch (error) {
      outputs.abort(Status.fromError(error));
      throw error;
    }
  };
}

export function standardStreamActions(streams: StandardStreams): Registration[] {
  return [
    { schema: readStdinSchema, handler: readStdin(streams) },
    { schema: writeStdoutSchema, handler: writeStream(() => streams.stdout, 'standard output') },
    { schema: writeStderrSchema, handler: writeStream(() => streams.stderr, 'standard error') },
  ];
}
