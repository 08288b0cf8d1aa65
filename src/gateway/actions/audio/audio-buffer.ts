import { decodeMulti, encode } from '@msgpack/msgpack';
import { registerTypeCodec, typeCodec, type TypeCodec } from '../../../wire/codecs.js';
import { StatusCode, StatusError } from '../../../wire/status.js';

export const AUDIO_BUFFER_TAG = 'a11.sdk.AudioBuffer';
export const AUDIO_BUFFER_MIMETYPE = `application/x-msgpack;type=${AUDIO_BUFFER_TAG}`;

/** A block of samples, channel-major (planar): all of channel 0, then all of channel 1, … */
export interface AudioBuffer {
  samples: Float32Array;
  numChannels: number;
  numFrames: number;
  sampleRate: number;
  /** When the last sample was taken, nanoseconds since the epoch; null when unknown. */
  endTime: bigint | null;
}

/**
 * The wire form: five msgpack values one after another — the samples as a `bin` of
 * little-endian float32, the channel count, the frame count, the sample rate as a float64, and
 * the end time as an int64 (or nil).
 */
export function encodeAudioBuffer(buffer: AudioBuffer): Uint8Array {
  checkShape(buffer);
  const sampleBytes = new Uint8Array(buffer.samples.length * 4);
  const view = new DataView(sampleBytes.buffer);
  buffer.samples.forEach((sample, index) => view.setFloat32(index * 4, sample, true));
  const parts = [
    encode(sampleBytes),
    encode(buffer.numChannels),
    encode(buffer.numFrames),
    encode(buffer.sampleRate, { forceIntegerToFloat: true }),
    buffer.endTime === null ? encode(null) : int64(buffer.endTime),
  ];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function decodeAudioBuffer(bytes: Uint8Array): AudioBuffer {
  let values: unknown[];
  try {
    values = [...decodeMulti(bytes, { useBigInt64: true })];
  } catch (error) {
    throw invalid(`its bytes are not msgpack (${(error as Error).message})`);
  }
  if (values.length !== 5) throw invalid(`it holds ${values.length} msgpack values, not 5`);
  const [raw, channels, frames, rate, end] = values;
  if (!(raw instanceof Uint8Array) || raw.length % 4 !== 0) throw invalid('its samples are not a bin of float32 values');
  const numChannels = Number(channels);
  const numFrames = Number(frames);
  const sampleRate = Number(rate);
  if (![numChannels, numFrames, sampleRate].every((n) => Number.isFinite(n) && n >= 0)) {
    throw invalid('its channel count, frame count and sample rate must be non-negative numbers');
  }
  if (end !== null && typeof end !== 'number' && typeof end !== 'bigint') throw invalid('its end time must be integer nanoseconds or nil');
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const samples = new Float32Array(raw.length / 4);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getFloat32(i * 4, true);
  const buffer = { samples, numChannels, numFrames, sampleRate, endTime: end === null ? null : BigInt(end as number | bigint) };
  checkShape(buffer);
  return buffer;
}

/** The codec for `application/x-msgpack;type=a11.sdk.AudioBuffer` chunks. */
export const audioBufferCodec: TypeCodec<AudioBuffer> = {
  tag: AUDIO_BUFFER_TAG,
  encode: encodeAudioBuffer,
  decode: decodeAudioBuffer,
};

/** Makes AudioBuffer chunks decode to {@link AudioBuffer}, unless a codec is registered already. */
export function ensureAudioBufferCodec(): void {
  if (!typeCodec(AUDIO_BUFFER_TAG)) registerTypeCodec(audioBufferCodec);
}

/**
 * Whatever a stream delivered, as an AudioBuffer: a decoded one, the bytes of one (a flow's
 * `packb` stage, an untagged msgpack chunk), or a record with the wire field names.
 */
export function toAudioBuffer(value: unknown): AudioBuffer {
  if (value instanceof Uint8Array) return decodeAudioBuffer(value);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (record.samples instanceof Float32Array) return value as AudioBuffer;
    if ('num_channels' in record && 'sample_rate' in record) {
      const raw = record.samples;
      const samples =
        raw instanceof Uint8Array
          ? new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))
          : Float32Array.from((raw as number[]) ?? []);
      const buffer = {
        samples,
        numChannels: Number(record.num_channels),
        numFrames: Number(record.num_frames ?? samples.length / Math.max(1, Number(record.num_channels))),
        sampleRate: Number(record.sample_rate),
        endTime: record.end_time === null || record.end_time === undefined ? null : BigInt(record.end_time as number),
      };
      checkShape(buffer);
      return buffer;
    }
  }
  throw invalid(`a ${value === null ? 'null' : typeof value} arrived where audio was expected`);
}

function checkShape(buffer: AudioBuffer): void {
  if (buffer.samples.length !== buffer.numChannels * buffer.numFrames) {
    throw invalid(`it has ${buffer.samples.length} samples for ${buffer.numChannels} channels × ${buffer.numFrames} frames`);
  }
  if (buffer.numFrames > 0 && !(buffer.sampleRate > 0)) throw invalid('its sample rate is not positive');
}

function invalid(why: string): StatusError {
  return new StatusError(StatusCode.INVALID_ARGUMENT, `Not an AudioBuffer: ${why}.`);
}

function int64(value: bigint): Uint8Array {
  const out = new Uint8Array(9);
  out[0] = 0xd3;
  new DataView(out.buffer).setBigInt64(1, value, false);
  return out;
}
