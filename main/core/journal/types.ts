import type { BatchSpec, BatchState, ItemState, PauseCode, Verdict } from '../../../shared/engine/model';
import type { ItemEvent } from '../../../shared/engine/item-states';
import type { WorkflowDetail } from '../../../shared/service/model';

/** A batch as the journal stores it (the engine projects it to BatchSummary). */
export interface BatchRecord {
  id: string;
  spec: BatchSpec;
  workflow: WorkflowDetail;
  creditCost: number;
  state: BatchState;
  pausedReason: string | null;
  /** Why it is paused, as a code (null unless paused). */
  pauseCode: PauseCode | null;
  createdAt: string;
  updatedAt: string;
  creditsSpent: number;
  budget: number | null;
  outputFolder: string;
  /**
   * Its place in the submit queue (journal/batch-order.ts), as read back: priority (higher first), then queueOrder
   * (lower first). A new batch takes its spec's priority and goes to the back whatever is given here.
   */
  priority?: number;
  queueOrder?: number;
}

/** One unit of work: one execution's worth of input images and what became of it. */
export interface ItemRecord {
  id: string;
  batchId: string;
  position: number;
  displayName: string;
  /** image field id → local path or http(s) URL. */
  sources: Record<string, string>;
  /** Sub-folder of the input root, mirrored under the output folder ('' at the root). */
  relDir: string;
  contentHash: string | null;
  /** The paid unit this item sends, or follows when another item holds it (journal/claims.ts); null: nothing to send. */
  claimKey: string | null;
  /**
   * The paid claim of its unit the user chose to pay for again, as it was when the batch was planned (its updatedAt):
   * only that claim, unmoved, may be sent over (journal/claims.ts blocksSubmit). Null: never pays twice.
   */
  payAgainOver: string | null;
  state: ItemState;
  progress: number;
  reason: string | null;
  executionId: string | null;
  resultUrls: string[];
  /** The service's label for each result (a look's name), in resultUrls order; results are named after it. */
  resultLabels: (string | null)[];
  /** Results already saved (in result order). */
  outputs: string[];
  /** A result being saved: its temp file, and once verified its chosen final path (see saver recovery). */
  pendingTemp: string | null;
  pendingFinal: string | null;
  creditsCharged: number;
  verdict: Verdict;
  attempts: number;
  submittedAt: string | null;
  completedAt: string | null;
  updatedAt: string;
  /** Parked by a refused state move (journal/transitions.ts): what the user should look at; null otherwise. */
  attention: string | null;
}

export type NewItem = Pick<ItemRecord, 'id' | 'position' | 'displayName' | 'sources' | 'relDir' | 'contentHash' | 'state' | 'reason'>
  & Partial<Pick<ItemRecord, 'claimKey' | 'payAgainOver'>>;

/** Fields an update may set. The state is never set directly: an `event` of the item state machine moves it. */
export type ItemPatch = Partial<Omit<ItemRecord, 'id' | 'batchId' | 'updatedAt' | 'state' | 'claimKey' | 'payAgainOver'>>;

/** An item update: fields, and optionally the state-machine event that moves its state (shared/engine/item-states). */
export type ItemChange = ItemPatch & { event?: ItemEvent };

/** Hot-folder ledger: one row per (content, workflow, parameters) already processed, so a file is never paid twice. */
export interface LedgerEntry {
  /** ledgerKey(contentHash, workflowId, parametersHash). */
  key: string;
  contentHash: string;
  workflowId: string;
  parametersHash: string;
  sourcePath: string;
  outcome: 'saved' | 'failed' | 'unknown' | 'charged-no-result' | 'cancelled' | 'skipped';
  outputs: string[];
  executionId: string | null;
  itemId: string | null;
  hotFolderId: string | null;
  recordedAt?: string;
  /** The fingerprint of the recipe the batch was made from (spec.recipe); absent or null: none. */
  recipeFingerprint?: string | null;
}

export interface ExecutionRecord {
  id: string;
  itemId: string;
  batchId: string;
  createdAt: string;
  status: string;
  credits: number;
  error: string | null;
  completedAt: string | null;
}
