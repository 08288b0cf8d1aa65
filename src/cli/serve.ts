import { fileURLToPath } from 'node:url';
import { FileMicrophone } from '../gateway/actions/audio/microphone.js';
import { startGateway, type StartedGateway } from '../gateway/start.js';
import { createLogger, LOG_SEVERITIES, type Severity } from '../gateway/logger.js';
import { isLoopback } from '../gateway/security.js';
import { describeListenFailure } from './listen-failure.js';
import { UsageError, type Command, type ParsedArgs } from './command.js';
import { policyFrom, policyOptions } from './policy.js';
import type { FlowPolicy } from '../gateway/stdlib/index.js';

/**
 * What the standard library may do for flows on the gateway: the same flags as `flowplay run`,
 * except that with no --root it reads nothing (a gateway answers other programs, not its user).
 */
function gatewayPolicy(values: ParsedArgs['values']): FlowPolicy {
  const policy = policyFrom(values);
  if (values.root === undefined && values.unrestricted !== true) policy.roots = [];
  return policy;
}

export const DEFAULT_PORT = 8011;

/** The built app sits in `dist/` at the project root, two levels above `build/node/`. */
function defaultStaticDir(): string {
  return fileURLToPath(new URL('../../dist/', import.meta.url));
}

export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got '${text}'.`);
  }
  return port;
}

function parseCount(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a whole number of at least 1, got '${text}'.`);
  return value;
}

function parseOrigin(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url.origin;
  } catch {
    throw new UsageError(`--allow-origin takes an origin such as http://127.0.0.1:5173, got '${text}'.`);
  }
}

const string = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the playground and its A11 gateway on http://127.0.0.1:8011/.',
  usage: [
    'flowplay serve [--host 127.0.0.1] [--port 8011] [options]',
    '',
    '  --host ADDRESS          interface to listen on (loopback unless --allow-remote)',
    '  --port N                port for the page, /a11 and /actions (0: any free port)',
    '  --allow-remote          allow a non-loopback --host; remote clients must present the token',
    '  --allow-origin ORIGIN   also let pages from ORIGIN connect, with the token (repeatable)',
    '  --token TOKEN           use this launch token instead of a random one (also $FLOWPLAY_TOKEN)',
    '  --no-shell-tools        do not serve shell_start/execute/list/exit',
    '  --no-audio              do not serve audio capture and speech recognition',
    '  --no-audio-capture      do not serve list_audio_inputs and capture_audio',
    '  --no-speech-recognition do not serve capture_transcription and transcribe_audio',
    '  --no-flow-tools         do not serve flow_actions/flow_check/flow_run',
    '  --no-stdlib             do not serve the Flow standard library (files, clock, processes, HTTP, …)',
    '  --root DIR              a directory the standard library may read (repeatable; default: none)',
    '  --allow-write / --allow-run / --allow-net / --allow-local-net / --allow-env NAME / --unrestricted',
    '                          what else it may do, as for flowplay run (default: nothing)',
    '  --data-dir DIR          where conversations are kept (default $FLOWPLAY_DATA_DIR or ~/.local/share/flowplay)',
    '  --microphone-file WAV   play a sound file as the host microphone (demos on machines without one)',
    '  --max-connections N     open A11 connections allowed at once (1024)',
    '  --max-calls N           calls one connection may run at once (512)',
    '  --log-format json|text  structured log lines on stderr (json unless stderr is a terminal)',
    '  --log-level LEVEL       debug, info, warn or error (info)',
    '  --static DIR            the built app to serve (dist/)',
    '',
    'The page URL it prints carries a per-launch ?token=; browsers must present it on /a11.',
  ].join('\n'),
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: String(DEFAULT_PORT) },
    'allow-remote': { type: 'boolean', default: false },
    'allow-origin': { type: 'string', multiple: true },
    token: { type: 'string' },
    'no-shell-tools': { type: 'boolean', default: false },
    'no-audio': { type: 'boolean', default: false },
    'no-audio-capture': { type: 'boolean', default: false },
    'no-speech-recognition': { type: 'boolean', default: false },
    'no-flow-tools': { type: 'boolean', default: false },
    'no-stdlib': { type: 'boolean', default: false },
    ...policyOptions,
    'data-dir': { type: 'string' },
    'microphone-file': { type: 'string' },
    'max-connections': { type: 'string' },
    'max-calls': { type: 'string' },
    'log-format': { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    static: { type: 'string' },
  },
  async run({ values }) {
    const host = String(values.host);
    const allowRemote = values['allow-remote'] === true;
    if (!isLoopback(host) && !allowRemote) {
      throw new UsageError(
        `Refusing to listen on ${host}: that reaches beyond this machine, and the gateway runs shell commands. ` +
          'Pass --allow-remote if that is what you want (remote clients must then present the token).',
      );
    }
    const format = string(values['log-format']) ?? (process.stderr.isTTY ? 'text' : 'json');
    if (format !== 'json' && format !== 'text') throw new UsageError(`--log-format is json or text, got '${format}'.`);
    const level = String(values['log-level']);
    if (!(LOG_SEVERITIES as readonly string[]).includes(level)) {
      throw new UsageError(`--log-level is one of ${LOG_SEVERITIES.join(', ')}, got '${level}'.`);
    }
    const token = string(values.token) ?? process.env.FLOWPLAY_TOKEN;
    if (token !== undefined && token.length < 8) throw new UsageError('--token must be at least 8 characters.');
    const logger = createLogger({ format, minimum: level as Severity, write: (line) => process.stderr.write(line) });
    const microphoneFile = string(values['microphone-file']);
    const maxConnections = string(values['max-connections']);
    const maxCalls = string(values['max-calls']);

    const port = parsePort(String(values.port));
    let started: StartedGateway;
    try {
      started = await startGateway({
        host,
        port,
        staticDir: string(values.static) ?? defaultStaticDir(),
        allowRemote,
        extraOrigins: ((values['allow-origin'] as string[] | undefined) ?? []).map(parseOrigin),
        ...(token ? { token } : {}),
        shellTools: values['no-shell-tools'] !== true,
        audio: values['no-audio'] !== true,
        audioCapture: values['no-audio-capture'] !== true,
        speechRecognition: values['no-speech-recognition'] !== true,
        flowTools: values['no-flow-tools'] !== true,
        ...(values['no-stdlib'] === true ? {} : { stdlib: gatewayPolicy(values) }),
        ...(string(values['data-dir']) ? { dataDir: string(values['data-dir'])! } : {}),
        ...(microphoneFile ? { microphone: new FileMicrophone(microphoneFile) } : {}),
        limits: {
          ...(maxConnections ? { maxConnections: parseCount('max-connections', maxConnections) } : {}),
          ...(maxCalls ? { maxCallsPerConnection: parseCount('max-calls', maxCalls) } : {}),
        },
        env: process.env,
        logger,
      });
    } catch (error) {
      const reason = describeListenFailure(error, host, port);
      if (reason === undefined) throw error;
      process.stderr.write(`flowplay serve: ${reason}\n`);
      return 1;
    }

    process.once('exit', () => started.gateway.killAllNow());
    const stopped = new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        logger.info('shutting down', { signal });
        process.once(signal, () => {
          logger.warn('second signal: exiting now', { signal });
          process.exit(130);
        });
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    process.stdout.write(await started.banner());
    await stopped;
    await started.close();
    logger.info('stopped');
    return 0;
  },
};
