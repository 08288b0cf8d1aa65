/**
 * What a Flow value is, in this runtime.
 *
 * Values are plain JavaScript wherever plain JavaScript can say it, so an action handler, a JSON
 * encoder or a test reads them without a conversion layer:
 *
 * | kind       | represented as                                                              |
 * |------------|-----------------------------------------------------------------------------|
 * | `null`     | `null` (an `undefined` that slipped in reads as null)                        |
 * | `bool`     | `boolean`                                                                   |
 * | `integer`  | a `number` that is a whole number                                            |
 * | `double`   | a `number` that is not whole, or a {@link Real} holding a whole one (`2.0`) |
 * | `string`   | `string`                                                                    |
 * | `bytes`    | `Uint8Array`                                                                |
 * | `list`     | an array of values                                                          |
 * | `object`   | a plain object (a record) of values                                         |
 * | `duration` | {@link Duration}                                                            |
 * | `time`     | {@link Instant}                                                             |
 * | `chunk`    | {@link ChunkValue}: a content chunk the flow has not opened                 |
 * | `host`     | {@link HostValue}: a value of a type only the host knows (a registered tag) |
 *
 * Integers and doubles are told apart because the language's text depends on it (`text(3)` is
 * `"3"`, `text(3.0)` is `"3.0"`, as the reference renders them). Only a whole-number double needs a
 * box; every other number says what it is by itself.
 */
import type { Chunk } from '../../../wire/chunk.js';

/**
 * How a duration, an instant or a chunk renders itself when something outside the runtime
 * serializes it (`JSON.stringify` on the wire): its text. Installed by `convert.ts`, which owns
 * the text of every kind; a hook rather than an import because that module depends on this one.
 */
let renderText: (value: Value) => string = () => '';

export function installTextRenderer(render: (value: Value) => string): void {
  renderText = render;
}

/** A whole-number double: `2.0`, the mean of `[1, 3]`. Fractional doubles are plain numbers. */
export class Real {
  constructor(readonly value: number) {}

  valueOf(): number {
    return this.value;
  }

  toJSON(): number {
    return this.value;
  }
}

/** A length of time, in nanoseconds; `±Infinity` is the infinite duration (`forever`). */
export class Duration {
  constructor(readonly nanos: number) {}

  static seconds(seconds: number): Duration {
    return new Duration(Number.isFinite(seconds) ? Math.round(seconds * 1e9) : seconds);
  }

  get seconds(): number {
    return this.nanos / 1e9;
  }

  get isInfinite(): boolean {
    return !Number.isFinite(this.nanos);
  }

  toJSON(): string {
    return renderText(this);
  }
}

/** An instant, in nanoseconds since the Unix epoch (UTC). */
export class Instant {
  constructor(readonly nanos: bigint) {}

  static fromMillis(ms: number): Instant {
    return new Instant(BigInt(Math.trunc(ms)) * 1_000_000n + BigInt(Math.round((ms % 1) * 1e6)));
  }

  static fromSeconds(seconds: number): Instant {
    const whole = Math.floor(seconds);
    return new Instant(BigInt(whole) * 1_000_000_000n + BigInt(Math.round((seconds - whole) * 1e9)));
  }

  get epochSeconds(): number {
    return Number(this.nanos) / 1e9;
  }

  toJSON(): string {
    return renderText(this);
  }
}

/** A content chunk held as a value (`to_chunk(…)`), kept whole until something opens it. */
export class ChunkValue {
  constructor(readonly chunk: Chunk) {}

  toJSON(): string {
    return renderText(this);
  }
}

/**
 * A value of a type only the host knows: a registered tag such as `a11.sdk.Interaction`. The
 * language only ever asks it what an expression can ask: render it, read a field or an element,
 * compare it, and whether it counts as true.
 */
export abstract class HostValue {
  /** The tag the host knows the type by. */
  abstract readonly tag: string;
  /** What `text(…)` gives: the value as it travels, not a description of it. */
  abstract text(): string;
  abstract truthy(): boolean;
  /** How many things it holds, where that means anything. */
  abstract size(): number | undefined;
  /** `value.name`; null when there is no such field. */
  abstract field(name: string): Value;
  /** `value[key]`. */
  abstract element(key: Value): Value;
  abstract equals(other: HostValue): boolean;
  /** The chunk that carries it to an action (its tagged media type and payload). */
  abstract toChunk(): Chunk;
}

export interface FlowRecord {
  readonly [key: string]: Value;
}

export type Value =
  | null
  | boolean
  | number
  | Real
  | string
  | Uint8Array
  | readonly Value[]
  | FlowRecord
  | Duration
  | Instant
  | ChunkValue
  | HostValue;

export type Kind =
  | 'null'
  | 'bool'
  | 'integer'
  | 'double'
  | 'string'
  | 'bytes'
  | 'list'
  | 'object'
  | 'duration'
  | 'time'
  | 'chunk'
  | 'host';

/** The kind of a value. Anything that is not one of the classes above is a record. */
export function kindOf(value: Value | undefined): Kind {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'double';
    case 'string':
      return 'string';
    case 'bigint':
      return 'integer';
    default:
      break;
  }
  if (Array.isArray(value)) return 'list';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof Real) return 'double';
  if (value instanceof Duration) return 'duration';
  if (value instanceof Instant) return 'time';
  if (value instanceof ChunkValue) return 'chunk';
  if (value instanceof HostValue) return 'host';
  return 'object';
}

/** A double: a box for a whole number, the number itself otherwise. */
export function double(value: number): number | Real {
  return Number.isInteger(value) ? new Real(value) : value;
}

/** Whether a value compares and adds as a number: a number or a bool. */
export function countsAsNumber(value: Value): value is number | Real | boolean {
  return typeof value === 'number' || typeof value === 'boolean' || value instanceof Real;
}

export function isRecord(value: Value): value is FlowRecord {
  return kindOf(value) === 'object';
}

/** A fresh record with no prototype, so a key like `__proto__` is an ordinary key. */
export function newRecord(): Record<string, Value> {
  return Object.create(null) as Record<string, Value>;
}
