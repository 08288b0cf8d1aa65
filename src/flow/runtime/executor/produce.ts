/**
 * Producing a ref's values: what a bus's pump runs. A node or a port is read as it is written; a
 * stage reads its source and reshapes it; a header, an expression or a node's id is one value;
 * `zip` reads its sources in step and `interleave` all at once.
 */
import { Chunk } from '../../../wire/chunk.js';
import { Media } from '../../../wire/media.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { RefId } from '../../program.js';
import type { StageEnv } from '../stages/env.js';
import { runStage } from '../stages/run-stage.js';
import { isPromise, QUEUE_DEPTH, type Maybe, type Reader, type Sink } from '../stream/reader.js';
import { valueToChunk, type Item } from '../values/chunks.js';
import { constantValue } from '../values/constants.js';
import { statusRecord } from '../values/status-record.js';
import type { Value } from '../values/value.js';
import { readNode } from './nodes.js';
import { logItem, tolerateValue } from './outcomes.js';
import type { Scope } from './scope.js';

/** A sink that lets the first `count` values go by: `skip N` taken where the stream is produced. */
function skipping(sink: Sink, count: number): Sink {
  let left = count;
  return {
    write(items) {
      if (left <= 0) return sink.write(items);
      if (items.length <= left) {
        left -= items.length;
        return;
      }
      const rest = items.slice(left);
      left = 0;
      return sink.write(rest);
    },
  };
}

export async function produce(scope: Scope, refId: RefId, target: Sink): Promise<void> {
  const ref = scope.ref(refId);
  const sink = ref.skip > 0 ? skipping(target, ref.skip) : target;
  switch (ref.kind) {
    case 'derived': {
      const source = await scope.subscribe(ref.source);
      return runStage(ref.stage, source, sink, stageEnv(scope, refId));
    }
    case 'zip':
      return produceZip(scope, ref.sources, sink);
    case 'merge':
      return produceMerge(scope, ref.sources, sink);
    case 'expr': {
      const value = await scope.evaluate(ref.expr);
      await sink.write([value]);
      return;
    }
    case 'header': {
      const raw = scope.runner.setup.headers.get(ref.header.toLowerCase());
      if (raw !== undefined) await sink.write([raw]);
      else if (ref.fallback) await sink.write([constantValue(ref.fallback)]);
      return;
    }
    case 'node-id': {
      const node = await scope.localNode(ref.node);
      await sink.write([node.id]);
      return;
    }
    case 'node': {
      const node = await scope.localNode(refId);
      return readNode(node.reader(), sink, scope.monitor, false);
    }
    case 'call-port': {
      const handle = scope.callOf(ref.call);
      const node = await handle.node(ref.name, ref.direction, scope.monitor);
      const step = scope.flow.steps[ref.call]!;
      return readNode(node.reader(), sink, scope.monitor, step.kind === 'call' && step.tolerant);
    }
    case 'flow-port': {
      if (ref.direction !== 'inputs') {
        throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${ref.label} is an output, and outputs are not read.`);
      }
      return readNode(scope.runner.setup.ports.inputReader(ref.name), sink, scope.monitor, false);
    }
    default:
      throw new StatusError(StatusCode.INTERNAL, `Internal flow error: ${ref.label} is not something a flow can read.`);
  }
}

async function nextItem(reader: Reader): Promise<Item | null> {
  let batch = reader.read(1);
  if (isPromise(batch)) batch = await batch;
  return batch === null ? null : batch[0]!;
}

/**
 * Several streams read in step, one list per round. A source that ends well contributes null from
 * then on; one that ends badly ends the zip with its status; it stops when every source has.
 */
async function produceZip(scope: Scope, sources: readonly RefId[], sink: Sink): Promise<void> {
  const readers: Reader[] = [];
  for (const source of sources) readers.push(await scope.subscribe(source));
  const ended = readers.map(() => false);
  let running = readers.length;
  while (running > 0) {
    const tuple: Value[] = [];
    for (let index = 0; index < readers.length; index++) {
      if (ended[index]) {
        tuple.push(null);
        continue;
      }
      let item: Item | null;
      try {
        item = await nextItem(readers[index]!);
      } catch (error) {
        for (const reader of readers) reader.stop();
        throw error;
      }
      if (item === null) {
        ended[index] = true;
        running--;
        tuple.push(null);
        continue;
      }
      tuple.push(scope.value(item));
    }
    // The round the last source ended in is nothing but the nulls saying so: not a value.
    if (running === 0) break;
    await sink.write([tuple]);
  }
}

/** Several streams read at once, each value going on as it arrives. */
async function produceMerge(scope: Scope, sources: readonly RefId[], sink: Sink): Promise<void> {
  const readers: Reader[] = [];
  for (const source of sources) readers.push(await scope.subscribe(source));
  const drain = async (reader: Reader) => {
    for (;;) {
      let batch = reader.read(QUEUE_DEPTH);
      if (isPromise(batch)) batch = await batch;
      if (batch === null) return;
      const written = sink.write(batch);
      if (isPromise(written)) await written;
    }
  };
  const results = await Promise.allSettled(readers.map(drain));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** What a stage of the derived ref `refId` needs from the scope that produces it. */
export function stageEnv(scope: Scope, refId: RefId): StageEnv {
  const ref = scope.ref(refId);
  const sourceLabel = ref.kind === 'derived' ? scope.ref(ref.source).label : ref.label;
  return {
    monitor: scope.monitor,
    label: ref.label,
    sourceLabel,
    value: (item) => scope.value(item),
    evaluate: (expr, it) => scope.evaluate(expr, it),
    evaluateFold: (expr, carry, carried, it) => scope.evaluate(expr, it, new Map([[carry, carried]])),
    subscribe: (stream) => scope.subscribe(stream),
    log: (spec, item) => logItem(scope, spec, item),
    tolerate: (item, why, parallel): Maybe<void> => {
      if (ref.kind !== 'derived' || ref.stage.failures === null) {
        tolerateValue(scope, parallel ? `a value was skipped: ${why.status.message}` : `${ref.label} skipped a value: ${why.status.message}`);
        return;
      }
      return scope.destinationOf(ref.stage.failures).write([statusRecord(why.status)], scope.monitor);
    },
    packb: (value) => valueToChunk(value, Media.msgpack) as Chunk,
  };
}
