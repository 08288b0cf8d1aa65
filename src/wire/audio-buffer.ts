import { registerTypeCodec, type TypeCodec } from './codecs.js';
import { Media, withTag } from './media.js';
import {
  concatBytes,
  decodeFields,
  encodeFields,
  encodeFloat64,
  encodeInt64,
  invalid,
  readBinary,
  readInt64,
  readUnsigned,
} from './msgpack-fields.js';
import { SerialTags } from './serial-tags.js';

/**
 * A block of audio as A11 peers exchange it (`application/x-msgpack;type=a11.sdk.AudioBuffer`):
 * five msgpack values — the samples as little-endian float32 bytes, planar (all of channel 0, then
 * channel 1, …), the channel count, the frame count, the sample rate as a float64, and the time
 * the block ends in nanoseconds since the epoch (int64) or nil.
 */
export interface AudioBuffer {
  /** `channels × frames` samples, channel-major. */
  samples: Float32Array;
  channels: number;
  frames: number;
  sampleRate: number;
  /** When the last frame was captured, in nanoseconds since the epoch; null when unknown. */
  endTime: bigint | null;
}

export const AUDIO_BUFFER_TAG = SerialTags.audio.audio_buffer;
export const AUDIO_BUFFER_MIMETYPE = withTag(Media.msgpack, AUDIO_BUFFER_TAG);

export function encodeAudioBuffer(buffer: AudioBuffer): Uint8Array {
  const { samples, channels, frames } = buffer;
  if (!Number.isSafeInteger(channels) || channels < 0 || !Number.isSafeInteger(frames) || frames < 0) {
    throw invalid('AudioBuffer channels and frames must be non-negative integers.');
  }
  if (samples.length !== channels * frames) {
    throw invalid(`AudioBuffer holds ${samples.length} samples; ${channels} channels × ${frames} frames needs ${channels * frames}.`);
  }
  if (!Number.isFinite(buffer.sampleRate) || buffer.sampleRate <= 0) {
    throw invalid(`AudioBuffer sample rate must be a positive number, got ${buffer.sampleRate}.`);
  }
  return concatBytes([
    encodeFields([littleEndianFloat32(samples), channels, frames]),
    encodeFloat64(buffer.sampleRate),
    encodeInt64(buffer.endTime),
  ]);
}

export function decodeAudioBuffer(bytes: Uint8Array): AudioBuffer {
  const [samples, channels, frames, sampleRate, endTime] = decodeFields(bytes, 5, 'AudioBuffer');
  const raw = readBinary(samples, 'AudioBuffer.samples');
  if (raw.length % 4 !== 0) throw invalid(`AudioBuffer.samples holds ${raw.length} bytes, not a whole number of float32s.`);
  const buffer: AudioBuffer = {
    samples: float32FromLittleEndian(raw),
    channels: readUnsigned(channels, 'AudioBuffer.num_channels', 0xffff_ffff),
    frames: readUnsigned(frames, 'AudioBuffer.num_frames', Number.MAX_SAFE_INTEGER),
    sampleRate: typeof sampleRate === 'bigint' ? Number(sampleRate) : (sampleRate as number),
    endTime: endTime === null ? null : readInt64(endTime, 'AudioBuffer.end_time'),
  };
  if (typeof buffer.sampleRate !== 'number' || !Number.isFinite(buffer.sampleRate)) {
    throw invalid('AudioBuffer.sample_rate must be a number.');
  }
  if (buffer.samples.length !== buffer.channels * buffer.frames) {
    throw invalid(
      `AudioBuffer holds ${buffer.samples.length} samples; ${buffer.channels} channels × ${buffer.frames} frames needs ${buffer.channels * buffer.frames}.`,
    );
  }
  return buffer;
}

/** One channel's samples (a view, no copy). */
export function audioChannel(buffer: AudioBuffer, channel: number): Float32Array {
  if (channel < 0 || channel >= buffer.channels) throw invalid(`AudioBuffer has no channel ${channel}.`);
  return buffer.samples.subarray(channel * buffer.frames, (channel + 1) * buffer.frames);
}

export const audioBufferCodec: TypeCodec<AudioBuffer> = {
  tag: AUDIO_BUFFER_TAG,
  encode: encodeAudioBuffer,
  decode: decodeAudioBuffer,
};

registerTypeCodec(audioBufferCodec);

const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function littleEndianFloat32(samples: Float32Array): Uint8Array {
  if (littleEndianHost) return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  const bytes = new Uint8Array(samples.length * 4);
  const view = new DataView(bytes.buffer);
  samples.forEach((sample, index) => view.setFloat32(index * 4, sample, true));
  return bytes;
}

function float32FromLittleEndian(raw: Uint8Array): Float32Array {
  // Copy: the bytes are usually a view into a larger packet, and may not be 4-byte aligned.
  const copy = new Uint8Array(raw);
  if (littleEndianHost) return new Float32Array(copy.buffer, 0, copy.length / 4);
  const view = new DataView(copy.buffer);
  return Float32Array.from({ length: copy.length / 4 }, (_, index) => view.getFloat32(index * 4, true));
}
