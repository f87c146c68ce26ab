// Polling for tests in every area: wait until something the test cannot await directly (a child process, a count
// on a fake, a port) has happened, and say what never happened when it times out.

export interface UntilOptions {
  /** Give up after this long (default 20 s). */
  timeoutMs?: number;
  /** Check this often (default 20 ms). */
  intervalMs?: number;
  /** Appended to the timeout error: what the test saw last (process output, a state). */
  detail?: () => string;
}

/**
 * Resolves once `condition` holds; throws `timed out waiting for <what>` once `timeoutMs` has passed. A condition
 * that answers synchronously is not awaited: this returns in the same turn it answered true, and the test sees the
 * state it saw.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 20_000, intervalMs = 20, detail }: UntilOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = condition();
    if (typeof answer === 'boolean' ? answer : await answer) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)${detail ? `\n${detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * 'done' if `work` ends within `ms`, else 'still waiting' (and `work` is left to itself): a bound on a hang, not a
 * timing — `expect(await within(close(), 10_000)).toBe('done')` fails in 10 s where awaiting it would never end.
 */
export function within(work: Promise<unknown>, ms: number): Promise<'done' | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  return Promise.race([work.then(() => 'done' as const), late]).finally(() => clearTimeout(timer));
}
