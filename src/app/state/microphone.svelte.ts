import type { CaptureHooks } from '../audio/capture-actions';
import { openMicrophone } from '../audio/microphone';
import type { AudioSourceOpener, OpenAudioSource } from '../audio/source';

/**
 * The microphone as the page shows it: whether anything is capturing (a flow's `capture_audio`,
 * an input port fed live, or the reader's own level check), and how loud it is.
 */
export class MicrophoneState {
  /** Peak level of the latest block, 0…1, decaying smoothly between blocks. */
  level = $state(0);
  /** Captures running now. */
  live = $state(0);
  /** The reader's level check is running. */
  checking = $state(false);
  error = $state('');

  readonly open: AudioSourceOpener;
  readonly hooks: CaptureHooks = {
    level: (peak) => this.#show(peak),
    active: (on) => {
      this.live = Math.max(0, this.live + (on ? 1 : -1));
      if (on) this.error = '';
      // Nothing capturing: the meter rests at zero rather than decaying towards it forever.
      if (this.live === 0) this.level = 0;
    },
  };
  #check: OpenAudioSource | null = null;

  constructor(open: AudioSourceOpener = openMicrophone) {
    this.open = open;
  }

  /** Opens the microphone just to show its level, until `stopCheck`. */
  async startCheck(): Promise<void> {
    if (this.#check) return;
    this.error = '';
    try {
      this.#check = await this.open({ sampleRate: 16_000, blockFrames: 800 });
      this.#check.onblock = (block) => this.#show(block.peak);
      this.#check.onended = (reason) => {
        this.error = reason;
        void this.stopCheck();
      };
      this.checking = true;
      this.live++;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  async stopCheck(): Promise<void> {
    const check = this.#check;
    if (!check) return;
    this.#check = null;
    this.checking = false;
    this.live = Math.max(0, this.live - 1);
    await check.stop();
    if (this.live === 0) this.level = 0;
  }

  #show(peak: number): void {
    // Rise at once, fall gently: a meter that drops to zero between syllables is hard to read.
    this.level = peak >= this.level ? peak : this.level * 0.6 + peak * 0.4;
  }
}
