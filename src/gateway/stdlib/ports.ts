/**
 * The ports of a standard-library action: reading an input as the value its writer meant, writing
 * outputs in the run's encoding, and ending every declared output exactly once — a port nobody
 * wrote still has to end, or its reader waits for ever. A port named in `options.omit` is closed
 * up front, so asking for three ports of eight does not mean draining the other five.
 */
import type { ActionContext } from '../../wire/action.js';
import { Chunk } from '../../wire/chunk.js';
import { Media } from '../../wire/media.js';
import { StatusCode, StatusError, type Status } from '../../wire/status.js';
import { Options } from './options.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function baseOf(mimetype: string): string {
  return (mimetype.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The value a unary input carries: JSON and MessagePack decoded, text or bytes as a string (so a
 * path works whether its writer sent text or JSON); undefined when the port carried nothing.
 */
export async function readValue(context: ActionContext, port: string): Promise<unknown> {
  const chunk = await context.input(port).next();
  if (chunk === undefined || chunk.isNull) return undefined;
  const base = baseOf(chunk.mimetype);
  if (base === Media.json || base === Media.msgpack) {
    try {
      return chunk.value;
    } catch {
      throw new StatusError(StatusCode.INVALID_ARGUMENT, `Input '${port}' of ${context.name} is labelled ${base} and is not.`);
    }
  }
  const value = chunk.value;
  return typeof value === 'string' ? value : decoder.decode(chunk.bytes);
}

/** A unary input as text: a string as itself, anything else as its JSON; undefined for nothing. */
export async function readText(context: ActionContext, port: string): Promise<string | undefined> {
  const value = await readValue(context, port);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return decoder.decode(value);
  return JSON.stringify(value);
}

export async function readRequiredText(context: ActionContext, port: string): Promise<string> {
  const value = await readText(context, port);
  if (!value) throw new StatusError(StatusCode.INVALID_ARGUMENT, `${context.name} requires ${port}`);
  return value;
}

export async function readOptions(context: ActionContext): Promise<Options> {
  return Options.parse(await readValue(context, 'options'));
}

/**
 * The bytes a chunk means, for a port that carries bytes: a JSON or MessagePack string is its
 * characters (a flow writes a string as JSON whatever the port says), other JSON is its JSON
 * text, packed binary is its bytes, and anything else is its payload untouched.
 */
export function bytesOfChunk(chunk: Chunk): Uint8Array {
  const base = baseOf(chunk.mimetype);
  if (base === Media.json) {
    let value: unknown;
    try {
      value = chunk.value;
    } catch {
      return chunk.bytes;
    }
    return typeof value === 'string' ? encoder.encode(value) : chunk.bytes;
  }
  if (base === Media.msgpack) {
    let value: unknown;
    try {
      value = chunk.value;
    } catch {
      return chunk.bytes;
    }
    if (typeof value === 'string') return encoder.encode(value);
    if (value instanceof Uint8Array) return value;
    return chunk.bytes;
  }
  if (base.startsWith('text/')) {
    const value = chunk.value;
    return typeof value === 'string' ? encoder.encode(value) : chunk.bytes;
  }
  return chunk.bytes;
}

export type Encoding = 'json' | 'msgpack';

export function encodingOf(options: Options): Encoding {
  const name = options.oneOf('encoding', 'json', ['json', 'msgpack', 'packb']);
  return name === 'json' ? 'json' : 'msgpack';
}

/** The output ports of one run: resolved once, the omitted ones closed now, every one ended once. */
export class Outputs {
  readonly #closed = new Set<string>();
  readonly #final = new Set<string>();

  private constructor(
    private readonly context: ActionContext,
    readonly encoding: Encoding,
  ) {}

  /** Opens the outputs by `options` (its `omit` and `encoding`); a misspelt omission is refused. */
  static open(context: ActionContext, options: Options = Options.parse(undefined)): Outputs {
    const omitted = options.omit();
    const names = context.schema.outputs.map((port) => port.name);
    for (const name of omitted) {
      if (!names.includes(name)) {
        throw new StatusError(StatusCode.INVALID_ARGUMENT, `options.omit names '${name}', which is not an output of ${context.name}`);
      }
    }
    const outputs = new Outputs(context, encodingOf(options));
    for (const name of omitted) outputs.close(name);
    return outputs;
  }

  /** Whether anything will read what is written to `port` (it was not omitted or closed). */
  wants(port: string): boolean {
    return !this.#closed.has(port);
  }

  #put(port: string, chunk: Chunk, final: boolean): Promise<void> | void {
    if (this.#closed.has(port)) return;
    const node = this.context.output(port);
    if (final) this.#final.add(port);
    // Without a wait while there is room: an await per line would be most of what a line costs.
    if (node.backlog < node.capacity && !node.isClosed) node.push(chunk, { final });
    else return node.put(chunk, { final });
  }

  /** One structured value, in this run's encoding. */
  value(port: string, value: unknown, final = false): Promise<void> | void {
    const chunk = this.encoding === 'msgpack' ? Chunk.msgpack(value) : Chunk.json(value);
    return this.#put(port, chunk, final);
  }

  /** One text value (JSON text, or a MessagePack string). */
  text(port: string, text: string, final = false): Promise<void> | void {
    return this.value(port, text, final);
  }

  /** Opaque bytes, untouched by the encoding. */
  bytes(port: string, bytes: Uint8Array, final = false): Promise<void> | void {
    return this.#put(port, Chunk.bytes(bytes), final);
  }

  /** A unary port's only value, and its end. */
  async only(port: string, value: unknown): Promise<void> {
    await this.value(port, value, true);
    this.close(port);
  }

  /** Ends one port now (idempotent). */
  close(port: string): void {
    if (this.#closed.has(port)) return;
    this.#closed.add(port);
    this.context.output(port).close();
  }

  /** Ends every port still open. */
  finish(): void {
    for (const port of this.context.schema.outputs) this.close(port.name);
  }

  /** Ends every port still open with `reason` (a port whose value was final closes normally). */
  abort(reason: Status): void {
    for (const port of this.context.schema.outputs) {
      if (this.#closed.has(port.name)) continue;
      this.#closed.add(port.name);
      const node = this.context.output(port.name);
      if (this.#final.has(port.name)) node.close();
      else node.abort(reason);
    }
  }
}

/** Whether a control command asks the action to stop: `"stop"` or `{"command": "stop"}`. */
export function isStopCommand(command: unknown): boolean {
  if (command === 'stop') return true;
  return typeof command === 'object' && command !== null && (command as { command?: unknown }).command === 'stop';
}

/**
 * A `{"command": "stop"}` on the control port, watched while the action runs. A source treats it
 * as its stream having ended: its ports close normally and the run is a success. Cancellation and
 * the deadline arrive on the action's own signal (the handler runner enforces both).
 */
export class StopSignal {
  #stopped = false;
  readonly #waiters = new Set<() => void>();
  readonly #reading: Promise<void> | undefined;

  constructor(
    private readonly context: ActionContext,
    controlPort?: string,
    onCommand?: (command: unknown) => Promise<void> | void,
  ) {
    context.signal.addEventListener('abort', () => this.#stop(), { once: true });
    if (controlPort) this.#reading = this.#watch(controlPort, onCommand);
  }

  get stopped(): boolean {
    return this.#stopped || this.context.signal.aborted;
  }

  async #watch(port: string, onCommand?: (command: unknown) => Promise<void> | void): Promise<void> {
    const reader = this.context.input(port);
    try {
      for (let chunk = await reader.next(); chunk !== undefined; chunk = await reader.next()) {
        if (chunk.isNull) continue;
        const command = chunk.value;
        if (isStopCommand(command)) {
          this.#stop();
          return;
        }
        if (!onCommand) {
          throw new StatusError(
            StatusCode.INVALID_ARGUMENT,
            `${this.context.name} takes {"command": "stop"} on ${port}, and got ${JSON.stringify(command)}`,
          );
        }
        await onCommand(command);
      }
    } catch (error) {
      if (!this.context.signal.aborted) this.#failure = error;
      this.#stop();
    }
  }

  #failure: unknown;

  /** A control command that could not be carried out, as the action's failure. */
  get failure(): unknown {
    return this.#failure;
  }

  #stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  /** Sleeps `ms`, waking the moment a stop is asked for; true when it should stop. */
  waitFor(ms: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.#waiters.delete(wake);
          resolve(this.stopped);
        },
        Math.max(0, Math.min(ms, 2 ** 31 - 1)),
      );
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.#waiters.add(wake);
    });
  }

  /** Resolves when a stop is asked for. */
  whenStopped(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.add(resolve));
  }

  /** Throws when the action has been cancelled or its deadline has passed (the one-answer actions). */
  check(): void {
    if (this.context.signal.aborted) {
      const reason = this.context.signal.reason;
      if (reason instanceof StatusError) throw reason;
      throw new StatusError(StatusCode.CANCELLED, `${this.context.name} was cancelled.`);
    }
  }
}
