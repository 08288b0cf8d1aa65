/**
 * What a stage needs from the run it is part of: reading values out of items, evaluating its
 * expression with `it` bound, another stream (for `then`), the log, the clock, and somewhere to
 * put a value it was told to tolerate.
 */
import type { StatusError } from '../../../wire/status.js';
import type { Expr, LogSpec, RefId, StageOp } from '../../program.js';
import type { Monitor } from '../stream/monitor.js';
import type { Maybe, Reader } from '../stream/reader.js';
import type { Item } from '../values/chunks.js';
import type { Value } from '../values/value.js';

export interface StageEnv {
  readonly monitor: Monitor;
  /** How a reader would write the stream this stage makes: `hits | try map Hit{…}`. */
  readonly label: string;
  /** The same for the stream it reads (for `| timeout`'s message). */
  readonly sourceLabel: string;
  /** The value an item holds (a carried chunk decoded with the run's host types). */
  value(item: Item): Value;
  /** `expr` with `it` bound; may wait for a stream the expression reads. */
  evaluate(expr: Expr, it: Value): Maybe<Value>;
  /** A fold's expression: `it` bound and the accumulator's ref reading `carried`. */
  evaluateFold(expr: Expr, carry: RefId, carried: Value, it: Value): Maybe<Value>;
  /** Another stream of the body, for `then`. */
  subscribe(ref: RefId): Maybe<Reader>;
  /** A `log`/`logf` of one item going past. */
  log(spec: LogSpec, item: Item): Maybe<void>;
  /**
   * A value a `try` stage could not do: its status record goes to the `into` stream, or — with
   * none — a warning is logged. `parallel` selects the parallel path's wording.
   */
  tolerate(item: Item, why: StatusError, parallel: boolean): Maybe<void>;
  /** The chunk a value travels as when re-encoded (`| packb`). */
  packb(value: Value): Item;
}

/** A stage of the program that takes `T` after its name. */
export type StageOf<T extends StageOp['takes']> = StageOp & { readonly takes: T };
