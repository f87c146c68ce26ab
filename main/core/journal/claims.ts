import { createHash } from 'node:crypto';
import {
  CLAIM_EVENT_OF_ITEM_EVENT, claimStatesOf, inClaimGroup, isClaimState, nextClaimState, type ClaimEvent, type ClaimState,
} from '../../../shared/engine/claim-states';
import type { ItemEvent } from '../../../shared/engine/item-states';
import { AppError } from '../../../shared/errors';
import type { ItemState } from '../../../shared/engine/model';
import type { ItemChange, ItemRecord } from './types';
import { ITEM_COLUMNS, mapItem } from './rows';
import { SETTLED_SQL } from './settled';
import { compactedOf } from './compact';

// The journal's claims (shared/engine/claim-states.ts): one row per paid unit, owned by the one item that sends it.
// The row moves with its owner's item events, in the same transaction (applyChange calls `onItemEvent`), so a crash
// keeps both or neither. The submit is where the rule bites: an item whose unit another item holds open cannot be
// marked `submitting` — the write throws ClaimHeldError and rolls back, and the engine makes the item follow the
// claim instead (engine/claim-followers.ts). Nothing is ever sent for a unit twice unless the user asks.

export interface ClaimRecord {
  key: string;
  ledgerKey: string;
  ownerItemId: string;
  state: ClaimState;
  executionId: string | null;
  resultUrls: string[];
  resultLabels: (string | null)[];
  outputs: string[];
  credits: number;
  updatedAt: string;
  /** The recipe fingerprint of the batch whose item sent (or will send) the unit: which recipe paid it. Null: none. */
  recipeFingerprint: string | null;
}

/** The unit another item of the same claim key is already processing, as the planner and the scheduler see it. */
export interface ClaimHolder {
  claim: ClaimRecord | null;
  /** An open item (not terminal, not following) of a running batch with this claim key, other than `exceptItemId`. */
  item: { id: string; batchId: string; state: ItemState } | null;
}

export interface ClaimStore {
  claimGet(key: string): ClaimRecord | null;
  /** Who holds `key` besides `exceptItemId`: an open claim, or an open item of another running batch. */
  claimHolder(key: string, exceptItemId?: string): ClaimHolder;
  /** Increases on every claim write: a follower only needs looking at again when it moved. */
  claimsVersion(): number;
  /** The keys whose claims moved since the last call (and forgets them). */
  takeMovedClaims(): string[];
  /** The items following `key` (state `following`), any batch. */
  followersOf(key: string): ItemRecord[];
  /**
   * The followers of a batch that may have somewhere to go: all but those whose unit another item is sending or the
   * service has (the long wait, filtered in SQL so a look at 20k waiting followers reads none of them).
   */
  followersToLookAt(batchId: string): ItemRecord[];
  /** Items of the batch that follow another item's claim (engine/projection.ts isPaidElsewhere, in SQL). */
  countPaidElsewhere(batchId: string): number;
}

/** The claim key: the ledger key (content, workflow, parameters), then the service account it is paid from. */
export function claimKeyOf(ledgerKey: string, accountId: string): string {
  return `${ledgerKey}:${createHash('sha256').update(accountId).digest('hex').slice(0, 16)}`;
}

/** The ledger key part of a claim key. */
export const ledgerKeyOfClaim = (key: string): string => key.split(':')[0]!;

/** Thrown by a `submit` whose unit another item holds open: the write is rolled back, nothing is sent. */
export class ClaimHeldError extends AppError {
  constructor(readonly claim: ClaimRecord) {
    super('conflict', `the same photo is already ${claim.state} for another batch (item ${claim.ownerItemId}): it is not sent again`);
    this.name = 'ClaimHeldError';
  }
}

export function isClaimHeld(error: unknown): error is ClaimHeldError {
  return error instanceof ClaimHeldError;
}

type Row = Record<string, unknown>;
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

const COLUMNS = 'key, ledger_key, owner_item_id, state, execution_id, result_urls_json, result_labels_json, outputs_json, credits, updated_at, recipe_fingerprint';

