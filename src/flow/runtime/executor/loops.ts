/**
 * `for` and `repeat`: a body run once per value (or per pass), each pass a scope of its own with
 * its value, its index and — for `repeat` — its carry preset. `until`/`while` is asked at the tail
 * of a pass, of the values the pass captured; an `until` on a `for` stops reading the stream
 * (without cancelling whatever produces it), as `| first n` does.
 */
import type { ForStep, RefId, RepeatStep } from '../../program.js';
import { evaluate } from '../evaluate.js';
import { Condition, waitUntil } from '../stream/monitor.js';
import { isPromise } from '../stream/reader.js';
import type { Item } from '../values/chunks.js';
import { truthy } from '../values/compare.js';
import { constantValue } from '../values/constants.js';
import type { Value } from '../values/value.js';
import { runBody } from './body.js';
import { Scope } from './scope.js';

/** Whether a pass's `until`/`while` says to stop. */
function shouldStop(scope: Scope, step: ForStep | RepeatStep, pass: Scope): boolean {
  if (!step.condition) return false;
  const context = scope.context(null);
  const holds = truthy(
    evaluate(step.condition, {
      ...context,
      ref: (ref: RefId) => pass.captures.get(`condition:${ref}`) ?? null,
    }),
  );
  return holds === step.stopWhen;
}

function presets(entries: [RefId | null, Item][]): Map<RefId, Item[]> {
  const map = new Map<RefId, Item[]>();
  for (const [ref, item] of entries) if (ref !== null) map.set(ref, [item]);
  return map;
}

export async function runFor(scope: Scope, step: ForStep): Promise<void> {
  const reader = await scope.subscribe(step.source);
  const width = Math.max(step.parallel, 1);
  let index = 0;
  if (width === 1) {
    for (;;) {
      let batch = reader.read(1);
      if (isPromise(batch)) batch = await batch;
      if (batch === null) return;
      const pass = new Scope(scope.runner, step.inner, scope, presets([[step.item, batch[0]!], [step.index, index++]]));
      await runBody(pass);
      if (shouldStop(scope, step, pass)) {
        reader.stop();
        return;
      }
    }
  }
  // `parallel n`: n passes at once, admitted before each starts so a long stream does not become
  // a pile of pending passes.
  const slots = new Condition(scope.monitor);
  let running = 0;
  let failure: unknown;
  const passes: Promise<void>[] = [];
  for (;;) {
    await waitUntil(slots, () => running < width || failure !== undefined);
    if (failure !== undefined) break;
    let batch = reader.read(1);
    if (isPromise(batch)) batch = await batch;
    if (batch === null) break;
    running++;
    const pass = new Scope(scope.runner, step.inner, scope, presets([[step.item, batch[0]!], [step.index, index++]]));
    passes.push(
      runBody(pass)
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => {
          running--;
          slots.notify();
        }),
    );
  }
  await Promise.all(passes);
  if (failure !== undefined) throw failure;
}

export async function runRepeat(scope: Scope, step: RepeatStep): Promise<void> {
  let carried: Value = step.start ? constantValue(step.start) : null;
  for (let index = 0; step.max === null || index < step.max; index++) {
    const pass = new Scope(scope.runner, step.inner, scope, presets([[step.carry, carried], [step.index, index]]));
    await runBody(pass);
    if (shouldStop(scope, step, pass)) return;
    if (step.carrySource !== null) carried = pass.captures.get('carry') ?? null;
  }
}
