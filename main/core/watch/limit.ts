import pLimit from 'p-limit';

/** Runs `task` over `items` with at most `concurrency` running at once; a failing task does not stop the others. */
export async function runLimited<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  const limit = pLimit(Math.max(1, concurrency));
  // Each task reports its own failures; one bad file must not end the scan.
  await limit.map(items, (item) => task(item).catch(() => undefined));
}

/** A FIFO concurrency limit: `run` waits for a free slot (hashing a burst of 1,000 files must not open 1,000 files). */
export function createLimiter(concurrency: number): <R>(fn: () => Promise<R>) => Promise<R> {
  const limit = pLimit(Math.max(1, concurrency));
  return (fn) => limit(fn);
}
