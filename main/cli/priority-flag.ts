import { UsageError } from './errors';

// `--priority N` of `batchroom run` and `batchroom watch` (issue 32 #5): the batch's place in the engine's queue,
// higher submitted first (docs/engine.md "Queue order"). The spec's own limits (shared/engine/model.ts), said here
// as a usage error before its schema would refuse it.

export const MIN_PRIORITY = -100;
export const MAX_PRIORITY = 100;

/** The flag's value as a priority; 0 (the default) when not given. */
export function priorityOf(raw: string | undefined): number {
  if (raw === undefined) return 0;
  // Digits only: Number() would also take '0x10', '1e1' and ''.
  const value = /^[+-]?\d{1,3}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(value >= MIN_PRIORITY && value <= MAX_PRIORITY)) {
    throw new UsageError(`--priority must be a whole number from ${MIN_PRIORITY} to ${MAX_PRIORITY} (got "${raw}").`,
      'Higher is sent first; batches of equal priority go in the order they were queued. The default is 0.');
  }
  return value;
}
