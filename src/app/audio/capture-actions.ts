/**
 * `capture_audio` and `capture_transcription` as this page serves them to the gateway: a flow
 * that says `call capture_audio(…)` records from the microphone of the page that sent it.
 *
 * Lifecycle (the reference's): `events` gets `started`; AudioBuffers stream on `audio`; capture
 * stops on a `{"command":"stop"}` control event, on cancellation or at the deadline (a control
 * stream closed without `stop` keeps capturing); then `events` gets `stopped` as its last value
 * and `audio` ends. A reader too slow to keep up loses whole buffers, never the stream, and is
 * told so with a `buffers_dropped` event carrying the count.
 */
import type { ActionContext, ActionDispatcher, ActionHandler } from '../../wire/action';
import { AUDIO_BUFFER_TAG, type AudioBuffer } from '../../wire/audio-buffer';
import { Chunk } from '../../wire/chunk';
import type { StreamNode } from '../../wire/node';
import type { ActionRegistry } from '../../wire/registry';
import type { ActionSchema } from '../../wire/schema';
import { StatusCode, StatusError } from '../../wire/status';
// The gateway's own declarations (isomorphic files: zod and the wire layer only), so the page
// serves exactly the ports a flow checked against the gateway's registry expects.
import { captureAudioSchema, captureTranscriptionSchema } from '../../gateway/actions/audio/schemas';
import {
  AUDIO_CAPTURE_EVENT_TAG,
  SPEECH_RECOGNIZER_OPTIONS_TAG,
  TRANSCRIPTION_EVENT_TAG,
  type AudioInputOptions,
} from '../../gateway/actions/audio/options';
import type { AudioBlock, AudioSourceOpener, OpenAudioSource } from './source';

export const DEFAULT_SAMPLE_RATE = 16_000;
/** Frames per buffer when the options name none (the reference's capture block). */
export const DEFAULT_BLOCK_FRAMES = 256;
/** Buffers a reader may fall behind before new ones are dropped (5 s of 100 ms buffers). */
export const MAX_AUDIO_BACKLOG = 50;

export interface CaptureHooks {
  /** Every block's peak level, for the page's meter. */
  level?: (peak: number) => void;
  /** A capture started or ended (the page shows that the microphone is live). */
  active?: (live: boolean) => void;
  /** A capture action starts for a caller (the inspector watches its ports). */
  started?: (context: ActionContext) => void;
}

function audioBufferOf(block: AudioBlock): AudioBuffer {
  return { samples: block.samples, channels: 1, frames: block.samples.length, sampleRate: block.sampleRate, endTime: block.endTime };
}

/** Resolves when a `stop` command arrives; a control stream that ends without one resolves nothing. */
function stopCommand(context: ActionContext): Promise<'stop'> {
  return new Promise((resolve) => {
    void (async () => {
      try {
        for await (const event of context.values('control_events')) {
          if ((event as { command?: unknown }).command === 'stop') return resolve('stop');
        }
      } catch {
        // A control stream that fails says nothing about stopping; cancellation covers the rest.
      }
    })();
  });
}

function abortion(signal: AbortSignal): Promise<'abort'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('abort');
    else signal.addEventListener('abort', () => resolve('abort'), { once: true });
  });
}

async function openFor(context: ActionContext, options: Partial<AudioInputOptions> | undefined, open: AudioSourceOpener): Promise<OpenAudioSource> {
  const chosen = options ?? {};
  if (chosen.channels && chosen.channels > 1) {
    context.log(`The page captures mono; ${chosen.channels} channels were asked for and 1 is delivered.`, 'warning');
  }
  const sampleRate = chosen.sample_rate || DEFAULT_SAMPLE_RATE;
  // As the reference: buffers of `buffer_frames`, or of the capture block size when that is 0.
  const blockFrames = chosen.buffer_frames || chosen.block_frames || DEFAULT_BLOCK_FRAMES;
  return open({ sampleRate, blockFrames, ...(chosen.device_name ? { device: chosen.device_name } : {}) });
}

/**
 * Captures until stopped, writing each block through `deliver`; returns how capture ended.
 * Throws UNAVAILABLE when the device stops on its own.
 */
async function captureUntilStopped(
  context: ActionContext,
  source: OpenAudioSource,
  deliver: (block: AudioBlock) => void,
  hooks: CaptureHooks,
  failure: Promise<never> = new Promise<never>(() => {}),
): Promise<'stop' | 'abort'> {
  let delivering = true;
  source.onblock = (block) => {
    hooks.level?.(block.peak);
    if (delivering) deliver(block);
  };
  const ended = new Promise<never>((_, reject) => {
    source.onended = (reason) => reject(new StatusError(StatusCode.UNAVAILABLE, reason));
  });
  hooks.active?.(true);
  try {
    return await Promise.race([stopCommand(context), abortion(context.signal), ended, failure]);
  } finally {
    // The last partial block still arrives during stop(); only after it does delivery end.
    await source.stop();
    delivering = false;
    hooks.active?.(false);
    hooks.level?.(0);
  }
}

