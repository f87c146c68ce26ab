// The engine's monotonic-enough clock for scheduling (poll delays, balance age, learned durations). Its own module
// so that the parts the runner core wires together (credit guard, follower, downloads) depend on it, not on the core.
export const nowMs = (): number => Date.now();

/** A wait, cut short when `signal` fires (an abandoned download, a stop). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); signal?.removeEventListener('abort', done); resolve(); };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
