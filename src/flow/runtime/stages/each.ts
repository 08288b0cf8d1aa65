/** Reading a stage's source one value at a time (in batches underneath). */
import { isPromise, QUEUE_DEPTH, type Maybe, type Reader, type Sink } from '../stream/reader.js';
import type { Item } from '../values/chunks.js';

/** Calls `body` for every item of `source`, in order, until it ends. */
export async function eachItem(source: Reader, body: (item: Item) => Maybe<void>): Promise<void> {
  for (;;) {
    let batch = source.read(QUEUE_DEPTH);
    if (isPromise(batch)) batch = await batch;
    if (batch === null) return;
    for (const item of batch) {
      const done = body(item);
      if (isPromise(done)) await done;
    }
  }
}

/** Publishes one item. */
export function emit(sink: Sink, item: Item): Maybe<void> {
  return sink.write([item]);
}

/**
 * Calls `step` for every item of `source`, publishing what it pushed onto `out` one batch at a
 * time — one handover per batch rather than per value, which on a moving pipeline is most of
 * what a value would otherwise cost.
 */
export async function transformBatches(
  source: Reader,
  sink: Sink,
  step: (item: Item, out: Item[]) => Maybe<void>,
): Promise<void> {
  for (;;) {
    let batch = source.read(QUEUE_DEPTH);
    if (isPromise(batch)) batch = await batch;
    if (batch === null) return;
    const out: Item[] = [];
    for (const item of batch) {
      const done = step(item, out);
      if (isPromise(done)) await done;
    }
    if (out.length) {
      const written = sink.write(out);
      if (isPromise(written)) await written;
    }
  }
}
