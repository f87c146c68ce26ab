// Small helpers the benches share (files starting with `_` are not run by `npm run bench`).
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';

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

/**
 * The disk's own price of a durable write, in ms each: append 4 KB to `path` and fdatasync it, `count` times (as a
 * WAL commit does) — the floor under any fsynced figure measured in the same run.
 */
export function bareFdatasyncs(path: string, count: number): number[] {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 7);
  const out: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const t0 = process.hrtime.bigint();
      writeSync(fd, block);
      fdatasyncSync(fd);
      out.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}
