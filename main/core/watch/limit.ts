/** Runs `task` over `items` with at most `concurrency` running at once; a failing task does not stop the others. */
export async function runLimited<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch {
        // Each task reports its own failures; one bad file must not end the scan.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/** A counting semaphore: `run` waits for a free slot (hashing a burst of 1,000 files must not open 1,000 files). */
export function createLimiter(concurrency: number): <R>(fn: () => Promise<R>) => Promise<R> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    // A released slot passes straight to the next waiter, so a newcomer can never overtake it.
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