export function captureAudioHandler(open: AudioSourceOpener, hooks: CaptureHooks = {}): ActionHandler {
  return async (context) => {
    hooks.started?.(context);
    const options = (await context.value('options')) as Partial<AudioInputOptions> | undefined;
    const source = await openFor(context, options, open);
    const audio = context.output('audio');
    const events = context.output('events');
    let dropped = 0;
    events.push(Chunk.json({ kind: 'started' }, AUDIO_CAPTURE_EVENT_TAG));
    const deliver = (block: AudioBlock) => {
      if (audio.isClosed) return;
      if (audio.backlog >= MAX_AUDIO_BACKLOG) {
        dropped++;
        return;
      }
      if (dropped > 0) {
        events.push(Chunk.json({ kind: 'buffers_dropped', dropped }, AUDIO_CAPTURE_EVENT_TAG));
        dropped = 0;
      }
      audio.push(Chunk.msgpack(audioBufferOf(block), AUDIO_BUFFER_TAG));
    };
    const how = await captureUntilStopped(context, source, deliver, hooks);
    if (how === 'abort') return;
    if (dropped > 0) events.push(Chunk.json({ kind: 'buffers_dropped', dropped }, AUDIO_CAPTURE_EVENT_TAG));
    events.push(Chunk.json({ kind: 'stopped' }, AUDIO_CAPTURE_EVENT_TAG), { final: true });
    audio.close();
  };
}

export interface TranscriptionDependencies {
  /** Where recognition runs: the gateway the page is connected to. */
  gateway: () => { dispatcher: ActionDispatcher; schema(name: string): ActionSchema | undefined } | null;
}

/**
 * Copies a nested call's output onto one of ours. Never rejects: a failing nested stream is
 * reported by the nested call's status, which the handler turns into its own.
 */
async function forward(from: StreamNode, to: StreamNode, map: (chunk: Chunk) => Chunk | null = (chunk) => chunk): Promise<void> {
  try {
    for await (const chunk of from.reader()) {
      const mapped = map(chunk);
      if (mapped && !to.isClosed) await to.put(mapped);
    }
  } catch {
    // See above: the status carries it.
  }
}

export function captureTranscriptionHandler(open: AudioSourceOpener, dependencies: TranscriptionDependencies, hooks: CaptureHooks = {}): ActionHandler {
  return async (context) => {
    hooks.started?.(context);
    const gateway = dependencies.gateway();
    const schema = gateway?.schema('transcribe_audio');
    if (!gateway || !schema) {
      throw new StatusError(
        StatusCode.FAILED_PRECONDITION,
        "capture_transcription recognises speech with the gateway's transcribe_audio, and the gateway this page is connected to does not offer it.",
      );
    }
    const asrOptions = await context.value('asr_options');
    const captureOptions = (await context.value('capture_options')) as Partial<AudioInputOptions> | undefined;
    const recognition = gateway.dispatcher.invoke(schema, { headers: context.headers, signal: context.signal });
    const audio = recognition.input('audio');
    const asr = recognition.input('asr_options');
    if (asrOptions === undefined) asr.close();
    else await asr.finalize(Chunk.json(asrOptions, SPEECH_RECOGNIZER_OPTIONS_TAG));

    const events = context.output('events');
    const event = (kind: string) => Chunk.json({ kind }, TRANSCRIPTION_EVENT_TAG);
    const pieces = forward(recognition.output('transcription_pieces'), context.output('transcription_pieces'));
    // The recogniser's own inference events pass through; capture events are this action's.
    const inference = forward(recognition.output('events'), events, (chunk) => {
      const kind = (chunk.value as { kind?: unknown }).kind;
      return kind === 'inference_started' || kind === 'inference_stopped' ? chunk : null;
    });

    // A recogniser that fails ends the capture: nobody would hear the rest.
    const recognitionFailed = recognition.done.then((status) => {
      if (!status.ok) throw new StatusError(status);
      return new Promise<never>(() => {});
    });
    recognitionFailed.catch(() => {});

    const source = await openFor(context, captureOptions, open);
    events.push(event('capture_started'));
    const how = await captureUntilStopped(
      context,
      source,
      (block) => {
        if (!audio.isClosed) audio.push(Chunk.msgpack(audioBufferOf(block), AUDIO_BUFFER_TAG));
      },
      hooks,
      recognitionFailed,
    );
    audio.close();
    if (how === 'abort') {
      recognition.cancel();
      return;
    }
    const status = await recognition.done;
    await Promise.all([pieces, inference]);
    if (!status.ok) throw new StatusError(status);
    events.push(event('capture_stopped'), { final: true });
  };
}

/** Registers both capture actions with their handlers on the page's registry. */
export function registerCaptureActions(
  registry: ActionRegistry,
  open: AudioSourceOpener,
  dependencies: TranscriptionDependencies,
  hooks: CaptureHooks = {},
): void {
  registry.register(captureAudioSchema, captureAudioHandler(open, hooks));
  registry.register(captureTranscriptionSchema, captureTranscriptionHandler(open, dependencies, hooks));
}
