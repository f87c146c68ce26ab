import { createLogger, type LogRecord } from '../../../main/core/log';
import type { NormalizeContext } from '../../../main/core/service/normalize';

/** A logger that keeps every record (debug included) so tests can assert on warnings and on redaction. */
export function recordingLogger() {
  const records: LogRecord[] = [];
  const logger = createLogger({ sink: (r) => records.push(r), minLevel: 'debug' });
  return { logger, records, lines: () => records.map((r) => JSON.stringify(r)) };
}

export function normalizeContext(endpoint = 'GET /api/v1/test') {
  const { logger, records } = recordingLogger();
  const ctx: NormalizeContext = { endpoint, log: logger, baseUrl: 'https://svc.example.com/api/v1' };
  return { ctx, records };
}
