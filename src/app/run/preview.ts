/**
 * One line about a value, for the stream inspector: what it is, briefly, without decoding more
 * than it must. Text and JSON show their start, audio its shape, bytes their first few octets.
 */
import type { AudioBuffer } from '../../wire/audio-buffer';
import type { Chunk } from '../../wire/chunk';
import { Media, parseMimetype } from '../../wire/media';

export const PREVIEW_LENGTH = 120;

function clip(text: string, max = PREVIEW_LENGTH): string {
  const flat = text.replace(/\n/g, '⏎').replace(/\t/g, '⇥');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function hex(bytes: Uint8Array, count = 16): string {
  const shown = [...bytes.subarray(0, count)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > count ? `${shown} …` : shown;
}

function isAudioBuffer(value: unknown): value is AudioBuffer {
  return typeof value === 'object' && value !== null && (value as AudioBuffer).samples instanceof Float32Array;
}

export function describeAudio(buffer: AudioBuffer): string {
  let peak = 0;
  for (const sample of buffer.samples) peak = Math.max(peak, Math.abs(sample));
  const ms = (buffer.frames / buffer.sampleRate) * 1000;
  const rate = buffer.sampleRate % 1000 === 0 ? `${buffer.sampleRate / 1000} kHz` : `${buffer.sampleRate} Hz`;
  return `AudioBuffer ${buffer.frames} frames × ${buffer.channels} ch · ${rate} · ${ms.toFixed(0)} ms · peak ${peak.toFixed(2)}`;
}

/** JSON that survives the values JSON cannot say (bigint, typed arrays, bytes). */
export function toDisplayJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, inner: unknown) => {
      if (typeof inner === 'bigint') return inner.toString();
      if (inner instanceof Uint8Array) return `<${inner.length} bytes>`;
      if (isAudioBuffer(inner)) return describeAudio(inner);
      if (ArrayBuffer.isView(inner)) return `<${(inner as ArrayBufferView).byteLength} bytes>`;
      return inner;
    },
    indent,
  ) ?? String(value);
}

/** A one-line preview of a chunk; never throws (a value that does not decode says so). */
export function previewChunk(chunk: Chunk): string {
  if (chunk.isNull) return 'null';
  const { base } = parseMimetype(chunk.mimetype);
  let value: unknown;
  try {
    value = chunk.value;
  } catch (error) {
    return `⚠ ${(error as Error).message}`;
  }
  if (isAudioBuffer(value)) return describeAudio(value);
  if (typeof value === 'string') return clip(JSON.stringify(value).slice(1, -1).replace(/\\n/g, '⏎'));
  if (value instanceof Uint8Array) return `${value.length} bytes: ${hex(value)}`;
  if (base === Media.status) return clip(String(value));
  return clip(toDisplayJson(value));
}

/** Encoded size in bytes, or the size the value would take (never throws). */
export function sizeOfChunk(chunk: Chunk): number {
  try {
    return chunk.size;
  } catch {
    return 0;
  }
}

/** `1.2 kB` */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
