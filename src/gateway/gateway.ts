import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ActionRegistry } from '../wire/registry.js';
import { GatewayActivity } from './activity/activity.js';
import { AttributedRegistry } from './activity/attribution.js';
import { buildStatusReport, type StatusOptions } from './activity/report.js';
import { gatewayStatusHandler } from './activity/status-action.js';
import { gatewayStatusSchema, type GatewayStatusReport } from './activity/status-schema.js';
import { AlsaMicrophone, FileMicrophone, type Microphone } from './actions/audio/microphone.js';
import { PocketsphinxBackend } from './actions/audio/pocketsphinx.js';
import type { SpeechBackend } from './actions/audio/recognizer.js';
import { ConversationStore } from './actions/conversations/store.js';
import { registerGatewayActions } from './actions/index.js';
import { configuredProviders, DEFAULT_PROVIDER_ENV, type Environment } from './actions/llm/providers/index.js';
import { ShellManager } from './actions/shell/shell-manager.js';
import { DEFAULT_LIMITS, type GatewayLimits } from './limits.js';
import { silentLogger, type Logger } from './logger.js';
import { GLOBAL_SCOPE, type ConnectionScope } from './scope.js';
import { registerStandardLibrary, type FlowPolicy } from './stdlib/index.js';

/** How long shutdown waits for cancelled calls to finish cleaning up before ending what is left itself. */
const SHUTDOWN_GRACE_MS = 8000;

/** Registers the flow tools on a registry (last, so they can compose everything before them). */
export type FlowToolsInstaller = (registry: ActionRegistry) => void;

export interface GatewayOptions {
  shellTools: boolean;
  audio: boolean;
  audioCapture?: boolean;
  speechRecognition?: boolean;
  /** The Flow standard library (files, clock, processes, HTTP …) under this policy; absent: not served. */
  stdlib?: FlowPolicy;
  /** Installs flow_actions/flow_check/flow_run; absent when they are turned off. */
  flowTools?: FlowToolsInstaller;
  /** Where conversations are kept; `:memory:` for nothing on disk. */
  conversationsPath: string;
  env: Environment;
  speech?: SpeechBackend;
  microphone?: Microphone;
  limits?: Partial<GatewayLimits>;
  logger?: Logger;
}

/** Where conversations live unless told otherwise: $FLOWPLAY_DATA_DIR, else the XDG data directory. */
export function defaultConversationsPath(env: Environment): string {
  const dir = env.FLOWPLAY_DATA_DIR || join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'flowplay');
  return join(dir, 'conversations.sqlite');
}

/**
 * The state every connection shares — shells, the conversation store, the recogniser, the
 * microphone — and the registry each connection gets: the gateway's actions bound to that
 * connection's scope, then the flow tools.
 */
export class Gateway {
  readonly shells = new ShellManager();
  /** What is running now: connections, calls, flow runs, child processes (see the status report). */
  readonly activity = new GatewayActivity();
  readonly conversations: ConversationStore;
  readonly speech: SpeechBackend;
  readonly microphone: Microphone;
  readonly limits: GatewayLimits;
  readonly logger: Logger;
  readonly #options: GatewayOptions;
  #closed = false;

  constructor(options: GatewayOptions) {
    this.#options = options;
    this.conversations = new ConversationStore(options.conversationsPath);
    this.speech = options.speech ?? new PocketsphinxBackend();
    this.microphone = options.microphone ?? new AlsaMicrophone();
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.logger = options.logger ?? silentLogger;
  }

  /** The registry one connection's calls are served from. */
  registryFor(scope: ConnectionScope): ActionRegistry {
    const registry = registerGatewayActions(new AttributedRegistry(this.activity, scope), {
      shellTools: this.#options.shellTools,
      audio: this.#options.audio,
      audioCapture: this.#options.audioCapture !== false,
      speechRecognition: this.#options.speechRecognition !== false,
      shells: this.shells,
      scope,
      speech: this.speech,
      microphone: this.microphone,
      conversations: this.conversations,
      env: this.#options.env,
    });
    if (this.#options.stdlib) registerStandardLibrary(registry, this.#options.stdlib, { environment: this.#options.env });
    this.#options.flowTools?.(registry);
    registry.register(gatewayStatusSchema, gatewayStatusHandler((askingCall) => this.status({ askingCall })));
    return registry;
  }

  /** What the gateway is running right now (`GET /status`, `gateway_status`). */
  status(options: StatusOptions = {}): Promise<GatewayStatusReport> {
    return buildStatusReport({ activity: this.activity, shells: () => this.shells.held() }, options);
  }

  /** What discovery (`GET /actions`) describes: the same actions, outside any connection. */
  describedRegistry(): ActionRegistry {
    return this.registryFor(GLOBAL_SCOPE);
  }

  /** What was found at start, one line per capability, for the banner. */
  async capabilities(): Promise<{ name: string; detail: string }[]> {
    const env = this.#options.env;
    const providers = configuredProviders(env);
    const fallback = env[DEFAULT_PROVIDER_ENV]?.trim() || 'echo';
    const llm =
      (providers.length ? providers.map((provider) => `${provider.name} (${provider.via})`).join(', ') : 'no provider configured by the environment') +
      `; calls that name none use ${fallback}${fallback === 'echo' ? ' (offline, repeats the user back)' : ''}`;
    const lines = [
      { name: 'shell', detail: this.#options.shellTools ? 'bash sessions' : 'off (--no-shell-tools)' },
      {
        name: 'speech',
        detail: !this.#options.audio ? 'off (--no-audio)' : this.#options.speechRecognition === false ? 'off (--no-speech-recognition)' : await this.speech.describe(),
      },
      {
        name: 'microphone',
        detail: !this.#options.audio ? 'off (--no-audio)' : this.#options.audioCapture === false ? 'off (--no-audio-capture)' : await this.microphone.describe(),
      },
      { name: 'llm', detail: llm },
      { name: 'stdlib', detail: this.#stdlibSummary() },
      { name: 'flow tools', detail: this.#flowToolNames() },
      { name: 'conversations', detail: this.conversations.path },
    ];
    return lines;
  }

  #stdlibSummary(): string {
    const policy = this.#options.stdlib;
    if (!policy) return 'off (--no-stdlib)';
    const reads = policy.unrestricted ? 'the whole filesystem' : policy.roots.length ? policy.roots.join(', ') : 'no files';
    const grants = [
      `reads ${reads}`,
      ...(policy.writable ? ['writes'] : []),
      ...(policy.processes.enabled ? ['runs programs'] : []),
      policy.network.enabled ? `network${policy.network.allowLoopback ? ' (local too)' : ''}` : 'no network',
    ];
    return grants.join('; ');
  }

  #flowToolNames(): string {
    if (!this.#options.flowTools) return 'off (--no-flow-tools)';
    const served = this.describedRegistry()
      .names()
      .filter((name) => name.startsWith('flow_'));
    return served.join(', ');
  }

  /**
   * Ends everything still running: waits (a bounded time) for cancelled calls to finish their
   * cleanup, ends every shell, then any child process still alive; closes the store.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const settled = await this.activity.settled(SHUTDOWN_GRACE_MS);
    if (!settled) this.logger.warn('calls still running at shutdown', { handlers: this.activity.runningHandlers });
    await this.shells.close();
    await this.activity.children.terminateAll();
    this.conversations.close();
  }

  /** Kills every shell and child process at once (the process is exiting). */
  killAllNow(): void {
    this.shells.killAll();
    this.activity.children.killAllNow();
  }
}

export { FileMicrophone };
