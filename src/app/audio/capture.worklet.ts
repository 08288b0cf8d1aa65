/**
 * The microphone's audio thread: gathers the first input channel into fixed-size blocks and
 * posts each block (transferred, not copied) with its peak level to the page. Runs in the
 * AudioWorkletGlobalScope, so it imports nothing.
 */

// The worklet scope's globals, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare const currentTime: number;
declare function registerProcessor(name: string, processor: new (options: { processorOptions?: unknown }) => unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

export interface CaptureBlock {
  type: 'block';
  samples: Float32Array;
  /** Largest absolute sample in the block, 0…1. */
  peak: number;
  /** The audio clock (seconds) at the block's last frame. */
  endClock: number;
  sampleRate: number;
}

/** Sent once after `stop`, when the last block has been posted. */
export interface CaptureStopped {
  type: 'stopped';
}

class CaptureProcessor extends AudioWorkletProcessor {
  #frames: number;
  #block: Float32Array;
  #filled = 0;
  #peak = 0;
  #running = true;

  constructor(options: { processorOptions?: unknown }) {
    super();
    const requested = (options.processorOptions as { blockFrames?: number } | undefined)?.blockFrames;
    this.#frames = Math.max(128, Math.floor(requested ?? 1600));
    this.#block = new Float32Array(this.#frames);
    this.port.onmessage = (event: MessageEvent<{ type: string }>) => {
      if (event.data.type === 'stop') {
        this.#flush();
        this.#running = false;
        this.port.postMessage({ type: 'stopped' } satisfies CaptureStopped);
      }
    };
  }

  process(inputs: Float32Array[][]): boolean {
    if (!this.#running) return false;
    const channel = inputs[0]?.[0];
    if (!channel) return true;
    let offset = 0;
    while (offset < channel.length) {
      const take = Math.min(channel.length - offset, this.#frames - this.#filled);
      for (let i = 0; i < take; i++) {
        const sample = channel[offset + i]!;
        this.#block[this.#filled + i] = sample;
        const magnitude = sample < 0 ? -sample : sample;
        if (magnitude > this.#peak) this.#peak = magnitude;
      }
      this.#filled += take;
      offset += take;
      if (this.#filled === this.#frames) this.#flush();
    }
    return true;
  }

  #flush(): void {
    if (this.#filled === 0) return;
    const samples = this.#filled === this.#frames ? this.#block : this.#block.slice(0, this.#filled);
    const block: CaptureBlock = { type: 'block', samples, peak: this.#peak, endClock: currentTime, sampleRate };
    this.port.postMessage(block, [samples.buffer]);
    this.#block = new Float32Array(this.#frames);
    this.#filled = 0;
    this.#peak = 0;
  }
}

registerProcessor('flowplay-capture', CaptureProcessor);
