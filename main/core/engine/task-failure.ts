import { IllegalTransitionError } from '../../../shared/engine/item-states';
import { isJournalClosed } from '../journal/closed';
import { isTestRun } from '../journal/transitions';
import type { RunnerCore } from './runner-core';

/**
 * What a background engine task that threw means (Runner.run). Never a crash of the process: the journal already
 * says what the next start picks up.
 */
export function settleTaskFailure(core: RunnerCore, error: unknown): void {
  // The journal refused the move, parked the item (attention) and logged it at error: show the parked item; under
  // test also surface it as an unhandled rejection so the path is fixed.
  if (error instanceof IllegalTransitionError) {
    try {
      const parked = core.o.journal.getItem(error.itemId);
      if (parked) core.o.onItem(parked);
    } catch { /* the journal closed meanwhile: the attention is on the record for the next start */ }
    if (isTestRun()) throw error;
    return;
  }
  // A task the stop did not wait for (a poll's answer, a save past the abandon wait) reached the closed journal:
  // nothing was written.
  if (isJournalClosed(error)) { core.o.logger.debug('engine task ended: the journal is closed', { error: error.message }); return; }
  core.o.logger.error('engine task failed', { error: error instanceof Error ? error.message : String(error) });
}
