import { AppError } from '../../../shared/errors';

// A journal used after close() refuses with this, in JS, before anything reaches libsql: a write there is a Rust
// panic (the process aborts, exit 134, nothing can catch it) and a read may quietly answer nothing. Work the engine
// still finishes after a stop (a poll or a relay in flight) recognises it and lets it go: the journal already says
// what the next start must pick up.

export class JournalClosedError extends AppError {
  constructor(use: string) {
    super('internal', `the journal is closed (${use} after close)`);
    this.name = 'JournalClosedError';
  }
}

export function isJournalClosed(error: unknown): error is JournalClosedError {
  return error instanceof JournalClosedError;
}

/**
 * The same object whose every method refuses once `isClosed()` says so (close itself stays callable: a second close
 * does nothing). Plain properties pass through.
 */
export function refusingAfterClose<T extends object>(api: T, isClosed: () => boolean, exempt: readonly (keyof T)[] = []): T {
  const guarded = { ...api };
  for (const [key, value] of Object.entries(api) as [keyof T & string, unknown][]) {
    if (typeof value !== 'function' || exempt.includes(key)) continue;
    const method = value as (...args: unknown[]) => unknown;
    (guarded as Record<string, unknown>)[key] = (...args: unknown[]) => {
      if (isClosed()) throw new JournalClosedError(key);
      return method(...args);
    };
  }
  return guarded;
}
