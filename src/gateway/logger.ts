/** Severity of a log line, quietest first. */
export const LOG_SEVERITIES = ['debug', 'info', 'warn', 'error'] as const;
export type Severity = (typeof LOG_SEVERITIES)[number];

export type LogFields = Record<string, unknown>;

/** The gateway's own log: one structured record per event (not the actions' `__log__`). */
export interface Logger {
  log(severity: Severity, message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every record. */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  /** `json`: one JSON object per line; `text`: `time level message key=value …`. */
  format: 'json' | 'text';
  minimum: Severity;
  write: (line: string) => void;
}

export function createLogger(options: LoggerOptions, bound: LogFields = {}): Logger {
  const threshold = LOG_SEVERITIES.indexOf(options.minimum);
  const log = (severity: Severity, message: string, fields: LogFields = {}) => {
    if (LOG_SEVERITIES.indexOf(severity) < threshold) return;
    const all = { ...bound, ...fields };
    const time = new Date().toISOString();
    if (options.format === 'json') {
      options.write(`${JSON.stringify({ time, level: severity, msg: message, ...all }, jsonSafe)}\n`);
    } else {
      const pairs = Object.entries(all)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value, jsonSafe)}`);
      options.write(`${time} ${severity.padEnd(5)} ${message}${pairs.length ? ` ${pairs.join(' ')}` : ''}\n`);
    }
  };
  return {
    log,
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
    child: (fields) => createLogger(options, { ...bound, ...fields }),
  };
}

/** A logger that drops everything (tests, embedding). */
export const silentLogger: Logger = createLogger({ format: 'json', minimum: 'error', write: () => {} });

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return value.message;
  return value;
}
