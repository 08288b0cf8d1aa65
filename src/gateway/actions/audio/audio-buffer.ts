import { decode as decodeMsgpack } from '@msgpack/msgpack';
import { AUDIO_BUFFER_TAG, decodeAudioBuffer, type AudioBuffer } from '../../../wire/audio-buffer.js';
import type { Chunk } from '../../../wire/chunk.js';
import { parseMimetype } from '../../../wire/media.js';
import { StatusCode, StatusError } from '../../../wire/status.js';

export { AUDIO_BUFFER_MIMETYPE, AUDIO_BUFFER_TAG, type AudioBuffer } from '../../../wire/audio-buffer.js';

/**
 * Whatever a stream delivered, as an AudioBuffer: a decoded one, the bytes of one (a flow's
 * `packb` stage, an untagged msgpack or octet-stream chunk), or a record with the wire's field
 * names (`samples`, `num_channels`, `num_frames`, `sample_rate`, `end_time`).
 */
export function toAudioBuffer(value: unknown): AudioBuffer {
  if (value instanceof Uint8Array) return decodeAudioBuffer(value);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (record.samples instanceof Float32Array && typeof record.channels === 'number') return value as AudioBuffer;
    if ('num_channels' in record && 'sample_rate' in record) {
      const raw = record.samples;
      const samples =
        raw instanceof Uint8Array
          ? new Float32Array(raw.slice().buffer)
          : raw instanceof Float32Array
            ? raw
            : Float32Array.from(Array.isArray(raw) ? (raw as number[]) : []);
      const channels = Number(record.num_channels);
      const frames = Number(record.num_frames ?? samples.length / Math.max(1, channels));
      if (samples.length !== channels * frames) throw notAudio(`${samples.length} samples for ${channels} channels × ${frames} frames`);
      const end = record.end_time;
      return {
        samples,
        channels,
        frames,
        sampleRate: Number(record.sample_rate),
        endTime: typeof end === 'number' || typeof end === 'bigint' ? BigInt(end) : null,
      };
    }
  }
  throw notAudio(`a ${value === null ? 'null' : typeof value} arrived where audio was expected`);
}

/** A chunk of the `audio` input as an AudioBuffer, whatever encoding it arrived in. */
export function chunkToAudioBuffer(chunk: Chunk): AudioBuffer {
  const { base, tag } = parseMimetype(chunk.mimetype);
  if (tag === AUDIO_BUFFER_TAG) return toAudioBuffer(chunk.value);
  if (base === 'application/x-msgpack' || base === 'application/octet-stream') {
    try {
      return decodeAudioBuffer(chunk.bytes);
    } catch (error) {
      // One msgpack value holding an AudioBuffer-shaped record, rather than the five-value form.
      try {
        return toAudioBuffer(decodeMsgpack(chunk.bytes, { useBigInt64: true }));
      } catch {
        throw error;
      }
    }
  }
  return toAudioBuffer(chunk.value);
}

function notAudio(why: string): StatusError {
  return new StatusError(StatusCode.INVALID_ARGUMENT, `Not an AudioBuffer: ${why}.`);
}
