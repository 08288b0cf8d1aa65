import { join } from 'node:path';
import { answerDiscovery } from '../wire/discovery-http.js';
import type { ActionRegistry } from '../wire/registry.js';
import { trackFlowRuns } from './activity/flow-runs.js';
import type { Microphone } from './actions/audio/microphone.js';
import type { SpeechBackend } from './actions/audio/recognizer.js';
import type { Environment } from './actions/llm/providers/index.js';
import { serveA11 } from './connection.js';
import { registerFlowTools } from './flow-tools/index.js';
import { runFlowWithRuntime } from './flow-tools/run.js';
import { defaultConversationsPath, Gateway } from './gateway.js';
import type { GatewayLimits } from './limits.js';
import { silentLogger, type Logger } from './logger.js';
import { newToken } from './security.js';
import type { FlowPolicy } from './stdlib/index.js';
import { startServer, type RunningServer } from './server.js';

export interface StartOptions {
  host: string;
  port: number;
  staticDir: string;
  allowRemote?: boolean;
  extraOrigins?: readonly string[];
  /** Fixed launch token; a random one otherwise. */
  token?: string;
  shellTools: boolean;
  audio: boolean;
  audioCapture?: boolean;
  speechRecognition?: boolean;
  flowTools: boolean;
  /** Serve the Flow standard library under this policy (absent: not served). */
  stdlib?: FlowPolicy;
  /** Where conversations are kept; defaults to the XDG data directory. */
  dataDir?: string;
  speech?: SpeechBackend;
  microphone?: Microphone;
  limits?: Partial<GatewayLimits>;
  env: Environment;
  logger?: Logger;
}

export interface StartedGateway {
  gateway: Gateway;
  server: RunningServer;
  token: string;
  /** What `flowplay serve` prints: where to go, and what was found. */
  banner(): Promise<string>;
  /** Ends every connection and run, then every shell, then the store. */
  close(): Promise<void>;
}

/** The whole of `flowplay serve`: the gateway's state, its registry per connection, and the server. */
export async function startGateway(options: StartOptions): Promise<StartedGateway> {
  const logger = options.logger ?? silentLogger;
  const gateway = new Gateway({
    shellTools: options.shellTools,
    audio: options.audio,
    ...(options.audioCapture === false ? { audioCapture: false } : {}),
    ...(options.speechRecognition === false ? { speechRecognition: false } : {}),
    ...(options.stdlib ? { stdlib: options.stdlib } : {}),
    ...(options.flowTools ? { flowTools: (registry: ActionRegistry) => registerFlowTools(registry, trackFlowRuns(runFlowWithRuntime)) } : {}),
    conversationsPath: options.dataDir ? join(options.dataDir, 'conversations.sqlite') : defaultConversationsPath(options.env),
    env: options.env,
    ...(options.speech ? { speech: options.speech } : {}),
    ...(options.microphone ? { microphone: options.microphone } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    logger,
  });
  const token = options.token ?? newToken();
  const described = gateway.describedRegistry();
  let server: RunningServer;
  try {
    server = await startServer({
      host: options.host,
      port: options.port,
      staticDir: options.staticDir,
      token,
      ...(options.extraOrigins ? { extraOrigins: options.extraOrigins } : {}),
      ...(options.allowRemote ? { allowRemote: true } : {}),
      limits: gateway.limits,
      serveConnection: serveA11(gateway),
      discovery: (method, url) => answerDiscovery(method, url, described),
      status: () => gateway.status(),
      logger,
    });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  logger.info('listening', { url: server.url.replace(token, '…'), a11: server.a11Url.replace(token, '…') });
  return {
    gateway,
    server,
    token,
    async banner() {
      const capabilities = await gateway.capabilities();
      const width = Math.max(...capabilities.map((line) => line.name.length));
      const base = server.url.slice(0, server.url.indexOf('?'));
      return [
        `Flow Playground: ${server.url}`,
        `A11 endpoint:    ${server.a11Url.slice(0, server.a11Url.indexOf('?'))}  (local programs connect as they are; pages and remote clients add ?token=…)`,
        `Discovery:       ${base}actions`,
        '',
        ...capabilities.map((line) => `  ${line.name.padEnd(width)}  ${line.detail}`),
        '',
      ].join('\n');
    },
    async close() {
      await server.close();
      await gateway.close();
    },
  };
}
