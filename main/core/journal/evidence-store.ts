import type { ItemChange } from './types';

// The journal's side of balance evidence (engine/balance-evidence.ts): one row holding the engine's evidence state,
// the sum of what the journal knows was charged, and the one transaction that applies the balance's verdict on lost
// submissions together with the state that records it — so a crash half-way can never apply a verdict twice.

/** One lost submission the balance has judged, with the reason the user reads. */
export interface LostVerdict {
  itemId: string;
  reason: string | null;
}

export interface BalanceEvidenceStore {
  /** The engine's evidence state as it stored it (JSON), or null before the first. */
  balanceEvidence(): string | null;
  saveBalanceEvidence(stateJson: string): void;
  /**
   * Credits of every execution the journal saw accepted and not refunded: the journal's side of the balance. Failed
   * executions are refunded by the service (follow-execution.ts), so they count 0.
   */
  executionCharges(): number;
  /**
   * Applies the balance's verdict in one transaction with the new evidence state: `uncharged` items are sent again
   * (pending), `charged` ones become charged-no-result at their batch's credit cost (added to its spend), `undecided`
   * ones stay unknown with the evidence as their reason.
   */
  settleLost(verdict: { uncharged: LostVerdict[]; charged: LostVerdict[]; undecided: LostVerdict[] }, stateJson: string): void;
}

type Row = Record<string, unknown>;
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
}

export interface EvidenceStoreDeps {
  stmt: (sql: string) => Stmt;
  /** Runs `work` in one immediate transaction. */
  transaction: (work: () => void) => void;
  applyChange: (id: string, change: ItemChange) => void;
  now: () => string;
}

export function createEvidenceStore({ stmt, transaction, applyChange, now }: EvidenceStoreDeps): BalanceEvidenceStore {
  const save = (stateJson: string) => {
    stmt(`INSERT INTO balance_evidence (id, state_json, updated_at) VALUES (1, ?, ?)
      ON CONFLICT(id) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at`).run(stateJson, now());
  };
  const costOf = (itemId: string): { batchId: string; cost: number } => {
    const row = stmt(`SELECT b.id AS batch_id, b.credit_cost AS cost FROM items i JOIN batches b ON b.id = i.batch_id WHERE i.id = ?`)
      .get(itemId) as Row | undefined;
    if (!row) throw new Error(`unknown item ${itemId}`);
    return { batchId: String(row.batch_id), cost: Number(row.cost) };
  };
  return {
    balanceEvidence: () => {
      const row = stmt(`SELECT state_json FROM balance_evidence WHERE id = 1`).get() as Row | undefined;
      return row ? String(row.state_json) : null;
    },
    saveBalanceEvidence: save,
    executionCharges: () => {
      const row = stmt(`SELECT COALESCE(SUM(credits), 0) AS total FROM executions WHERE status <> 'failed'`).get() as Row;
      return Number(row.total);
    },
    settleLost: (verdict, stateJson) => {
      transaction(() => {
        const at = now();
        for (const { itemId, reason } of verdict.uncharged) {
          applyChange(itemId, { event: 'balance-uncharged', reason, progress: 0, executionId: null, resultUrls: [], resultLabels: [], outputs: [], completedAt: null });
        }
        for (const { itemId, reason } of verdict.charged) {
          const { batchId, cost } = costOf(itemId);
          applyChange(itemId, { event: 'balance-charged', reason, creditsCharged: cost, completedAt: at });
          stmt(`UPDATE batches SET credits_spent = credits_spent + ?, updated_at = ? WHERE id = ?`).run(cost, at, batchId);
        }
        for (const { itemId, reason } of verdict.undecided) applyChange(itemId, { reason });
        save(stateJson);
      });
    },
  };
}
