/**
 * Waits for `work` at most `ms` (a stop or a quit must end even when what it waits for hangs): true when it settled
 * in time, fulfilled or rejected. The timer is cleared either way, so it never keeps a process alive.
 */
export async function finishedWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.min(ms, 2 ** 31 - 1))));
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
