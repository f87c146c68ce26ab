import { redactSecrets } from '../../shared/redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

export interface LogRecord {
  at: string;
  level: LogLevel;
  scope: string;
  message: string;
  fields?: Record<string, unknown>;
}

export interface LoggerOptions {
  scope?: string;
  /** Where redacted records go (a file appender, stderr, a test array). */
  sink: (record: LogRecord) => void;
  /** Secrets to scrub from every record (the API key in use), read at log time so a key change is honoured. */
  secrets?: () => readonly string[];
  minLevel?: LogLevel;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * Every log line passes through redaction before it reaches a sink: the key can only leak through a log if it
 * is both unknown to `secrets` and shaped unlike any API key.
 */
export function createLogger(options: LoggerOptions): Logger {
  const scope = options.scope ?? 'batchroom';
  const min = ORDER[options.minLevel ?? 'info'];
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    const secrets = options.secrets?.() ?? [];
    const safeFields = fields ? (JSON.parse(redactSecrets(JSON.stringify(fields), secrets)) as Record<string, unknown>) : undefined;
    options.sink({ at: new Date().toISOString(), level, scope, message: redactSecrets(message, secrets), ...(safeFields ? { fields: safeFields } : {}) });
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (child) => createLogger({ ...options, scope: `${scope}:${child}` }),
  };
}

/** A logger that drops everything (for tests and callers that do not care). */
export const silentLogger: Logger = createLogger({ sink: () => undefined, minLevel: 'error' });
