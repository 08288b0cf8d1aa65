import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** Text a reader has not taken yet, beyond which the pipe is paused (the child then blocks on write). */
const HIGH_WATER_CHARS = 1 << 20;

/**
 * A child's output as text, taken in whatever pieces it arrived in. The pipe is paused while
 * unread text piles up, so a command printing faster than its reader is slowed, not buffered.
 */
export class OutputQueue {
  #pieces: string[] = [];
  #queued = 0;
  #ended = false;
  #waiter: (() => void) | undefined;
  #decoder = new StringDecoder('utf8');

  constructor(private readonly stream: Readable) {
    stream.on('data', (data: Buffer) => this.#push(this.#decoder.write(data)));
    stream.on('end', () => this.#end());
    stream.on('close', () => this.#end());
    stream.on('error', () => this.#end());
  }

  get ended(): boolean {
    return this.#ended && this.#pieces.length === 0;
  }

  /**
   * The next piece of text; `null` once the stream has ended; `undefined` when `timeoutMs`
   * passes or `signal` aborts first.
   */
  async next(timeoutMs?: number, signal?: AbortSignal): Promise<string | null | undefined> {
    for (;;) {
      const piece = this.#pieces.shift();
      if (piece !== undefined) {
        this.#queued -= piece.length;
        if (this.#queued < HIGH_WATER_CHARS && this.stream.isPaused()) this.stream.resume();
        return piece;
      }
      if (this.#ended) return null;
      if (signal?.aborted || (timeoutMs !== undefined && timeoutMs <= 0)) return undefined;
      const woke = await new Promise<boolean>((resolve) => {
        const timer = timeoutMs === undefined ? undefined : setTimeout(() => finish(false), timeoutMs);
        const onAbort = () => finish(false);
        const finish = (value: boolean) => {
          if (timer !== undefined) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.#waiter = undefined;
          resolve(value);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#waiter = () => finish(true);
      });
      if (!woke) return undefined;
    }
  }

  #push(text: string): void {
    if (!text) return;
    this.#pieces.push(text);
    this.#queued += text.length;
    if (this.#queued >= HIGH_WATER_CHARS) this.stream.pause();
    this.#waiter?.();
  }

  #end(): void {
    if (this.#ended) return;
    const rest = this.#decoder.end();
    if (rest) this.#pieces.push(rest);
    this.#ended = true;
    this.#waiter?.();
  }
}
