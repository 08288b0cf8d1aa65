import type { ActionContext, ActionHandler } from '../../../wire/action.js';
import { Chunk } from '../../../wire/chunk.js';
import type { ActionRegistry } from '../../../wire/registry.js';
import { StatusCode, StatusError } from '../../../wire/status.js';
import { AUDIO_BUFFER_MIMETYPE, chunkToAudioBuffer, type AudioBuffer } from './audio-buffer.js';
import type { Microphone } from './microphone.js';
import {
  AUDIO_CAPTURE_EVENT_TAG,
  AUDIO_DEVICE_INFO_TAG,
  audioInputOptionsSchema,
  speechRecognizerOptionsSchema,
  type AudioCaptureEvent,
  type AudioInputOptions,
  type SpeechRecognizerOptions,
} from './options.js';
import type { SpeechBackend } from './recognizer.js';
import { captureAudioSchema, captureTranscriptionSchema, listAudioInputsSchema, transcribeAudioSchema } from './schemas.js';
import { gracefulStopSignal, transcribe } from './transcription.js';

export interface AudioActionsOptions {
  backend: SpeechBackend;
  microphone: Microphone;
  /** list_audio_inputs and capture_audio (default on). */
  capture?: boolean;
  /** capture_transcription and transcribe_audio (default on). */
  recognition?: boolean;
}

/**
 * Registers list_audio_inputs and capture_audio (capture), then capture_transcription and
 * transcribe_audio (recognition) — the reference's two groups, each of which can be left out.
 */
export function registerAudioActions(registry: ActionRegistry, options: AudioActionsOptions): ActionRegistry {
  if (options.capture !== false) {
    registry.register(listAudioInputsSchema, listAudioInputs(options.microphone)).register(captureAudioSchema, captureAudio(options.microphone));
  }
  if (options.recognition !== false) {
    registry.register(captureTranscriptionSchema, captureTranscription(options)).register(transcribeAudioSchema, transcribeAudio(options.backend));
  }
  return registry;
}

function listAudioInputs(microphone: Microphone): ActionHandler {
  return async (ctx) => {
    const devices = await microphone.list();
    for (const device of devices) await ctx.writeChunk('inputs', Chunk.json(device, AUDIO_DEVICE_INFO_TAG));
    ctx.log(
      devices.length
        ? `Found ${devices.length} audio input${devices.length === 1 ? '' : 's'}: ${devices.map((d) => d.name).join(', ')}.`
        : "The gateway's host has no audio input devices.",
    );
  };
}

/** capture_audio from `microphone` (a client can serve it from a file with FileMicrophone). */
export function captureAudio(microphone: Microphone): ActionHandler {
  return async (ctx) => {
    const options = (await ctx.value('options')) as AudioInputOptions | undefined;
    if (!options) throw new StatusError(StatusCode.INVALID_ARGUMENT, "capture_audio requires 'options' (an AudioInputOptions; {} for the defaults).");
    const session = await microphone.open(options);
    const stop = stopSignals(ctx);
    stop.signal.addEventListener('abort', () => session.stop(), { once: true });
    const event = (value: AudioCaptureEvent, final = false) =>
      final ? ctx.output('events').finalize(Chunk.json(value, AUDIO_CAPTURE_EVENT_TAG)) : ctx.writeChunk('events', Chunk.json(value, AUDIO_CAPTURE_EVENT_TAG));
    try {
      await event({ kind: 'started' });
      const audio = ctx.output('audio');
      let dropped = 0;
      let reported = 0;
      let sent = 0;
      for await (const buffer of session.buffers) {
        // A reader that falls behind loses buffers rather than stalling the device, as a
        // microphone would; the loss is reported on `events`.
        if (audio.backlog >= audio.capacity) {
          dropped++;
          continue;
        }
        if (dropped > reported) {
          await event({ kind: 'buffers_dropped', dropped: dropped - reported });
          reported = dropped;
        }
        audio.push(Chunk.fromValue(AUDIO_BUFFER_MIMETYPE, buffer));
        sent++;
      }
      if (ctx.signal.aborted) return;
      await event({ kind: 'stopped' }, true);
      audio.close();
      ctx.log(`Captured ${sent} buffer${sent === 1 ? '' : 's'}${dropped ? `, dropped ${dropped}` : ''} at ${session.sampleRate} Hz.`);
    } finally {
      session.stop();
      stop.dispose();
    }
  };
}

function captureTranscription({ backend, microphone }: AudioActionsOptions): ActionHandler {
  return async (ctx) => {
    const [capture, asr] = await Promise.all([
      ctx.value('capture_options') as Promise<AudioInputOptions | undefined>,
      ctx.value('asr_options') as Promise<SpeechRecognizerOptions | undefined>,
    ]);
    const unavailable = await backend.unavailable();
    if (unavailable) throw new StatusError(StatusCode.FAILED_PRECONDITION, unavailable);
    const session = await microphone.open(capture ?? audioInputOptionsSchema.parse({}));
    const stop = stopSignals(ctx);
    stop.signal.addEventListener('abort', () => session.stop(), { once: true });
    try {
      const { pieces } = await transcribe({
        ctx,
        backend,
        options: asr ?? speechRecognizerOptionsSchema.parse({}),
        audio: session.buffers,
        stop: stop.signal,
      });
      ctx.log(`Transcribed ${pieces} utterance${pieces === 1 ? '' : 's'} from the host's microphone.`);
    } finally {
      session.stop();
      stop.dispose();
    }
  };
}

function transcribeAudio(backend: SpeechBackend): ActionHandler {
  return async (ctx) => {
    const asr = (await ctx.value('asr_options')) as SpeechRecognizerOptions | undefined;
    const stop = gracefulStopSignal(ctx.deadline, ctx.signal);
    try {
      const { pieces } = await transcribe({
        ctx,
        backend,
        options: asr ?? speechRecognizerOptionsSchema.parse({}),
        audio: audioBuffers(ctx),
        stop: stop.signal,
      });
      ctx.log(`Transcribed ${pieces} utterance${pieces === 1 ? '' : 's'}.`);
    } finally {
      stop.dispose();
    }
  };
}

/** The `audio` input as AudioBuffers, whatever encoding each chunk arrived in. */
async function* audioBuffers(ctx: ActionContext): AsyncGenerator<AudioBuffer> {
  for await (const chunk of ctx.input('audio')) {
    if (chunk.isNull) continue;
    yield chunkToAudioBuffer(chunk);
  }
}

/** A stop on a `stop` control event, a little before the deadline, or on cancellation. */
function stopSignals(ctx: ActionContext): { signal: AbortSignal; dispose(): void } {
  const graceful = gracefulStopSignal(ctx.deadline, ctx.signal);
  const controller = new AbortController();
  graceful.signal.addEventListener('abort', () => controller.abort(), { once: true });
  void (async () => {
    try {
      for await (const chunk of ctx.input('control_events')) {
        const value = chunk.isNull ? undefined : (chunk.value as { command?: unknown } | undefined);
        if (value?.command === 'stop') return controller.abort();
        ctx.log(`Ignored a control event that is not {"command": "stop"}: ${JSON.stringify(value)}`, 'warning');
      }
      // A control stream that ends without a stop keeps capturing, as the reference does.
    } catch {
      // The input failed with the call; cancellation stops the capture.
    }
  })();
  return { signal: controller.signal, dispose: graceful.dispose };
}
