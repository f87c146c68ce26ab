import type { Logger } from '../log';

/** The points of the core's start where a host's stop (Ctrl-C while loading) is honoured, in the order they come. */
export type StartStep = 'service' | 'journal' | 'recovery' | 'studio ledger' | 'hot folders' | 'submitting';

/**
 * Called before each step of the core's start. A host that stopped meanwhile (its signal aborted) makes the start
 * throw the signal's reason here, so nothing from this step on runs; the caller closes what the steps before opened.
 * The debug line says how far a start got (and is where tests stop it at a chosen step).
 */
export function beforeStartStep(step: StartStep, signal: AbortSignal | undefined, logger: Logger): void {
  logger.debug('core start', { step });
  signal?.throwIfAborted();
}

/**
 * `work` (a step that may take a while: hot folders scanning), or the signal's abort if it comes first — then the
 * caller's next beforeStartStep throws and its cleanup closes what `work` was doing. Rejects only with `work`'s error.
 */
export function untilAborted(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return work.then(() => undefined);
  return new Promise<void>((resolve, reject) => {
    const stop = () => resolve();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    work.then(() => resolve(), reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
