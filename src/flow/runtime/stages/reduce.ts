/**
 * The stages that read a whole stream into one value — `collect`, `count`, `sum`, `avg`, `min`,
 * `max`, `fold`, `join` — and `scan`, which is `fold` publishing every state it passes through.
 * The empty cases are deliberate: `sum` of nothing is 0, while `min`, `max` and `avg` of nothing
 * yield nothing, and a `scan` of nothing yields nothing (a `fold` yields its start).
 */
import type { StageOp } from '../../program.js';
import { isPromise, type Reader, type Sink } from '../stream/reader.js';
import { add, divide } from '../values/arithmetic.js';
import type { Item } from '../values/chunks.js';
import { order } from '../values/compare.js';
import { constantValue } from '../values/constants.js';
import { asText } from '../values/convert.js';
import type { Value } from '../values/value.js';
import { eachItem, emit, transformBatches } from './each.js';
import type { StageEnv, StageOf } from './env.js';
import { stageValue } from './gather.js';

type Op<T extends StageOp['takes']> = StageOf<T>;

export async function runCollect(op: StageOp, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const collected: Value[] = [];
  await eachItem(source, (item) => void collected.push(env.value(item)));
  await emit(sink, collected);
}

export async function runCount(op: StageOp, source: Reader, sink: Sink): Promise<void> {
  let total = 0;
  for (;;) {
    let batch = source.read(64);
    if (isPromise(batch)) batch = await batch;
    if (batch === null) break;
    total += batch.length;
  }
  await emit(sink, total);
}

/** `sum` and `avg`: added the way `+` adds, so durations total to a duration. */
export async function runSum(op: Op<'expr?'>, source: Reader, sink: Sink, env: StageEnv, mean: boolean): Promise<void> {
  let total: Value = 0;
  let seen = 0;
  await eachItem(source, async (item) => {
    let value = stageValue(env, op.expr, item);
    if (isPromise(value)) value = await value;
    total = add(total, value);
    seen++;
  });
  if (!mean) return emit(sink, total);
  if (seen === 0) return;
  await emit(sink, divide(total, seen));
}

export async function runExtreme(op: Op<'expr?'>, source: Reader, sink: Sink, env: StageEnv, wanted: -1 | 1): Promise<void> {
  let best: { value: Value; item: Item } | undefined;
  await eachItem(source, async (item) => {
    let value = stageValue(env, op.expr, item);
    if (isPromise(value)) value = await value;
    if (!best || order(value, best.value) === wanted) best = { value, item };
  });
  if (!best) return;
  // The item as it arrived where the values themselves were compared, so a pipe that only moves
  // them re-writes the producer's own chunk; the computed value where an expression chose it.
  await emit(sink, op.expr ? best.value : best.item);
}

function foldStep(op: Op<'fold'>, env: StageEnv, carried: Value, item: Item): Value | Promise<Value> {
  return op.expr ? env.evaluateFold(op.expr, op.carry, carried, env.value(item)) : carried;
}

export async function runFold(op: Op<'fold'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  let carried = constantValue(op.start);
  await eachItem(source, async (item) => {
    const next = foldStep(op, env, carried, item);
    carried = isPromise(next) ? await next : next;
  });
  await emit(sink, carried);
}

export async function runScan(op: Op<'fold'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  let carried = constantValue(op.start);
  await transformBatches(source, sink, (item, out) => {
    const next = foldStep(op, env, carried, item);
    if (isPromise(next)) {
      return next.then((done) => {
        carried = done;
        out.push(done);
      });
    }
    carried = next;
    out.push(next);
  });
}

export async function runJoin(op: Op<'string?'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const pieces: string[] = [];
  await eachItem(source, (item) => void pieces.push(asText(env.value(item))));
  await emit(sink, pieces.join(op.text ?? ''));
}
