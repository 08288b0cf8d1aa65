import { decodeMulti, encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { AUDIO_BUFFER_MIMETYPE, audioChannel, decodeAudioBuffer, encodeAudioBuffer, type AudioBuffer } from './audio-buffer.js';
import { Chunk } from './chunk.js';
import { concatBytes } from './msgpack-fields.js';

const stereo: AudioBuffer = {
  samples: new Float32Array([0.5, -0.25, 1, 0, 0.125, -1]),
  channels: 2,
  frames: 3,
  sampleRate: 16000,
  endTime: 1_764_000_000_123_456_789n,
};

describe('AudioBuffer', () => {
  it('is five msgpack values: float32 LE planar bytes, channels, frames, float64 rate, int64 end time', () => {
    const bytes = encodeAudioBuffer(stereo);
    const samples = new Uint8Array(24);
    const view = new DataView(samples.buffer);
    [0.5, -0.25, 1, 0, 0.125, -1].forEach((value, index) => view.setFloat32(index * 4, value, true));
    const rate = new Uint8Array(9);
    rate[0] = 0xcb;
    new DataView(rate.buffer).setFloat64(1, 16000);
    const end = new Uint8Array(9);
    end[0] = 0xcf;
    new DataView(end.buffer).setBigUint64(1, 1_764_000_000_123_456_789n);
    expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from(concatBytes([encode(samples), encode(2), encode(3), rate, end])).toString('hex'));
    expect([...decodeMulti(bytes)]).toHaveLength(5);
  });

  it('round-trips through a tagged chunk, keeping every nanosecond', () => {
    const chunk = Chunk.fromValue(AUDIO_BUFFER_MIMETYPE, stereo);
    expect(AUDIO_BUFFER_MIMETYPE).toBe('application/x-msgpack;type=a11.sdk.AudioBuffer');
    const back = Chunk.fromBytes(chunk.mimetype, chunk.bytes.slice()).value as AudioBuffer;
    expect([...back.samples]).toEqual([...stereo.samples]);
    expect(back).toMatchObject({ channels: 2, frames: 3, sampleRate: 16000, endTime: stereo.endTime });
    expect([...audioChannel(back, 1)]).toEqual([0, 0.125, -1]);
  });

  it('writes nil for an unknown end time and reads an unaligned view', () => {
    const bytes = encodeAudioBuffer({ ...stereo, endTime: null });
    expect(bytes[bytes.length - 1]).toBe(0xc0);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(decodeAudioBuffer(shifted.subarray(1)).endTime).toBeNull();
  });

  it('refuses inconsistent buffers with INVALID_ARGUMENT', () => {
    expect(() => encodeAudioBuffer({ ...stereo, frames: 4 })).toThrow(/2 channels × 4 frames needs 8/);
    expect(() => decodeAudioBuffer(concatBytes([encode(new Uint8Array(6)), encode(1), encode(1), encode(1.5), encode(null)]))).toThrow(/whole number of float32s/);
    expect(() => decodeAudioBuffer(concatBytes([encode(new Uint8Array(8)), encode(1), encode(3), encode(1.5), encode(null)]))).toThrow(/needs 3/);
    expect(() => decodeAudioBuffer(concatBytes([encode(new Uint8Array(4)), encode(1), encode(1), encode(1.5)]))).toThrow(/4 fields; it must have 5/);
    expect(() => Chunk.fromBytes(AUDIO_BUFFER_MIMETYPE, new Uint8Array([1, 2])).value).toThrow(/does not decode|AudioBuffer/);
  });
});
