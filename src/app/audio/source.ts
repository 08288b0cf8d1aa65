/**
 * Where captured audio comes from, as the capture actions see it: something that, once opened,
 * delivers mono blocks of float samples until stopped. The browser's is the microphone
 * (microphone.ts); tests give a synthetic one.
 */
export interface AudioBlock {
  samples: Float32Array;
  sampleRate: number;
  /** Wall-clock time of the block's last frame, nanoseconds since the epoch. */
  endTime: bigint;
  /** Largest absolute sample, 0…1, for a level meter. */
  peak: number;
}

export interface AudioSourceOptions {
  sampleRate: number;
  /** Frames per delivered block. */
  blockFrames: number;
  /** An input device to prefer (its label or id); the default input when empty. */
  device?: string;
}

export interface OpenAudioSource {
  /** Called for every block, in capture order. */
  onblock: (block: AudioBlock) => void;
  /** Called if capture ends on its own (device unplugged, permission revoked), with why. */
  onended: (reason: string) => void;
  /** Stops capturing; the last partial block is delivered before this resolves. */
  stop(): Promise<void>;
}

/** Opens the source; rejects with a StatusError saying why (no permission, no device). */
export type AudioSourceOpener = (options: AudioSourceOptions) => Promise<OpenAudioSource>;