function mapClaim(row: Row): ClaimRecord {
  const state = String(row.state);
  if (!isClaimState(state)) throw new Error(`claim ${String(row.key)} has an unknown state "${state}"`);
  return {
    key: String(row.key), ledgerKey: String(row.ledger_key), ownerItemId: String(row.owner_item_id), state,
    executionId: row.execution_id === null || row.execution_id === undefined ? null : String(row.execution_id),
    resultUrls: JSON.parse(String(row.result_urls_json ?? '[]')) as string[],
    resultLabels: JSON.parse(String(row.result_labels_json ?? '[]')) as (string | null)[],
    outputs: JSON.parse(String(row.outputs_json ?? '[]')) as string[],
    credits: Number(row.credits ?? 0), updatedAt: String(row.updated_at),
    recipeFingerprint: typeof row.recipe_fingerprint === 'string' ? row.recipe_fingerprint : null,
  };
}

/**
 * Whether `claim` keeps item `itemId` from sending its unit:
 * - another item is sending it or the service has it (submitting, accepted): always;
 * - it was paid for (completed, saved, skipped, charged without a result, maybe charged): unless the user chose to
 *   pay again over exactly this claim when the batch was planned (`payAgainOver` = its updatedAt then: a claim that
 *   moved since — another batch paid meanwhile — blocks again);
 * - nothing of it is at the service (claimed: its owner waits for its turn and sent nothing; released, refused or
 *   refunded, cancelled): never.
 */
export function blocksSubmit(claim: ClaimRecord, itemId: string, payAgainOver: string | null): boolean {
  if (claim.ownerItemId === itemId) return false;
  if (claim.state === 'submitting' || claim.state === 'accepted') return true;
  if (FREE_STATES.includes(claim.state)) return false;
  return payAgainOver !== claim.updatedAt;
}

const FREE_STATES: readonly ClaimState[] = ['claimed', 'released', 'failed', 'cancelled'];

/** Item states that hold a unit for their batch (the scheduler will send it, or it is already out). */
const HOLDING_ITEM_STATES: readonly ItemState[] = ['pending', 'encoding', 'submitting', 'submitted', 'running', 'downloading'];

export interface ClaimWrites extends ClaimStore {
  /** Moves the claim of `itemId` for `event` (inside the caller's transaction); throws ClaimHeldError on a held submit. */
  onItemEvent(itemId: string, event: ItemEvent, change: Omit<ItemChange, 'event'> & { executionId?: string | null; credits?: number }): void;
}

