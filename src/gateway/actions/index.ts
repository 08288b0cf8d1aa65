import type { ActionRegistry } from '../../wire/registry.js';
import type { ConnectionScope } from '../scope.js';
import { registerAudioActions } from './audio/handlers.js';
import type { Microphone } from './audio/microphone.js';
import type { SpeechBackend } from './audio/recognizer.js';
import { registerConversationActions } from './conversations/actions.js';
import type { ConversationStore } from './conversations/store.js';
import { registerInteractWithLlm } from './llm/handler.js';
import type { Environment } from './llm/providers/index.js';
import { registerShellActions } from './shell/handlers.js';
import type { ShellManager } from './shell/shell-manager.js';

/** What the gateway's own actions run on; shared by every connection except `scope`. */
export interface GatewayActionOptions {
  /** Serve shell_start/execute/list/exit. */
  shellTools: boolean;
  /** Serve list_audio_inputs, capture_audio, capture_transcription, transcribe_audio. */
  audio: boolean;
  /** With `audio`: serve list_audio_inputs and capture_audio (default on). */
  audioCapture?: boolean;
  /** With `audio`: serve capture_transcription and transcribe_audio (default on). */
  speechRecognition?: boolean;
  shells: ShellManager;
  /** The connection these registrations serve (shells are scoped to it). */
  scope: ConnectionScope;
  speech: SpeechBackend;
  microphone: Microphone;
  conversations: ConversationStore;
  /** Where LLM keys, base URLs and the default provider come from. */
  env: Environment;
}

/**
 * Registers the gateway's actions, in the order the reference gateway does: conversations and
 * the model, then the shell, then audio. (The flow tools go last, registered by the server,
 * so that a composition can reach everything before them.)
 */
export function registerGatewayActions(registry: ActionRegistry, options: GatewayActionOptions): ActionRegistry {
  registerInteractWithLlm(registry, { env: options.env, recorder: options.conversations, registry });
  registerConversationActions(registry, options.conversations);
  if (options.shellTools) registerShellActions(registry, { manager: options.shells, scope: options.scope });
  if (options.audio) {
    registerAudioActions(registry, {
      backend: options.speech,
      microphone: options.microphone,
      capture: options.audioCapture !== false,
      recognition: options.speechRecognition !== false,
    });
  }
  return registry;
}
