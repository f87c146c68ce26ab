// Small helpers the benches share (files starting with `_` are not run by `npm run bench`).

/** The p-th percentile (0–100) of `values`, nearest rank; NaN when there are none. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** Polls `condition` every 10 ms; false when `timeoutMs` passed first (a bench reports a miss, it does not throw). */
export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}