export function createClaimStore(stmt: (sql: string) => Stmt, now: () => string): ClaimWrites {
  let version = 0;
  let moved = new Set<string>();
  const claimGet = (key: string): ClaimRecord | null => {
    const row = stmt(`SELECT ${COLUMNS} FROM claims WHERE key = ?`).get(key) as Row | undefined;
    return row ? mapClaim(row) : null;
  };

  const write = (key: string, ledgerKey: string, owner: string, state: ClaimState, fields: Partial<ClaimRecord>, reset: boolean) => {
    const before = claimGet(key);
    const keep = before && !reset ? before : null;
    stmt(`INSERT INTO claims (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(key) DO UPDATE SET owner_item_id = excluded.owner_item_id, state = excluded.state, execution_id = excluded.execution_id,
      result_urls_json = excluded.result_urls_json, result_labels_json = excluded.result_labels_json, outputs_json = excluded.outputs_json,
      credits = excluded.credits, updated_at = excluded.updated_at, recipe_fingerprint = excluded.recipe_fingerprint`).run(
      key, ledgerKey, owner, state,
      fields.executionId !== undefined ? fields.executionId : keep?.executionId ?? null,
      JSON.stringify(fields.resultUrls ?? keep?.resultUrls ?? []),
      JSON.stringify(fields.resultLabels ?? keep?.resultLabels ?? []),
      JSON.stringify(fields.outputs ?? keep?.outputs ?? []),
      fields.credits ?? keep?.credits ?? 0,
      now(),
      fields.recipeFingerprint !== undefined ? fields.recipeFingerprint : keep?.recipeFingerprint ?? null,
    );
    version += 1;
    moved.add(key);
  };

  return {
    claimGet,
    claimsVersion: () => version,
    followersToLookAt: (batchId) => (stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE batch_id = ? AND state = 'following'
      AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.key = items.claim_key AND c.owner_item_id <> items.id AND c.state IN ('submitting', 'accepted'))
      ORDER BY position`).all(batchId) as Row[]).map(mapItem),
    followersOf: (key) => (stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE claim_key = ? AND state = 'following' AND ${SETTLED_SQL}`).all(key) as Row[]).map(mapItem),
    takeMovedClaims: () => {
      const keys = [...moved];
      moved = new Set();
      return keys;
    },
    countPaidElsewhere: (batchId) => Number((stmt(`SELECT COUNT(*) AS n FROM items WHERE batch_id = ? AND claim_key IS NOT NULL
      AND state <> 'skipped' AND credits_charged = 0 AND (state = 'following' OR (attempts = 0 AND execution_id IS NOT NULL))`).get(batchId) as Row).n)
      + (compactedOf(stmt, batchId)?.paidElsewhere ?? 0),
    claimHolder(key, exceptItemId) {
      const claim = claimGet(key);
      const open = claim && inClaimGroup('open', claim.state) && claim.ownerItemId !== exceptItemId ? claim : null;
      const placeholders = HOLDING_ITEM_STATES.map(() => '?').join(', ');
      const row = stmt(`SELECT i.id, i.batch_id, i.state FROM items i JOIN batches b ON b.id = i.batch_id
        WHERE i.claim_key = ? AND i.id <> ? AND i.state IN (${placeholders}) AND i.${SETTLED_SQL} AND b.state = 'running'
        ORDER BY b.created_at, i.position LIMIT 1`).get(key, exceptItemId ?? '', ...HOLDING_ITEM_STATES) as Row | undefined;
      return {
        claim: open ? claim : null,
        item: row ? { id: String(row.id), batchId: String(row.batch_id), state: String(row.state) as ItemState } : null,
      };
    },
    onItemEvent(itemId, event, change) {
      const claimEvent: ClaimEvent | undefined = CLAIM_EVENT_OF_ITEM_EVENT[event];
      if (!claimEvent) return;
      const item = stmt(`SELECT claim_key, pay_again_over, result_urls_json, result_labels_json, outputs_json,
        (SELECT json_extract(b.spec_json, '$.recipe.fingerprint') FROM batches b WHERE b.id = items.batch_id) AS recipe_fingerprint
        FROM items WHERE id = ?`).get(itemId) as Row | undefined;
      const key = item?.claim_key === null || item?.claim_key === undefined ? null : String(item.claim_key);
      if (!key) return; // an item from before claims existed, or one with nothing to send
      const claim = claimGet(key);
      const mine = claim === null || claim.ownerItemId === itemId;
      if (claimEvent === 'submit' || claimEvent === 'accept') {
        const over = item!.pay_again_over === null || item!.pay_again_over === undefined ? null : String(item!.pay_again_over);
        if (claim && blocksSubmit(claim, itemId, over)) {
          // The one rule: a unit another item holds or already paid for is not sent again (the caller makes this item
          // follow it) — unless the user asked to pay for it again. An accept is money already spent: it is always
          // recorded on the item (the claim keeps its owner).
          if (claimEvent === 'submit') throw new ClaimHeldError(claim);
          return;
        }
        const to = nextClaimState(claim?.state ?? null, claimEvent);
        if (to === null) return; // already past it (an accept arriving for a unit this item already completed)
        write(key, ledgerKeyOfClaim(key), itemId, to, {
          executionId: claimEvent === 'accept' ? change.executionId ?? null : null,
          credits: claimEvent === 'accept' ? change.credits ?? 0 : 0,
          // The sender's recipe: the batch that pays (a pay-again over another recipe's unit takes it over).
          recipeFingerprint: typeof item!.recipe_fingerprint === 'string' ? item!.recipe_fingerprint : null,
        }, claimEvent === 'submit' && !(claim && mine && claim.state === 'claimed'));
        return;
      }
      // A follower's own events never move the unit's claim: only its owner's do.
      if (!claim || !mine) return;
      const to = nextClaimState(claim.state, claimEvent);
      // Not a move from here (e.g. a requeue of an item whose earlier attempt already failed): the claim says more.
      if (to === null) return;
      // What the change does not carry, the item already holds (the saver writes each output as it is placed).
      const held = <T>(column: string): T => JSON.parse(String(item![column] ?? '[]')) as T;
      write(key, claim.ledgerKey, itemId, to, {
        resultUrls: change.resultUrls ?? held<string[]>('result_urls_json'),
        resultLabels: change.resultLabels ?? held<(string | null)[]>('result_labels_json'),
        outputs: change.outputs ?? held<string[]>('outputs_json'),
        ...(claimEvent === 'refund' ? { credits: 0 } : {}),
      }, false);
    },
  };
}

/** The claim states a planner reads as "already running elsewhere" (open). */
export const OPEN_CLAIM_STATES = claimStatesOf('open');
