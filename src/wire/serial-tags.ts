import { Media } from './media.js';

/**
 * The serialization tags: the `;type=` parameter that names a value's type in a chunk's media
 * type, and the only place a type is ever named on the wire. Peers in other languages match on
 * these exact strings, so they live here once; serial-tags.test.ts checks them against the
 * reference's table. Values the media type already describes (objects, arrays, strings) carry
 * no tag.
 */
export const SerialTags = {
  core: {
    chunk_metadata: 'a11.ChunkMetadata',
    chunk: 'a11.Chunk',
    node_ref: 'a11.NodeRef',
    node_fragment: 'a11.NodeFragment',
    port: 'a11.Port',
    action_message: 'a11.ActionMessage',
    wire_message: 'a11.WireMessage',
    status: 'a11.Status',
    time: 'a11.Time',
    duration: 'a11.Duration',
  },
  sdk: {
    interaction: 'a11.sdk.Interaction',
    peer: 'a11.sdk.Peer',
    action_config: 'a11.sdk.ActionConfig',
    usage_metadata: 'a11.sdk.UsageMetadata',
    interact_with_claude_config: 'a11.sdk.InteractWithClaudeConfig',
    interact_with_gemini_config: 'a11.sdk.InteractWithGeminiConfig',
    interact_with_ollama_config: 'a11.sdk.InteractWithOllamaConfig',
    interact_with_gemma_config: 'a11.sdk.InteractWithGemmaConfig',
  },
  audio: {
    audio_buffer: 'a11.sdk.AudioBuffer',
    audio_input_options: 'a11.sdk.AudioInputOptions',
    speech_recognizer_options: 'a11.sdk.SpeechRecognizerOptions',
    audio_device_info: 'a11.sdk.AudioDeviceInfo',
    audio_control_event: 'a11.sdk.AudioControlEvent',
    audio_capture_event: 'a11.sdk.AudioCaptureEvent',
    transcription_event: 'a11.sdk.TranscriptionEvent',
  },
} as const;

/** The media types of values whose type the media type itself states: no tag, no framing. */
export const PlainMediaTypes = {
  json: Media.json,
  msgpack: Media.msgpack,
  text: Media.text,
  bytes: Media.bytes,
} as const;
