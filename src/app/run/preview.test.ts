import { describe, expect, it } from 'vitest';
import { AUDIO_BUFFER_TAG } from '../../wire/audio-buffer';
import { Chunk } from '../../wire/chunk';
import { formatBytes, previewChunk, sizeOfChunk, toDisplayJson } from './preview';

describe('inspector previews', () => {
  it('shows text with its line breaks visible, and clips it', () => {
    expect(previewChunk(Chunk.text('one\ntwo'))).toBe('one⏎two');
    expect(previewChunk(Chunk.text('x'.repeat(500)))).toHaveLength(120);
  });

  it('shows JSON compactly and audio by its shape', () => {
    expect(previewChunk(Chunk.json({ kind: 'started' }))).toBe('{"kind":"started"}');
    const samples = new Float32Array(1600).fill(0.25);
    const audio = Chunk.fromBytes(
      `application/x-msgpack;type=${AUDIO_BUFFER_TAG}`,
      Chunk.msgpack({ samples, channels: 1, frames: 1600, sampleRate: 16000, endTime: 1n }, AUDIO_BUFFER_TAG).bytes,
    );
    expect(previewChunk(audio)).toBe('AudioBuffer 1600 frames × 1 ch · 16 kHz · 100 ms · peak 0.25');
    expect(sizeOfChunk(audio)).toBeGreaterThan(6400);
  });

  it('shows bytes, null and undecodable values without throwing', () => {
    expect(previewChunk(Chunk.bytes(new Uint8Array([1, 2, 255])))).toBe('3 bytes: 01 02 ff');
    expect(previewChunk(Chunk.null())).toBe('null');
    expect(previewChunk(Chunk.fromBytes('application/json', new TextEncoder().encode('{nope')))).toMatch(/^⚠ .*does not decode/);
  });

  it('writes values JSON cannot say', () => {
    expect(toDisplayJson({ big: 12n, raw: new Uint8Array(3) })).toBe('{"big":"12","raw":"<3 bytes>"}');
    expect(formatBytes(2048)).toBe('2.0 kB');
  });
});
