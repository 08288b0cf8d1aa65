/**
 * The stages that choose or gather values by position: `first`, `last`, `batch`, `window`,
 * `group`, `chunk`, `sort`, `distinct`. Each holds at most what its argument says — `window 3`
 * three values, `last 2` two — except `sort`, which has to see the whole stream to know the order.
 */
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { Expr, StageOp } from '../../program.js';
import { isPromise, type Reader, type Sink } from '../stream/reader.js';
import type { Item } from '../values/chunks.js';
import { order, truthy } from '../values/compare.js';
import { asText } from '../values/convert.js';
import type { Value } from '../values/value.js';
import { eachItem, emit, transformBatches } from './each.js';
import type { StageEnv, StageOf } from './env.js';

type Op<T extends StageOp['takes']> = StageOf<T>;

/** The first `count` values; then it stops reading — without cancelling whatever produces them. */
export async function runFirst(op: Op<'number'>, source: Reader, sink: Sink): Promise<void> {
  let left = op.count;
  while (left > 0) {
    let batch = source.read(left);
    if (isPromise(batch)) batch = await batch;
    if (batch === null) return;
    left -= batch.length;
    const written = sink.write(batch);
    if (isPromise(written)) await written;
  }
  source.stop();
}

export async function runLast(op: Op<'number'>, source: Reader, sink: Sink): Promise<void> {
  const tail: Item[] = [];
  await eachItem(source, (item) => {
    tail.push(item);
    if (tail.length > op.count) tail.shift();
  });
  if (tail.length) await sink.write(tail);
}

export async function runBatch(op: Op<'number'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  let group: Value[] = [];
  await transformBatches(source, sink, (item, out) => {
    group.push(env.value(item));
    if (group.length < op.count) return;
    out.push(group);
    group = [];
  });
  if (group.length) await emit(sink, group);
}

/** One list of the last `count` values per value, once `count` have arrived. */
export async function runWindow(op: Op<'number'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  if (op.count <= 0) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `'window ${op.count}' is not a width; a window holds at least one value.`);
  }
  const held: Value[] = [];
  await transformBatches(source, sink, (item, out) => {
    held.push(env.value(item));
    if (held.length < op.count) return;
    if (held.length > op.count) held.shift();
    out.push(held.slice());
  });
}

/** `batch` closed by a question: values gather until the expression holds of the one just added. */
export async function runGroup(op: Op<'expr'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  let gathered: Value[] = [];
  await eachItem(source, async (item) => {
    const value = env.value(item);
    gathered.push(value);
    let closes = op.expr ? env.evaluate(op.expr, value) : true;
    if (isPromise(closes)) closes = await closes;
    if (!truthy(closes)) return;
    const full = gathered;
    gathered = [];
    await emit(sink, full);
  });
  if (gathered.length) await emit(sink, gathered);
}

function cutText(text: string, size: number): string[] {
  // A byte count, but never half a character: back off to the start of the one it would split.
  const pieces: string[] = [];
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  let at = 0;
  while (at < bytes.length) {
    let take = Math.min(size, bytes.length - at);
    while (take > 1 && at + take < bytes.length && (bytes[at + take]! & 0xc0) === 0x80) take--;
    pieces.push(decoder.decode(bytes.subarray(at, at + take)));
    at += take;
  }
  return pieces;
}

/** One text or byte value cut into pieces of at most `count` bytes; anything else goes through. */
export async function runChunk(op: Op<'number'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  if (op.count <= 0) {
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `'chunk ${op.count}' is not a size; a chunk holds at least one byte.`);
  }
  await eachItem(source, async (item) => {
    const value = env.value(item);
    if (typeof value === 'string') {
      for (const piece of cutText(value, op.count)) await emit(sink, piece);
      return;
    }
    if (value instanceof Uint8Array) {
      for (let at = 0; at < value.length; at += op.count) await emit(sink, value.slice(at, at + op.count));
      return;
    }
    await emit(sink, value);
  });
}

/** The value a stage compares or adds: the value itself, or what its expression makes of it. */
export function stageValue(env: StageEnv, expr: Expr | null, item: Item): Value | Promise<Value> {
  const value = env.value(item);
  return expr ? env.evaluate(expr, value) : value;
}

/** The whole stream in order, stably: values that tie keep the order they were written in. */
export async function runSort(op: Op<'sort-key'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const keyed: { key: Value; item: Item }[] = [];
  await eachItem(source, async (item) => {
    let key = stageValue(env, op.by, item);
    if (isPromise(key)) key = await key;
    keyed.push({ key, item });
  });
  keyed.sort((left, right) => (op.descending ? -order(left.key, right.key) : order(left.key, right.key)));
  if (keyed.length) await sink.write(keyed.map((entry) => entry.item));
}

export async function runDistinct(op: StageOp, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const seen = new Set<string>();
  await transformBatches(source, sink, (item, out) => {
    const text = asText(env.value(item));
    if (seen.has(text)) return;
    seen.add(text);
    out.push(item);
  });
}
