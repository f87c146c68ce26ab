import { existsSync } from 'node:fs';
import { inClaimGroup } from '../../../shared/engine/claim-states';
import { blocksSubmit, type ClaimRecord } from '../journal/claims';
import type { BatchRecord, ItemRecord } from '../journal/types';
import type { RunnerCore } from './runner-core';
import { destinationFolder } from './saver';

// Items that follow another item's claim (journal/claims.ts) instead of paying for the same unit again: the second
// `batchroom run` after a Ctrl-C, Start pressed twice, a hot folder picking up a photo a batch is already sending.
// A follower waits while the unit is at the service, then takes the paid result into its own batch's output plan:
//   - the owner saved it exactly where this batch would (same output settings and folder): that file is this item's
//     result too — nothing is written twice, no "name (2).jpg" copy;
//   - otherwise its result URLs are downloaded and saved by this batch's own saver (its folder, name, format);
//   - the owner's claim was released or refunded (nothing of it at the service): the follower may send it itself;
//   - the answer was lost or the service lost the result: skipped with the reason, never paid again automatically.

export type FollowerDecision =
  | { kind: 'wait' }
  | { kind: 'send' }
  | { kind: 'reuse'; claim: ClaimRecord }
  | { kind: 'take'; claim: ClaimRecord }
  | { kind: 'lost'; reason: string };

export interface FollowerContext {
  item: ItemRecord;
  batch: BatchRecord;
  claim: ClaimRecord | null;
  owner: { item: ItemRecord; batch: BatchRecord } | null;
  exists?: (path: string) => boolean;
}

/** Whether the owner's results are the files this item would write: same output settings, same folder. */
function sameDeliverable(item: ItemRecord, batch: BatchRecord, owner: { item: ItemRecord; batch: BatchRecord }): boolean {
  return JSON.stringify(owner.batch.spec.output) === JSON.stringify(batch.spec.output)
    && destinationFolder(owner.batch, owner.item) === destinationFolder(batch, item);
}

/** What a following item does next, from the claim it follows and that claim's owner (pure but for `exists`). */
export function decideFollower(context: FollowerContext): FollowerDecision {
  const { item, batch, claim, owner } = context;
  const exists = context.exists ?? existsSync;
  if (!claim || claim.ownerItemId === item.id) return { kind: 'send' };
  const same = owner !== null && sameDeliverable(item, batch, owner);
  const hasResult = claim.resultUrls.length > 0;
  switch (claim.state) {
    case 'claimed':
    case 'submitting':
    case 'accepted':
      return { kind: 'wait' };
    case 'completed':
      // The owner is saving it into the very files this item would write: wait for those rather than race it for a
      // "(2)" name. An owner that is not saving it (its batch paused by a full disk, cancelled, failed) is not waited for.
      if (same && owner!.item.state === 'downloading' && owner!.batch.state === 'running') return { kind: 'wait' };
      return hasResult ? { kind: 'take', claim } : { kind: 'lost', reason: 'the same photo was paid for by another batch, but its result can no longer be fetched' };
    case 'saved':
      if (same && claim.outputs.length > 0 && claim.outputs.every(exists)) return { kind: 'reuse', claim };
      return hasResult ? { kind: 'take', claim } : { kind: 'lost', reason: 'the same photo was done by another batch, and its result can no longer be fetched' };
    case 'skipped':
      return hasResult ? { kind: 'take', claim } : { kind: 'send' };
    case 'unknown':
      return { kind: 'lost', reason: 'the same photo was sent by another batch but the answer was lost: it may have been charged — check the provider\'s dashboard, or run again to pay for it again' };
    case 'charged-no-result':
      return { kind: 'lost', reason: 'the same photo was charged in another batch but the service lost the result — report it to the provider, or run again to pay for it again' };
    default:
      // released, failed, cancelled: nothing of it is at the service any more.
      return inClaimGroup('open', claim.state) ? { kind: 'wait' } : { kind: 'send' };
  }
}

