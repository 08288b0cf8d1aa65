import { z } from 'zod';

export const AUDIO_INPUT_OPTIONS_TAG = 'a11.sdk.AudioInputOptions';
export const SPEECH_RECOGNIZER_OPTIONS_TAG = 'a11.sdk.SpeechRecognizerOptions';
export const AUDIO_CONTROL_EVENT_TAG = 'a11.sdk.AudioControlEvent';
export const AUDIO_CAPTURE_EVENT_TAG = 'a11.sdk.AudioCaptureEvent';
export const TRANSCRIPTION_EVENT_TAG = 'a11.sdk.TranscriptionEvent';
export const AUDIO_DEVICE_INFO_TAG = 'a11.sdk.AudioDeviceInfo';

/** Which input to open and how (the reference's AudioInputOptions; 0 means "the device's own"). */
export const audioInputOptionsSchema = z.looseObject({
  device_index: z.number().int().default(-1),
  device_name: z.string().default(''),
  sample_rate: z.number().min(0).default(0),
  channels: z.number().int().min(0).max(32).default(0),
  block_frames: z.number().int().positive().default(256),
  ring_blocks: z.number().int().positive().default(32),
  buffer_frames: z.number().int().min(0).default(0),
});
export type AudioInputOptions = z.infer<typeof audioInputOptionsSchema>;

/**
 * The reference's SpeechRecognizerOptions (its whisper-specific fields are accepted and ignored
 * where they mean nothing here), plus what constrains an offline recogniser: `words` (the only
 * words to listen for; a grammar is generated from them) or `grammar` (a JSGF grammar), and
 * `punctuate` (end each utterance as a sentence, since the recogniser emits none).
 */
export const speechRecognizerOptionsSchema = z.looseObject({
  model: z.string().default(''),
  language: z.string().default('auto'),
  min_silence_millis: z.number().int().min(0).max(60_000).default(600),
  words: z.array(z.string().min(1)).optional().describe('Listen only for these words or phrases.'),
  grammar: z.string().min(1).optional().describe('A JSGF grammar the speech must follow.'),
  punctuate: z.boolean().default(true).describe('Capitalise each utterance and end it with . or ?.'),
});
export type SpeechRecognizerOptions = z.infer<typeof speechRecognizerOptionsSchema>;

export const audioControlEventSchema = z.looseObject({ command: z.literal('stop') });
export type AudioControlEvent = z.infer<typeof audioControlEventSchema>;

export type AudioCaptureEvent = { kind: 'started' } | { kind: 'buffers_dropped'; dropped: number } | { kind: 'stopped' };
export type TranscriptionEvent = { kind: 'capture_started' | 'inference_started' | 'inference_stopped' | 'capture_stopped' };

/** One input device, as list_audio_inputs reports it. */
export interface AudioDeviceInfo {
  index: number;
  name: string;
  host_api: string;
  max_input_channels: number;
  max_output_channels: number;
  default_sample_rate: number;
  is_default_input: boolean;
  is_default_output: boolean;
}
