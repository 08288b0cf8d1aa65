import type { AudioBuffer } from './audio-buffer.js';

/** What the recognisers take: mono 16-bit PCM at 16 kHz. */
export const RECOGNIZER_RATE = 16_000;

/**
 * Turns AudioBuffers of any rate and channel count into 16 kHz mono 16-bit samples, one buffer
 * after another, carrying the interpolation phase across buffers so the joins are seamless.
 * Channels are averaged; the rate is converted by linear interpolation after a short moving
 * average when downsampling, which keeps speech intelligible to a recogniser without a
 * heavyweight filter.
 */
export class StreamingResampler {
  #rate = 0;
  /** Position of the next output sample, in input samples, relative to the start of `#carry`. */
  #position = 0;
  /** The last input sample of the previous buffer (interpolation needs one sample of history). */
  #carry: number | undefined;

  push(buffer: AudioBuffer): Int16Array {
    if (buffer.frames === 0) return new Int16Array(0);
    if (buffer.sampleRate !== this.#rate) {
      this.#rate = buffer.sampleRate;
      this.#position = 0;
      this.#carry = undefined;
    }
    let mono = mixToMono(buffer);
    const step = this.#rate / RECOGNIZER_RATE;
    if (step > 1.5) mono = movingAverage(mono, Math.round(step));
    const input = this.#carry === undefined ? mono : prepend(this.#carry, mono);
    const out: number[] = [];
    while (this.#position + 1 < input.length) {
      const at = Math.floor(this.#position);
      const fraction = this.#position - at;
      out.push(input[at]! * (1 - fraction) + input[at + 1]! * fraction);
      this.#position += step;
    }
    this.#position -= input.length - 1;
    this.#carry = input[input.length - 1];
    return toInt16(out);
  }
}

function mixToMono(buffer: AudioBuffer): Float32Array {
  if (buffer.channels === 1) return buffer.samples;
  const mono = new Float32Array(buffer.frames);
  for (let channel = 0; channel < buffer.channels; channel++) {
    const offset = channel * buffer.frames;
    for (let frame = 0; frame < buffer.frames; frame++) mono[frame]! += buffer.samples[offset + frame]! / buffer.channels;
  }
  return mono;
}

function movingAverage(samples: Float32Array, width: number): Float32Array {
  const out = new Float32Array(samples.length);
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    sum += samples[i]!;
    if (i >= width) sum -= samples[i - width]!;
    out[i] = sum / Math.min(i + 1, width);
  }
  return out;
}

function prepend(first: number, rest: Float32Array): Float32Array {
  const out = new Float32Array(rest.length + 1);
  out[0] = first;
  out.set(rest, 1);
  return out;
}

function toInt16(samples: readonly number[]): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i]! * 32767)));
  return out;
}
