/**
 * The stages about how a value is written: `text`, `json` (text read as JSON), `packb` (written as
 * MessagePack — a no-op on a chunk that already is), `strformat` (the one-value shorthand for the
 * builtin) — and `timeout`, the gap a stream may go quiet for.
 */
import { Chunk } from '../../../wire/chunk.js';
import { Media } from '../../../wire/media.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { StageOp } from '../../program.js';
import { isPromise, type Reader, type Sink } from '../stream/reader.js';
import { mimetypeOf } from '../values/chunks.js';
import { asJson, asText } from '../values/convert.js';
import { strformat } from '../values/strformat.js';
import { messageDuration } from './duration-text.js';
import { transformBatches } from './each.js';
import type { StageEnv, StageOf } from './env.js';

type Op<T extends StageOp['takes']> = StageOf<T>;

export function runText(source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  return transformBatches(source, sink, (item, out) => void out.push(asText(env.value(item))));
}

export function runJson(source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  return transformBatches(source, sink, (item, out) => void out.push(asJson(env.value(item))));
}

export function runStrformat(op: Op<'string'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const format = op.text ?? '';
  return transformBatches(source, sink, (item, out) => void out.push(strformat(format, [env.value(item)])));
}

export function runPackb(source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  return transformBatches(source, sink, (item, out) => {
    if (item instanceof Chunk && mimetypeOf(item.mimetype).base === Media.msgpack) out.push(item);
    else out.push(env.packb(env.value(item)));
  });
}

/**
 * The gap between values, not the total: a stream that keeps arriving runs as long as it likes,
 * and one quiet for longer than this fails with `deadline_exceeded`.
 */
export async function runTimeout(op: Op<'duration'>, source: Reader, sink: Sink, env: StageEnv): Promise<void> {
  const gap = op.seconds * 1000;
  for (;;) {
    let batch;
    try {
      batch = source.readUntil(1, Date.now() + gap);
      if (isPromise(batch)) batch = await batch;
    } catch (error) {
      if (error instanceof StatusError && error.code === StatusCode.DEADLINE_EXCEEDED && !env.monitor.stopped) {
        throw new StatusError(
          StatusCode.DEADLINE_EXCEEDED,
          `Nothing arrived on ${env.sourceLabel} for ${messageDuration(op.seconds)}.`,
        );
      }
      throw error;
    }
    if (batch === null) return;
    const written = sink.write(batch);
    if (isPromise(written)) await written;
  }
}
