import type { PlacementVerdict } from '../engine/runner-core';
import type { HotFolderLedger, LedgerOutcome, LedgerRecordInput } from '../watch/ports';

// The ledger a hot folder asks "has this photo (content hash + workflow + parameters) been processed, and may I
// process it now?". Two implementations: the local journal (one machine: the in-memory in-flight set is the claim)
// and the studio ledger in PostgreSQL (several machines on one folder: a claim row per key, leases, takeover).

/** What a claim is for: the ledger key plus what another instance needs to take the item over. */
export interface ClaimRequest {
  key: string;
  /** The folder's name in the studio (shared budget and counters); the same on every machine. */
  folderKey: string;
  contentHash: string;
  workflowId: string;
  parametersHash: string;
  /** Path inside the watched folder (machines mount the share at different places). */
  relPath: string;
  sourcePath: string;
  /** Credits reserved against the folder's shared budget until the outcome is known. */
  cost: number;
  /** The job and client the folder's batches are for (its settings): the studio report adds photos up by them. */
  job?: string | null;
  client?: string | null;
}

/** The batch an accepted execution belongs to, for the studio report (batches, job, client). */
export interface AcceptedBatch {
  id: string;
  job: string | null;
  client: string | null;
  /** The batch's recipe fingerprint (spec.recipe): which recipe paid the photo. Absent or null: none. */
  recipeFingerprint?: string | null;
}

export type ClaimResult =
  | { kind: 'claimed' }
  /** Already processed by some instance. */
  | { kind: 'done'; outcome: LedgerOutcome }
  /** Another live instance holds it (or it failed there and is not retried automatically). */
  | { kind: 'taken'; owner: string | null; state: string }
  /** The folder's shared budget has no room for it. */
  | { kind: 'budget'; budget: number; committed: number };

export interface LedgerRecord extends LedgerRecordInput {
  reason?: string | null;
}

export interface Ledger extends HotFolderLedger {
  /** True for the studio ledger: claims and the budget are shared with other instances. */
  readonly shared: boolean;
  /** 'local journal', or the ledger's URL without secrets. */
  readonly describe: string;
  record(entry: LedgerRecord): void | Promise<void>;
  /** Registers a folder under its studio name with its shared budget (null: none). */
  setFolder(folderKey: string, budget: number | null, hotFolderId?: string): Promise<void>;
  claim(request: ClaimRequest): Promise<ClaimResult>;
  /** The claim is given back unsubmitted (the engine refused the batch, the folder was disarmed). */
  release(key: string): Promise<void>;
  /** Before the submit request leaves: throws AppError 'conflict' if the claim was lost, 'unavailable' if unreachable. */
  submitting(key: string): Promise<void>;
  /** submitting() was not followed by a request after all (the item was put back): the claim is `claimed` again. */
  notSent(key: string): Promise<void>;
  /** The execution id, recorded before anything else happens after the submit answers. */
  accepted(key: string, executionId: string, credits: number, batch?: AcceptedBatch): Promise<void>;
  /** Of these keys, the ones no live instance holds any more (worth looking at again). */
  settledKeys(keys: readonly string[]): Promise<string[]>;
  /**
   * Right before a result of the photo gets its final name: is it still this instance's (another may have taken it
   * over while this one was paused past its lease)? Renews the lease. Throws AppError 'unavailable' when it cannot tell.
   */
  placement?(key: string): Promise<PlacementVerdict>;
}

/** One machine: the journal's ledger, and claims that are always granted (the manager's in-flight set is enough). */
export function localLedger(journalLedger: HotFolderLedger): Ledger {
  return {
    shared: false,
    describe: 'local journal',
    get: (key) => journalLedger.get(key),
    record: (entry) => journalLedger.record(entry),
    setFolder: async () => undefined,
    claim: async () => ({ kind: 'claimed' }),
    release: async () => undefined,
    submitting: async () => undefined,
    notSent: async () => undefined,
    accepted: async () => undefined,
    settledKeys: async () => [],
  };
}
