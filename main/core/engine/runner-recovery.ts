import { statesOf } from '../../../shared/engine/item-states';
import { lostEntryOf, recordLedger } from './done-record';
import type { DownloadPool } from './download-results';
import type { ExecutionFollower } from './follow-execution';
import { isOutagePause } from './outage-pause';
import type { RunnerCore } from './runner-core';
import { recoverPlacement, type SaverDeps } from './saver';
import { foldersToSweepFirst, sweepFolders, sweepOlderTemps } from './temp-sweep';
import { traceStart } from '../start-trace';
import { startOrder, type StartOrder } from './start-order';

// Crash recovery (Runner.recover runs it once per start): what the journal says was in flight is picked up again —
// polled, downloaded, or judged lost — and nothing is submitted here. Every step is idempotent, so a crash during
// recovery is recovered by the next start the same way.

/** The runner's parts recovery hands work to. */
export interface RecoveryParts {
  follower: ExecutionFollower;
  downloads: DownloadPool;
  saverDeps: SaverDeps;
}

/** Returns what holds recovered downloads and the full sweep until the first new submission is answered. */
export async function recoverOpenBatches(core: RunnerCore, { follower, downloads, saverDeps }: RecoveryParts): Promise<StartOrder> {
  const { journal } = core.o;
  const startedAt = core.o.now();
  const at = startedAt.toISOString();
  // A batch paused by an outage before the restart runs again: the gate finds out afresh whether the service answers.
  for (const batch of journal.listBatches()) {
    if (batch.state === 'paused' && isOutagePause(batch)) journal.updateBatch(batch.id, { state: 'running', pausedReason: null, pauseCode: null });
  }
  // Where a kill may have left temps, read before the placements below clear their items' pending temps.
  traceStart('recovery-start');
  const sweepFirst = foldersToSweepFirst(journal, startedAt);
  traceStart('recovery-sweep-listed');
  const lost: string[] = [];
  for (const batch of journal.listBatches()) {
    if (batch.state === 'completed') continue;
    journal.transitionAll(batch.id, 'requeue');
    lost.push(...journal.transitionAll(batch.id, 'answer-lost', {
      completedAt: at,
      reason: 'interrupted while being submitted: the service may have received and charged it. It is not resubmitted automatically; resubmit it explicitly if its result never appears.',
    }));
    traceStart('recovery-transitions');
    // Every unknown item of an open batch is in the done ledger (idempotent: this also covers a crash right after
    // the transition above), so a later batch of the same photo does not pay for it again without the user asking.
    for (const item of journal.itemsInStates(batch.id, ['unknown'])) {
      const entry = lostEntryOf(item, batch, item.completedAt ?? at);
      if (entry && (await core.o.doneLedger.lookup(entry.key)) === null) await recordLedger(core, entry);
    }
    traceStart('recovery-ledger');
    for (const item of journal.itemsInStates(batch.id, statesOf('followed'))) {
      const flight = follower.track(item, batch, Date.parse(item.submittedAt ?? at), { recovered: true });
      follower.schedule(flight, Math.random() * 200);
    }
    traceStart('recovery-follow');
    for (const item of journal.itemsInStates(batch.id, ['downloading'])) {
      await recoverPlacement(saverDeps, item, batch);
      downloads.push(item.id);
    }
    traceStart('recovery-placement');
  }
  // Temps a kill left in the output folders of open and recent batches (temp-sweep.ts): where the journal says now,
  // every other folder of theirs once the first submit has left. Either part removes only this journal's leftovers
  // and random temps from before this start: an output folder may be shared with another journal saving now.
  await sweepFolders(sweepFirst, journal, startedAt);
  traceStart('recovery-swept');
  // Taken once every `encoding` item is `pending` again: what the first new submission comes from.
  const order = startOrder({ journal, answered: () => core.stats.phases.upload.count, holding: () => core.evidence.holding(), kick: () => core.kick() });
  sweepLaterOnce(core, order, startedAt);
  // The balance may prove them charged or not (balance-check.ts): new submissions wait for that check.
  core.evidence.lost(lost, { hold: true });
  for (const id of lost) core.o.onItem(journal.getItem(id)!);
  return order;
}

/**
 * The full temp sweep, in the background once the first submission after this start has been answered (at once when
 * nothing is to be sent, at most FIRST_SUBMIT_WAIT_MS later: start-order.ts): it reads every item of the open
 * batches (≈ 1.5 s of the event loop at 100k), which would otherwise stand between a restart and its first submit.
 * Only leftovers go, never a running save's temp (temp-sweep.ts). A stop ends it between two steps; what it removed
 * is logged (`temp sweep done`).
 */
function sweepLaterOnce(core: RunnerCore, order: StartOrder, startedAt: Date): void {
  const { journal, logger } = core.o;
  core.run(async () => {
    await new Promise((r) => setTimeout(r, 0).unref()); // never inside the start itself
    while (!order.open() && !core.isStopping()) {
      await new Promise((r) => setTimeout(r, 50).unref());
    }
    if (core.isStopping()) return;
    try {
      const removed = await sweepOlderTemps(journal, startedAt, () => core.isStopping());
      logger.info('temp sweep done', { removed, stopped: core.isStopping() });
    } catch (error) {
      // The journal closed under it (a stop): what is left goes at the next start.
      if (!core.isStopping()) logger.warn(`temp sweep: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}
