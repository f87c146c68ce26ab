import type { LogRecord } from '../log';

/**
 * The last `size` log records, in memory: a crash report must not depend on the log file (a full disk, a read-only
 * log folder, a rotation at the wrong moment), and it must not read what another process wrote there. Records
 * arrive already key-redacted by the logger; the report scrubs paths when it is written (scrub.ts).
 */
export interface LogTail {
  push(record: LogRecord): void;
  records(): LogRecord[];
}

export const CRASH_LOG_LINES = 200;

export function createLogTail(size = CRASH_LOG_LINES): LogTail {
  const ring: LogRecord[] = [];
  let next = 0;
  return {
    push(record) {
      if (ring.length < size) ring.push(record);
      else ring[next] = record;
      next = (next + 1) % size;
    },
    records() {
      return ring.length < size ? [...ring] : [...ring.slice(next), ...ring.slice(0, next)];
    },
  };
}

/** One sink that feeds several (the log file and the tail); a failing sink never stops the others. */
export function teeLogSinks(...sinks: ((record: LogRecord) => void)[]): (record: LogRecord) => void {
  return (record) => {
    for (const sink of sinks) {
      try {
        sink(record);
      } catch {
        // logging must never take the app down
      }
    }
  };
}
