import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { OWNER_ONLY_DIR_MODE, OWNER_ONLY_FILE_MODE, restrictToOwner } from '../core/settings/state-dir';
import { join } from 'node:path';
import type { LogRecord } from '../core/log';

/**
 * A log sink for the desktop app: JSON lines in the OS log folder (records arrive already redacted by the
 * logger). When the file passes `maxBytes` it becomes `main.old.log`, so logs never grow without bound.
 */
export function createFileLogSink(dir: string, options: { maxBytes?: number; name?: string } = {}): (record: LogRecord) => void {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const file = join(dir, `${options.name ?? 'main'}.log`);
  const old = join(dir, `${options.name ?? 'main'}.old.log`);
  let ready = false;
  let written = -1;
  return (record) => {
    try {
      if (!ready) {
        mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR_MODE });
        // Logs name the user's files: owner-only, including files an older version wrote 0644.
        restrictToOwner([file, old]);
        ready = true;
      }
      if (written < 0) {
        try {
          written = statSync(file).size;
        } catch {
          written = 0;
        }
      }
      const line = `${JSON.stringify(record)}\n`;
      if (written + line.length > maxBytes && written > 0) {
        renameSync(file, old);
        written = 0;
      }
      appendFileSync(file, line, { mode: OWNER_ONLY_FILE_MODE });
      written += Buffer.byteLength(line);
    } catch {
      // A full disk or a read-only log folder must never take the app down.
    }
  };
}
