import { statesOf } from '../../../shared/engine/item-states';
import { lostEntryOf, recordLedger } from './done-record';
import type { DownloadPool } from './download-results';
import type { ExecutionFollower } from './follow-execution';
import { isOutagePause } from './outage-pause';
import type { RunnerCore } from './runner-core';
import { recoverPlacement, type SaverDeps } from './saver';
import { sweepOutputTemps } from './temp-sweep';

// Crash recovery (Runner.recover runs it once per start): what the journal says was in flight is picked up again —
// polled, downloaded, or judged lost — and nothing is submitted here. Every step is idempotent, so a crash during
// recovery is recovered by the next start the same way.

/** The runner's parts recovery hands work to. */
export interface RecoveryParts {
  follower: ExecutionFollower;
  downloads: DownloadPool;
  saverDeps: SaverDeps;
}

export async function recoverOpenBatches(core: RunnerCore, { follower, downloads, saverDeps }: RecoveryParts): Promise<void> {
  const { journal } = core.o;
  const at = core.o.now().toISOString();
  // A batch paused by an outage before the restart runs again: the gate finds out afresh whether the service answers.
  for (const batch of journal.listBatches()) {
    if (batch.state === 'paused' && isOutagePause(batch)) journal.updateBatch(batch.id, { state: 'running', pausedReason: null, pauseCode: null });
  }
  const lost: string[] = [];
  for (const batch of journal.listBatches()) {
    if (batch.state === 'completed') continue;
    journal.transitionAll(batch.id, 'requeue');
    lost.push(...journal.transitionAll(batch.id, 'answer-lost', {
      completedAt: at,
      reason: 'interrupted while being submitted: the service may have received and charged it. It is not resubmitted automatically; resubmit it explicitly if its result never appears.',
    }));
    // Every unknown item of an open batch is in the done ledger (idempotent: this also covers a crash right after
    // the transition above), so a later batch of the same photo does not pay for it again without the user asking.
    for (const item of journal.itemsInStates(batch.id, ['unknown'])) {
      const entry = lostEntryOf(item, batch, item.completedAt ?? at);
      if (entry && (await core.o.doneLedger.lookup(entry.key)) === null) await recordLedger(core, entry);
    }
    for (const item of journal.itemsInStates(batch.id, statesOf('followed'))) {
      const flight = follower.track(item, batch, Date.parse(item.submittedAt ?? at));
      follower.schedule(flight, Math.random() * 200);
    }
    for (const item of journal.itemsInStates(batch.id, ['downloading'])) {
      await recoverPlacement(saverDeps, item, batch);
      downloads.push(item.id);
    }
  }
  // Temps a kill left in the output folders of open and recent batches (temp-sweep.ts).
  await sweepOutputTemps(journal, core.o.now());
  // The balance may prove them charged or not (balance-check.ts): new submissions wait for that check.
  core.evidence.lost(lost, { hold: true });
  for (const id of lost) core.o.onItem(journal.getItem(id)!);
}
