/**
 * Running a stage that reshapes or judges each value on its own — a batch in, a batch out — with
 * `try` (a value it cannot do is tolerated, not fatal) and `parallel N` (several values in hand;
 * the output put back in the order read unless `unordered`).
 */
import type { StageOp } from '../../program.js';
import { asStatusError } from '../stream/bus.js';
import { Condition, waitUntil } from '../stream/monitor.js';
import { isPromise, QUEUE_DEPTH, type Maybe, type Reader, type Sink } from '../stream/reader.js';
import type { Item } from '../values/chunks.js';
import type { StageEnv } from './env.js';

/** What a per-value stage does with one item: push what it makes of it onto `out`. */
export type PerValue = (item: Item, out: Item[]) => Maybe<void>;

export async function perValue(op: StageOp, source: Reader, sink: Sink, env: StageEnv, body: PerValue): Promise<void> {
  if (op.parallel > 1) return inParallel(op, source, sink, env, body);
  for (;;) {
    let batch = source.read(QUEUE_DEPTH);
    if (isPromise(batch)) batch = await batch;
    if (batch === null) return;
    let out: Item[] = [];
    for (const item of batch) {
      try {
        const done = body(item, out);
        if (isPromise(done)) await done;
      } catch (error) {
        const why = asStatusError(error);
        if (!op.tolerant || env.monitor.stopped) {
          // What was made before the failure still goes on, then the failure.
          try {
            await sink.write(out);
          } catch {
            // The failure below is the one that matters.
          }
          throw why;
        }
        if (out.length) await sink.write(out);
        out = [];
        await env.tolerate(item, why, false);
      }
    }
    if (out.length) {
      const written = sink.write(out);
      if (isPromise(written)) await written;
    }
  }
}

/**
 * `parallel N`: N workers take turns at the reader, work on their values at once, and — unless
 * `unordered` — publish in the order the values were read.
 */
async function inParallel(op: StageOp, source: Reader, sink: Sink, env: StageEnv, body: PerValue): Promise<void> {
  const turn = new Condition(env.monitor);
  let taking = false;
  let ended = false;
  let reading = 0;
  let publishing = 0;
  let failure: unknown;

  const worker = async (): Promise<void> => {
    for (;;) {
      await waitUntil(turn, () => !taking || ended || failure !== undefined);
      if (ended || failure !== undefined) return;
      taking = true;
      let item: Item | undefined;
      let index = 0;
      try {
        let batch = source.read(1);
        if (isPromise(batch)) batch = await batch;
        if (batch === null) ended = true;
        else {
          item = batch[0];
          index = reading++;
        }
      } catch (error) {
        failure ??= error;
        ended = true;
      }
      taking = false;
      turn.notify();
      if (item === undefined) return;

      const out: Item[] = [];
      let ran: unknown;
      try {
        const done = body(item, out);
        if (isPromise(done)) await done;
      } catch (error) {
        ran = error;
      }
      if (op.ordered) await waitUntil(turn, () => publishing === index || failure !== undefined);
      if (failure !== undefined) return;
      try {
        if (ran === undefined) await sink.write(out);
        else if (op.tolerant && !env.monitor.stopped) await env.tolerate(item, asStatusError(ran), true);
        else throw ran;
      } catch (error) {
        failure ??= error;
        ended = true;
      }
      if (op.ordered) publishing++;
      turn.notify();
    }
  };

  await Promise.all(Array.from({ length: op.parallel }, worker));
  if (failure !== undefined) throw asStatusError(failure);
}
