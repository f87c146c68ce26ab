import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';

export const ENGINE_LOCK_FILE = 'engine.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One engine per state dir: two processes driving the same journal would both poll, download and (worse) submit
 * the same pending items. The lock is a pid file; a stale one (its process is gone, e.g. after kill -9) is taken over.
 */
export function acquireEngineLock(stateDir: string): () => void {
  const path = join(stateDir, ENGINE_LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => {
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && alive(holder)) {
        throw new AppError('conflict', `Another Batchroom process (pid ${holder}) is already running batches from ${stateDir}.`, { pid: holder });
      }
      rmSync(path, { force: true });
    }
  }
  throw new AppError('conflict', `Could not take the engine lock in ${stateDir}.`);
}
