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
  /** The balance is still judging lost submissions (after a kill): an `unknown` unit may yet be resent and saved. */
  lostBeingJudged?: boolean;
  exists?: (path: string) => boolean;
}

/** Whether the owner's results are the files this item would write: same output settings, same folder. */
function sameDeliverable(item: ItemRecord, batch: BatchRecord, owner: { item: ItemRecord; batch: BatchRecord }): boolean {
  return JSON.stringify(owner.batch.spec.output) === JSON.stringify(batch.spec.output)
    && JSON.stringify(owner.batch.spec.deliverables ?? []) === JSON.stringify(batch.spec.deliverables ?? [])
    && owner.batch.spec.job === batch.spec.job && owner.batch.spec.client === batch.spec.client
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
      // Its owner waits for its turn and sent nothing: while that batch runs it will; a paused one may never.
      return owner?.batch.state === 'running' ? { kind: 'wait' } : { kind: 'send' };
    case 'submitting':
    case 'accepted':
      return { kind: 'wait' };
    case 'completed':
      // The owner is saving it into the very files this item would write: wait for those rather than race it for a
      // "(2)" name (downloads go on in a paused batch too). An owner that no longer saves it is not waited for.
      if (same && owner!.item.state === 'downloading') return { kind: 'wait' };
      return hasResult ? { kind: 'take', claim } : { kind: 'lost', reason: 'the same photo was paid for by another batch, but its result can no longer be fetched' };
    case 'saved':
      if (same && claim.outputs.length > 0 && claim.outputs.every(exists)) return { kind: 'reuse', claim };
      return hasResult ? { kind: 'take', claim } : { kind: 'lost', reason: 'the same photo was done by another batch, and its result can no longer be fetched' };
    case 'skipped':
      return hasResult ? { kind: 'take', claim } : { kind: 'send' };
    case 'unknown':
      // After a kill the balance may still prove it uncharged: then it is sent once more, and this item follows that.
      if (context.lostBeingJudged && owner && owner.item.state === 'unknown') return { kind: 'wait' };
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
  if (!claim || !blocksSubmit(claim, item.id, item.payAgainOver)) return false;
  const owner = core.o.journal.getItem(claim.ownerItemId);
  core.update(item.id, { event: 'follow', reason: followingReason(claim, owner?.batchId ?? null) });
  return true;
}

/** A full look at every follower at most this often while some wait (catches what no key change announces). */
const FULL_LOOK_MS = 15_000;

/**
 * Moves following items on when their unit moved: the claim store names the claims that moved, and every item
 * update names its own unit (an owner's download starting or failing moves no claim). Only those units' followers
 * are looked at — never every follower on every event (20k followers took 2.4 s a look). A full look happens at the
 * start, when a batch is resumed, and every 15 s while any follower waits.
 */
export class ClaimFollowers {
  private readonly dirtyKeys = new Set<string>();
  private full = true;
  private lastFullAt = 0;
  /** Followers known to wait (counted by full looks, raised by each new one): none → nothing to look at. */
  private waiting = 0;

  constructor(private readonly core: RunnerCore, private readonly download: (itemId: string) => void) {}

  /** An item of a unit moved (after the move). True when the pump should look at that unit's followers. */
  touch(item: Pick<ItemRecord, 'state' | 'claimKey'>): boolean {
    if (!item.claimKey) return false;
    if (item.state === 'following') this.waiting++;
    if (this.waiting === 0) return false;
    this.dirtyKeys.add(item.claimKey);
    return true;
  }

  /** A batch was resumed: its followers are looked at on the next pump. */
  resumed(): void {
    this.full = true;
  }

  /** Whether a full look is due (the pump runs it; the runner's timer asks while followers wait). */
  get waitingCount(): number {
    return this.waiting;
  }

  check(running: readonly BatchRecord[]): void {
    const { journal } = this.core.o;
    const moved = journal.takeMovedClaims();
    if (this.waiting > 0 && Date.now() - this.lastFullAt >= FULL_LOOK_MS) this.full = true;
    if (this.full) {
      this.full = false;
      this.dirtyKeys.clear();
      this.lastFullAt = Date.now();
      for (const batch of running) for (const item of journal.followersToLookAt(batch.id)) this.advance(item, batch);
      this.waiting = running.reduce((sum, b) => sum + (journal.countByState(b.id).following ?? 0), 0) + this.pausedFollowers(running);
      return;
    }
    if (this.waiting === 0) return;
    for (const key of moved) this.dirtyKeys.add(key);
    const keys = [...this.dirtyKeys];
    this.dirtyKeys.clear();
    const runningIds = new Set(running.map((b) => b.id));
    for (const key of keys) {
      for (const item of journal.followersOf(key)) if (runningIds.has(item.batchId)) this.advance(item, this.core.batch(item.batchId));
    }
  }

  /** Followers of batches not running now still wait (they are looked at again when their batch resumes). */
  private pausedFollowers(running: readonly BatchRecord[]): number {
    const runningIds = new Set(running.map((b) => b.id));
    return this.core.o.journal.batchIdsInState('paused').filter((id) => !runningIds.has(id))
      .reduce((n, id) => n + (this.core.o.journal.countByState(id).following ?? 0), 0);
  }

  /** Moves a follower on; false while it keeps waiting. */
  private advance(item: ItemRecord, batch: BatchRecord): boolean {
    const { journal } = this.core.o;
    const claim = item.claimKey ? journal.claimGet(item.claimKey) : null;
    // The common case of a long wait, decided from the claim alone (a full look at 20k followers stays one query each).
    if (claim && claim.ownerItemId !== item.id && (claim.state === 'submitting' || claim.state === 'accepted')) return false;
    const ownerItem = claim ? journal.getItem(claim.ownerItemId) : null;
    const ownerBatch = ownerItem ? this.core.batch(ownerItem.batchId) : null;
    const decision = decideFollower({
      item, batch, claim, owner: ownerItem && ownerBatch ? { item: ownerItem, batch: ownerBatch } : null,
      lostBeingJudged: this.core.evidence.pending(),
    });
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
        // One write: a kill between "took the result" and "saved" would make the next start download a "(2)" copy.
        const { claim: held } = decision;
        this.core.update(item.id, {
          event: 'reuse-result', executionId: held.executionId, resultUrls: held.resultUrls, resultLabels: held.resultLabels, creditsCharged: 0,
          outputs: held.outputs, progress: 100, completedAt: at,
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
