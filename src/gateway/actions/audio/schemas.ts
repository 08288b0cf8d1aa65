import { defineAction, port } from '../../../wire/schema.js';
import { gracefulDeadlineHeader } from '../headers.js';
import { AUDIO_BUFFER_TAG } from './audio-buffer.js';
import {
  AUDIO_CAPTURE_EVENT_TAG,
  AUDIO_CONTROL_EVENT_TAG,
  AUDIO_DEVICE_INFO_TAG,
  AUDIO_INPUT_OPTIONS_TAG,
  audioControlEventSchema,
  audioInputOptionsSchema,
  SPEECH_RECOGNIZER_OPTIONS_TAG,
  speechRecognizerOptionsSchema,
  TRANSCRIPTION_EVENT_TAG,
} from './options.js';

export const listAudioInputsSchema = defineAction({
  name: 'list_audio_inputs',
  description: "List the host's available audio input devices, one AudioDeviceInfo per input, as a stream.",
  outputs: {
    inputs: port.json(undefined, {
      stream: true,
      tag: AUDIO_DEVICE_INFO_TAG,
      description: 'One AudioDeviceInfo per available audio input device.',
    }),
  },
  headers: gracefulDeadlineHeader,
});

export const captureAudioSchema = defineAction({
  name: 'capture_audio',
  description:
    'Capture audio from an input device and stream fixed-size AudioBuffers until a stop control event arrives or the action is cancelled.',
  inputs: {
    control_events: port.json(audioControlEventSchema, {
      stream: true,
      required: true,
      tag: AUDIO_CONTROL_EVENT_TAG,
      description: 'Control commands; a stop command finishes capture gracefully.',
    }),
    options: port.json(audioInputOptionsSchema, {
      required: true,
      tag: AUDIO_INPUT_OPTIONS_TAG,
      description: 'Capture parameters: device selection, sample rate, channels and the delivered buffer size.',
    }),
  },
  outputs: {
    audio: port.msgpack(AUDIO_BUFFER_TAG, { stream: true, description: 'Stream of captured AudioBuffers.' }),
    events: port.json(undefined, {
      stream: true,
      tag: AUDIO_CAPTURE_EVENT_TAG,
      description: 'Stream of capture lifecycle and dropped-buffer events.',
    }),
  },
  headers: gracefulDeadlineHeader,
});

const asrOptions = port.json(speechRecognizerOptionsSchema, {
  tag: SPEECH_RECOGNIZER_OPTIONS_TAG,
  description: 'Speech recognition parameters; model is required.',
});

const pieces = port.text({ stream: true, description: 'Recognized text pieces as utterances are decoded.' });

export const captureTranscriptionSchema = defineAction({
  name: 'capture_transcription',
  description:
    'Capture audio and stream recognized text pieces until a stop control event arrives or the action is cancelled.',
  inputs: {
    asr_options: asrOptions,
    capture_options: port.json(audioInputOptionsSchema, {
      tag: AUDIO_INPUT_OPTIONS_TAG,
      description: 'Optional capture parameters; the default input is used if omitted.',
    }),
    control_events: port.json(audioControlEventSchema, {
      stream: true,
      required: true,
      tag: AUDIO_CONTROL_EVENT_TAG,
      description: 'Control commands; a stop command finishes transcription gracefully.',
    }),
  },
  outputs: {
    events: port.json(undefined, {
      stream: true,
      tag: TRANSCRIPTION_EVENT_TAG,
      description: 'Stream of capture and inference lifecycle events.',
    }),
    transcription_pieces: pieces,
  },
  headers: gracefulDeadlineHeader,
});

export const transcribeAudioSchema = defineAction({
  name: 'transcribe_audio',
  description:
    'Transcribe a caller-supplied stream of AudioBuffers, emitting the same text pieces and lifecycle events as capture_transcription. ' +
    'Stopping is driven by closing the audio input or cancelling the action; there are no control events. ' +
    'Transcription is endpointed if the input stalls.',
  inputs: {
    asr_options: asrOptions,
    audio: port.msgpack(AUDIO_BUFFER_TAG, {
      stream: true,
      required: true,
      description: 'Stream of AudioBuffers to transcribe; closing it ends the run.',
    }),
  },
  outputs: {
    events: port.json(undefined, {
      stream: true,
      tag: TRANSCRIPTION_EVENT_TAG,
      description: 'Stream of inference lifecycle events.',
    }),
    transcription_pieces: pieces,
  },
  headers: gracefulDeadlineHeader,
});
