/**
 * An action's `options` object, read key by key with messages that say which key, what was
 * expected and what arrived — repairable by whoever wrote the flow, a model included. Absent,
 * null and `{}` are the same: every setting takes its fallback.
 */
import { StatusCode, StatusError } from '../../wire/status.js';
import { parseDuration } from '../../flow/runtime/values/time.js';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'object':
      return 'an object';
    default:
      return 'something else';
  }
}

function invalid(message: string): StatusError {
  return new StatusError(StatusCode.INVALID_ARGUMENT, message);
}

export class Options {
  private constructor(
    private readonly value: Record<string, unknown>,
    private readonly path = 'options',
  ) {}

  /** Wraps what arrived on an `options` port; INVALID_ARGUMENT for anything but an object or nothing. */
  static parse(value: unknown): Options {
    if (value === null || value === undefined) return new Options({});
    if (typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
      throw invalid(`options must be an object, got ${describe(value)}`);
    }
    return new Options(value as Record<string, unknown>);
  }

  has(key: string): boolean {
    return Object.hasOwn(this.value, key) && this.value[key] !== null && this.value[key] !== undefined;
  }

  #wrong(key: string, expected: string): StatusError {
    return invalid(`${this.path}.${key} must be ${expected}, got ${describe(this.value[key])}`);
  }

  bool(key: string, fallback: boolean): boolean {
    if (!this.has(key)) return fallback;
    const value = this.value[key];
    if (typeof value !== 'boolean') throw this.#wrong(key, 'a boolean');
    return value;
  }

  int(key: string, fallback: number): number {
    if (!this.has(key)) return fallback;
    const value = Number(this.value[key]);
    if (typeof this.value[key] !== 'number' && !(this.value[key] instanceof Number)) throw this.#wrong(key, 'an integer');
    if (!Number.isInteger(value)) throw this.#wrong(key, 'an integer');
    return value;
  }

  intInRange(key: string, fallback: number, minimum: number, maximum: number): number {
    const value = this.int(key, fallback);
    if (value < minimum || value > maximum) {
      throw invalid(`${this.path}.${key} must be between ${minimum} and ${maximum}, got ${value}`);
    }
    return value;
  }

  bytes(key: string, fallback: number): number {
    if (!this.has(key)) return fallback;
    const value = this.int(key, 0);
    if (value < 0) throw invalid(`${this.path}.${key} must not be negative, got ${value}`);
    return value;
  }

  string(key: string, fallback: string): string {
    if (!this.has(key)) return fallback;
    const value = this.value[key];
    if (typeof value !== 'string') throw this.#wrong(key, 'a string');
    return value;
  }

  oneOf(key: string, fallback: string, allowed: readonly string[]): string {
    const value = this.string(key, fallback);
    if (!allowed.includes(value)) throw invalid(`${this.path}.${key} must be one of ${allowed.join(', ')}, got '${value}'`);
    return value;
  }

  /** A list of strings; a bare string is a list of one. */
  strings(key: string): string[] {
    if (!this.has(key)) return [];
    const value = this.value[key];
    if (typeof value === 'string') return [value];
    if (!Array.isArray(value)) throw this.#wrong(key, 'a list of strings');
    return value.map((element) => {
      if (typeof element !== 'string') throw invalid(`${this.path}.${key} must hold strings, got ${describe(element)}`);
      return element;
    });
  }

  /** A duration, in milliseconds: `"30s"`, `"1m30s"`, `"250ms"`, or a number of seconds. Never negative. */
  durationMs(key: string, fallbackMs: number): number {
    if (!this.has(key)) return fallbackMs;
    const value = this.value[key];
    const negative = () => invalid(`${this.path}.${key} must not be negative; leave it out to mean no limit`);
    if (typeof value === 'number') {
      if (value < 0) throw negative();
      return value * 1000;
    }
    if (typeof value !== 'string') throw this.#wrong(key, 'a duration');
    const parsed = parseDuration(value);
    if (!parsed) throw invalid(`'${value}' is not a duration; write one as 30s, 250ms, 1m30s, or a number of seconds`);
    if (parsed.nanos < 0) throw negative();
    return parsed.nanos / 1e6;
  }

  object(key: string): Options {
    if (!this.has(key)) return new Options({}, `${this.path}.${key}`);
    const value = this.value[key];
    if (typeof value !== 'object' || Array.isArray(value) || value === null) throw this.#wrong(key, 'an object');
    return new Options(value as Record<string, unknown>, `${this.path}.${key}`);
  }

  /** The `omit` list every action with several outputs accepts. */
  omit(): string[] {
    return this.strings('omit');
  }

  get raw(): Readonly<Record<string, unknown>> {
    return this.value;
  }
}
