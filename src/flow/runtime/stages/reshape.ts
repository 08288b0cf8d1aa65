/**
 * The stages that look at each value on its own: `at` (what `x.field` over a stream becomes),
 * `map`, `where`, `match`, `flatten`, `truncate`, `mime`, `drop`, `log`/`logf`, `pace` and the
 * forwarding half of `then`. All run through {@link perValue}, so all take `try` and `parallel`.
 */
import type { StageOp } from '../../program.js';
import { sleep } from '../stream/monitor.js';
import { isPromise, type Reader, type Sink } from '../stream/reader.js';
import { lookup, truncate } from '../values/access.js';
import { itemMimetype, type Item } from '../values/chunks.js';
import { truthy } from '../values/compare.js';
import { asText } from '../values/convert.js';
import { matchValue, patternFor } from '../values/pattern-value.js';
import type { Value } from '../values/value.js';
import type { StageEnv, StageOf } from './env.js';
import { perValue, type PerValue } from './per-value.js';

type Op<T extends StageOp['takes']> = StageOf<T>;

/** Whether a media type matches a pattern whose `*` spans any characters (`text/*`). */
export function mimeMatches(mimetype: string, pattern: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return mimetype === pattern;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!mimetype.startsWith(first) || !mimetype.endsWith(last)) return false;
  let at = first.length;
  const limit = mimetype.length - last.length;
  if (at > limit) return false;
  for (const part of parts.slice(1, -1)) {
    if (!part) continue;
    const found = mimetype.indexOf(part, at);
    if (found < 0 || found + part.length > limit) return false;
    at = found + part.length;
  }
  return true;
}

function mapped(out: Item[], value: Value | Promise<Value>): void | Promise<void> {
  if (isPromise(value)) return value.then((done) => void out.push(done));
  out.push(value);
}

export function runAt(op: Op<'at'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const key: Value = op.index !== null && !op.namedOrIndexed ? op.index : op.field;
  const position = op.index;
  const body: PerValue = (item, out) => {
    const value = env.value(item);
    let found = lookup(value, key);
    if (found === null && op.namedOrIndexed && position !== null) found = lookup(value, position);
    out.push(found);
  };
  return perValue(op, source, sink, env, body);
}

export function runMap(op: Op<'expr'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const expr = op.expr;
  return perValue(op, source, sink, env, (item, out) => mapped(out, expr ? env.evaluate(expr, env.value(item)) : env.value(item)));
}

export function runWhere(op: Op<'expr'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const expr = op.expr;
  return perValue(op, source, sink, env, (item, out) => {
    if (!expr) return;
    const kept = env.evaluate(expr, env.value(item));
    if (isPromise(kept)) return kept.then((done) => void (truthy(done) && out.push(item)));
    if (truthy(kept)) out.push(item);
  });
}

export function runLog(op: Op<'log' | 'logf'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  // Shaped like `where`: the value is read so the log can say something about it, then goes on
  // as the item it was, so a log in a pipeline changes nothing about what comes out of it.
  return perValue(op, source, sink, env, (item, out) => {
    const logged = env.log(op.log, item);
    if (isPromise(logged)) return logged.then(() => void out.push(item));
    out.push(item);
  });
}

export function runMatch(op: Op<'string'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const pattern = patternFor(op.text ?? '');
  return perValue(op, source, sink, env, (item, out) => {
    const found = matchValue(pattern, asText(env.value(item)));
    if (found !== null) out.push(found);
  });
}

export function runFlatten(op: StageOp, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  return perValue(op, source, sink, env, (item, out) => {
    const value = env.value(item);
    if (!Array.isArray(value)) out.push(item);
    else for (const held of value as readonly Value[]) out.push(held);
  });
}

export function runTruncate(op: Op<'number'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  return perValue(op, source, sink, env, (item, out) => void out.push(truncate(env.value(item), op.count)));
}

export function runMime(op: Op<'string'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const pattern = op.text ?? '*';
  return perValue(op, source, sink, env, (item, out) => {
    if (mimeMatches(itemMimetype(item), pattern)) out.push(item);
  });
}

export function runDrop(op: Op<'number'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  let seen = 0;
  return perValue(op, source, sink, env, (item, out) => {
    if (++seen > op.count) out.push(item);
  });
}

/** Spaced out, not sampled: every value goes on, no sooner than `seconds` after the last. */
export function runPace(op: Op<'duration'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const gap = op.seconds * 1000;
  let next = -Infinity;
  return perValue(op, source, sink, env, async (item, out) => {
    const now = Date.now();
    if (now < next) await sleep(env.monitor, next - now);
    next = Math.max(now, next) + gap;
    out.push(item);
    // One at a time: a batch published together would not be spaced at all.
    await sink.write(out.splice(0));
  });
}

/** All of this stream, then all of another: how a flow says which comes first. */
export async function runThen(op: Op<'stream'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const forward: PerValue = (item, out) => void out.push(item);
  await perValue(op, source, sink, env, forward);
  let next = env.subscribe(op.stream);
  if (isPromise(next)) next = await next;
  await perValue(op, next, sink, env, forward);
}
