import type { ActionContext } from '../../../wire/action.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import type { AudioBuffer } from './audio-buffer.js';
import { grammarForWords } from './grammar.js';
import type { SpeechRecognizerOptions, TranscriptionEvent } from './options.js';
import type { SpeechBackend } from './recognizer.js';
import { RECOGNIZER_RATE, StreamingResampler } from './resample.js';

/** Silence fed to the recogniser when the audio stalls, so the utterance in progress is ended. */
const STALL_SILENCE_MS = 600;
/** How long past min_silence_millis a stalled input waits before it is endpointed. */
const STALL_MARGIN_MS = 500;

const QUESTION_START =
  /^(what|why|how|who|whom|whose|where|when|which|is|are|was|were|do|does|did|can|could|would|will|should|shall|may|might|have|has|am)\b/i;

/** An utterance as a sentence: capitalised, ending in `?` when it opens like a question, else `.`. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const sentence = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  if (/[.!?]$/.test(sentence)) return sentence;
  return sentence + (QUESTION_START.test(trimmed) ? '?' : '.');
}

export interface TranscriptionRun {
  ctx: ActionContext;
  backend: SpeechBackend;
  options: SpeechRecognizerOptions;
  /** The audio; transcription ends when it ends. */
  audio: AsyncIterable<AudioBuffer>;
  /** Aborted to stop gracefully: audio stops being read and what was heard is still decoded. */
  stop: AbortSignal;
}

/**
 * Streams audio through a recogniser and writes one piece per utterance, with the lifecycle
 * events the reference sends (capture_started, inference_started, …, inference_stopped).
 * Audio of any rate and channel count is converted to what the recogniser takes; an input that
 * goes quiet is endpointed by feeding the recogniser a little silence.
 */
export async function transcribe(run: TranscriptionRun): Promise<{ pieces: number }> {
  const { ctx, options } = run;
  const grammar = options.grammar ?? (options.words ? grammarForWords(options.words) : undefined);
  const stream = await run.backend.open({ model: options.model, language: options.language, ...(grammar ? { grammar } : {}) });
  for (const note of stream.notes) ctx.log(note);
  const onAbort = () => stream.close();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const event = (kind: TranscriptionEvent['kind']) => ctx.write('events', { kind } satisfies TranscriptionEvent);
  try {
    await event('capture_started');
    await event('inference_started');
    const pauseAfterMs = options.min_silence_millis + STALL_MARGIN_MS;
    const pumping = pump(run, stream.write.bind(stream), pauseAfterMs).then(
      () => stream.end(),
      (error: unknown) => {
        stream.close();
        throw error;
      },
    );
    let pieces = 0;
    const reading = (async () => {
      for await (const utterance of stream.utterances) {
        const piece = options.punctuate ? asSentence(utterance) : utterance;
        if (!piece) continue;
        pieces++;
        await ctx.write('transcription_pieces', piece);
      }
    })();
    await Promise.all([pumping, reading]);
    await event('inference_stopped');
    return { pieces };
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    stream.close();
  }
}

async function pump(run: TranscriptionRun, write: (samples: Int16Array) => Promise<void>, pauseAfterMs: number): Promise<void> {
  const resampler = new StreamingResampler();
  const iterator = run.audio[Symbol.asyncIterator]();
  const stopped = new Promise<'stop'>((resolve) => {
    if (run.stop.aborted) resolve('stop');
    else run.stop.addEventListener('abort', () => resolve('stop'), { once: true });
  });
  let next = iterator.next();
  let endpointed = false;
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const quiet = new Promise<'quiet'>((resolve) => (timer = setTimeout(() => resolve('quiet'), pauseAfterMs)));
      const winner = await Promise.race([next, quiet, stopped]);
      clearTimeout(timer);
      if (winner === 'stop') return;
      if (winner === 'quiet') {
        if (!endpointed) await write(new Int16Array((RECOGNIZER_RATE * STALL_SILENCE_MS) / 1000));
        endpointed = true;
        continue;
      }
      if (winner.done) return;
      endpointed = false;
      await write(resampler.push(winner.value));
      next = iterator.next();
    }
  } catch (error) {
    if (error instanceof StatusError) throw error;
    throw new StatusError(StatusCode.INVALID_ARGUMENT, `The audio could not be read: ${(error as Error).message}`);
  } finally {
    void iterator.return?.()?.catch(() => {});
  }
}

/**
 * Aborts a little before `deadline` (ms since the epoch), so a capture can stop gracefully and
 * still hand over what it heard before the deadline cancels the call.
 */
export function gracefulStopSignal(deadline: number | undefined, signal: AbortSignal, graceMs = 750): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = deadline === undefined ? undefined : setTimeout(onAbort, Math.max(0, Math.min(deadline - Date.now() - graceMs, 2 ** 31 - 1)));
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}
