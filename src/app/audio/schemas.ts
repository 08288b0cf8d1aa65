/**
 * The two capture actions this page serves to the gateway, declared with the same ports —
 * names, types, arity and required marks — as the gateway catalogue's `capture_audio` and
 * `capture_transcription` (schemas.test.ts holds them to `flow__catalogue.json`), so a flow
 * checked against the gateway's registry finds every port it names here.
 */
import { z } from 'zod';
import { defineAction, port } from '../../wire/schema';

const DEADLINE = {
  'x-a11-deadline': {
    description: 'When to stop capturing: milliseconds since the Unix epoch, or nanoseconds with an `ns` suffix.',
  },
};

/** `{"command": "stop"}` ends a capture gracefully. */
export const audioControlEvent = z.object({ command: z.string() }).loose();

/** How to open the microphone; every field is optional and 0/empty means "the default". */
export const audioInputOptions = z
  .object({
    sample_rate: z.number().nonnegative().optional(),
    channels: z.number().int().nonnegative().optional(),
    buffer_frames: z.number().int().nonnegative().optional(),
    block_frames: z.number().int().nonnegative().optional(),
    device_name: z.string().optional(),
    device_index: z.number().int().optional(),
    ring_blocks: z.number().int().nonnegative().optional(),
  })
  .loose();

export type AudioInputOptions = z.infer<typeof audioInputOptions>;

export const captureAudioSchema = defineAction({
  name: 'capture_audio',
  description:
    "Capture the page's microphone and stream AudioBuffers until a stop control event arrives, the deadline passes or the call is cancelled.",
  inputs: {
    control_events: port.json(audioControlEvent, {
      tag: 'a11.sdk.AudioControlEvent',
      stream: true,
      required: true,
      description: 'Control commands; {"command": "stop"} finishes capture.',
    }),
    options: port.json(audioInputOptions, {
      tag: 'a11.sdk.AudioInputOptions',
      required: true,
      description: 'Sample rate, channels and buffer size; an empty object takes the defaults (16 kHz mono, 100 ms buffers).',
    }),
  },
  outputs: {
    audio: port.msgpack('a11.sdk.AudioBuffer', { stream: true, description: 'Captured audio, one AudioBuffer per block.' }),
    events: port.json(undefined, {
      tag: 'a11.sdk.AudioCaptureEvent',
      stream: true,
      description: 'Lifecycle events: started, buffers_dropped (with a count), stopped.',
    }),
  },
  headers: DEADLINE,
});

export const captureTranscriptionSchema = defineAction({
  name: 'capture_transcription',
  description:
    "Capture the page's microphone and stream the recognised text; recognition runs on the gateway's transcribe_audio.",
  inputs: {
    asr_options: port.json(undefined, {
      tag: 'a11.sdk.SpeechRecognizerOptions',
      description: 'Options passed on to transcribe_audio.',
    }),
    capture_options: port.json(audioInputOptions, {
      tag: 'a11.sdk.AudioInputOptions',
      description: 'How to open the microphone; the defaults when omitted.',
    }),
    control_events: port.json(audioControlEvent, {
      tag: 'a11.sdk.AudioControlEvent',
      stream: true,
      required: true,
      description: 'Control commands; {"command": "stop"} finishes transcription.',
    }),
  },
  outputs: {
    events: port.json(undefined, {
      tag: 'a11.sdk.TranscriptionEvent',
      stream: true,
      description: 'Lifecycle events: capture_started, inference_started, inference_stopped, capture_stopped.',
    }),
    transcription_pieces: port.text({ stream: true, description: 'Recognised text, a piece per utterance.' }),
  },
  headers: DEADLINE,
});
