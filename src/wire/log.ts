import { Chunk } from './chunk.js';
import { encodeText } from './codecs.js';

/** The reserved output every action narrates on; no schema declares it. */
export const LOG_PORT = '__log__';

/** Quietest first. */
export const LOG_LEVELS = ['debug', 'info', 'warning', 'error', 'critical'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

const LEVEL_ALIASES: Record<string, LogLevel> = { warn: 'warning', fatal: 'critical' };

export function parseLogLevel(text: string): LogLevel | undefined {
  const word = text.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(word) ? (word as LogLevel) : LEVEL_ALIASES[word];
}

export interface LogRecordOptions {
  level?: LogLevel;
  /** Runtime narration rather than the action's own words. */
  internal?: boolean;
  channel?: string;
  file?: string;
  line?: number;
}

/** A log record as it travels on `__log__`: the message, a timestamp and its attributes. */
export function logChunk(message: unknown, options: LogRecordOptions = {}, now = Date.now()): Chunk {
  const attributes = new Map<string, Uint8Array>([['level', encodeText(options.level ?? DEFAULT_LOG_LEVEL)]]);
  // Always spelled out: readers in other languages treat a missing `internal` as false anyway.
  attributes.set('internal', encodeText(options.internal ? 'true' : 'false'));
  if (options.channel) attributes.set('channel', encodeText(options.channel));
  if (options.file) attributes.set('file', encodeText(options.file));
  if (options.line !== undefined) attributes.set('lineno', encodeText(String(options.line)));
  const meta = { timestamp: BigInt(now) * 1000n, attributes };
  return typeof message === 'string' ? Chunk.text(message, meta) : Chunk.json(message, undefined, meta);
}

export interface LogRecord {
  level: LogLevel;
  message: unknown;
  /** Milliseconds since the epoch. */
  time?: number;
  internal: boolean;
  channel?: string;
}

/** Reads a `__log__` chunk back into a record. */
export function readLogChunk(chunk: Chunk): LogRecord {
  const text = (name: string) => {
    const bytes = chunk.attribute(name);
    return bytes ? new TextDecoder().decode(bytes) : undefined;
  };
  const record: LogRecord = {
    level: parseLogLevel(text('level') ?? '') ?? DEFAULT_LOG_LEVEL,
    message: chunk.value,
    internal: text('internal') === 'true',
  };
  if (chunk.timestamp !== undefined) record.time = Number(chunk.timestamp / 1000n);
  const channel = text('channel');
  if (channel) record.channel = channel;
  return record;
}