/** Why an item follows (its reason while it waits). */
export function followingReason(claim: ClaimRecord, ownerBatchId: string | null): string {
  const where = ownerBatchId ? `batch ${ownerBatchId.slice(0, 8)}` : 'another batch';
  return `the same photo is already ${claim.state === 'claimed' || claim.state === 'submitting' ? 'being sent' : 'paid for'} in ${where}: this batch takes that result (paid once, 0 credits)`;
}

/**
 * Before an item is encoded: when its unit is held open by another item, it follows that claim now (nothing is
 * encoded or sent). True when it did.
 */
export function followIfHeld(core: RunnerCore, item: ItemRecord): boolean {
  if (!item.claimKey) return false;
  const claim = core.o.journal.claimGet(item.claimKey);
  if (!claim || !blocksSubmit(claim, item.id, item.paysAgain)) return false;
  const owner = core.o.journal.getItem(claim.ownerItemId);
  core.update(item.id, { event: 'follow', reason: followingReason(claim, owner?.batchId ?? null) });
  return true;
}

/** Looks at every following item of the running batches when a claim (or an item of one) moved. */
export class ClaimFollowers {
  private seenVersion = -1;
  private dirty = true;
  /** Followers seen by the last look: while there are none, a moving unit needs no look (and no pump) at all. */
  private waiting = 0;

  constructor(private readonly core: RunnerCore, private readonly download: (itemId: string) => void) {}

  /**
   * An item of a unit moved (`item`, after the move). True when a follower may go on now and the pump should look:
   * some follower is waiting, or this item just became one.
   */
  touch(item: Pick<ItemRecord, 'state'>): boolean {
    if (this.waiting === 0 && item.state !== 'following') return false;
    this.dirty = true;
    return true;
  }

  check(running: readonly BatchRecord[]): void {
    const { journal } = this.core.o;
    const version = journal.claimsVersion();
    if (!this.dirty && version === this.seenVersion) return;
    this.dirty = false;
    this.seenVersion = version;
    let waiting = 0;
    for (const batch of running) {
      for (const item of journal.itemsInStates(batch.id, ['following'])) if (!this.advance(item, batch)) waiting++;
    }
    // Followers of paused batches are looked at when their batch runs again (resumed()).
    this.waiting = waiting;
  }

  /** A batch was resumed: its followers are looked at on the next pump. */
  resumed(): void {
    this.dirty = true;
    this.waiting = Math.max(this.waiting, 1);
  }

  /** Moves a follower on; false while it keeps waiting. */
  private advance(item: ItemRecord, batch: BatchRecord): boolean {
    const { journal } = this.core.o;
    const claim = item.claimKey ? journal.claimGet(item.claimKey) : null;
    const ownerItem = claim ? journal.getItem(claim.ownerItemId) : null;
    const ownerBatch = ownerItem ? journal.getBatch(ownerItem.batchId) : null;
    const decision = decideFollower({ item, batch, claim, owner: ownerItem && ownerBatch ? { item: ownerItem, batch: ownerBatch } : null });
    const at = this.core.o.now().toISOString();
    switch (decision.kind) {
      case 'wait':
        return false;
      case 'send':
        this.core.update(item.id, { event: 'unfollow', reason: null });
        this.core.kick();
        return true;
      case 'lost':
        this.core.update(item.id, { event: 'follow-lost', reason: decision.reason, completedAt: at });
        return true;
      case 'reuse': {
        const { claim: held } = decision;
        this.core.update(item.id, {
          event: 'take-result', executionId: held.executionId, resultUrls: held.resultUrls, resultLabels: held.resultLabels, creditsCharged: 0,
        });
        this.core.update(item.id, {
          event: 'save', outputs: held.outputs, progress: 100, completedAt: at,
          reason: `the same photo's result from ${ownerBatch ? `batch ${ownerBatch.id.slice(0, 8)}` : 'another batch'}: paid once, already in this folder`,
        });
        return true;
      }
      case 'take': {
        const { claim: held } = decision;
        this.core.update(item.id, {
          event: 'take-result', executionId: held.executionId, resultUrls: held.resultUrls, resultLabels: held.resultLabels,
          creditsCharged: 0, outputs: [], reason: null,
        });
        this.download(item.id);
        this.core.kick();
        return true;
      }
    }
  }
}
