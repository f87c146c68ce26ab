import { redactSecrets } from '../../../shared/redact';
import type { Logger } from '../log';
import { scrubImageBytes } from './http-errors';

/**
 * The injected logger may not know the key; this wrapper scrubs it (and any image bytes) from every line before
 * the line reaches the logger, whatever the logger does with it.
 */
export function redactingLogger(inner: Logger, secrets: readonly string[]): Logger {
  const clean = (text: string) => scrubImageBytes(redactSecrets(text, secrets));
  const cleanFields = (fields?: Record<string, unknown>) => (fields ? (JSON.parse(clean(JSON.stringify(fields))) as Record<string, unknown>) : undefined);
  return {
    debug: (message, fields) => inner.debug(clean(message), cleanFields(fields)),
    info: (message, fields) => inner.info(clean(message), cleanFields(fields)),
    warn: (message, fields) => inner.warn(clean(message), cleanFields(fields)),
    error: (message, fields) => inner.error(clean(message), cleanFields(fields)),
    child: (scope) => redactingLogger(inner.child(scope), secrets),
  };
}
