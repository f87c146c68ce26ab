import type { BatchSpec } from '../../../shared/engine/model';
import type { Journal } from './journal';
import { ledgerKey, parametersHash } from './ledger-key';
import type { LedgerEntry } from './types';

// What has already been done, keyed on content hash + workflow + parameters: the one ledger every way in consults
// (`batchroom run`, the app's batches, hot folders), so a photo is never paid for twice unless the user asks.
// Async so another store (a studio's shared PostgreSQL ledger) can stand behind the same interface.

export interface DoneEntry {
  key: string;
  outcome: LedgerEntry['outcome'];
  /** The results saved by that run (absolute paths). */
  outputs: string[];
  sourcePath: string;
  /** When it was recorded (ISO). */
  doneAt: string;
  hotFolderId: string | null;
}

export interface DoneLedger {
  /**
   * The journal whose ledger table this is, when it is one: the engine then writes an item's entry in the same
   * transaction that marks it saved, so no crash can leave a saved photo the ledger does not know.
   */
  readonly journal?: unknown;
  lookup(key: string): Promise<DoneEntry | null>;
  record(entry: LedgerEntry): Promise<void>;
}

export function journalDoneLedger(journal: Pick<Journal, 'ledgerGet' | 'ledgerRecord'>): DoneLedger {
  return {
    journal,
    async lookup(key) {
      const entry = journal.ledgerGet(key);
      if (!entry) return null;
      return {
        key, outcome: entry.outcome, outputs: entry.outputs, sourcePath: entry.sourcePath, doneAt: entry.recordedAt ?? '', hotFolderId: entry.hotFolderId,
      };
    },
    async record(entry) {
      journal.ledgerRecord(entry);
    },
  };
}

/** The ledger key of an item of a batch made from `spec`. */
export function doneKeyOf(spec: Pick<BatchSpec, 'workflowId' | 'parameters'>, contentHash: string): string {
  return ledgerKey(contentHash, spec.workflowId, parametersHash(spec.parameters));
}

/**
 * The entry for an item whose submission may have been charged without an answer (unknown): a later batch of the
 * same photo is held back until the user says to pay again, exactly as for a saved one.
 */
export function unknownEntry(
  spec: Pick<BatchSpec, 'workflowId' | 'parameters' | 'source'> & Partial<Pick<BatchSpec, 'recipe'>>,
  item: { id: string; contentHash: string; sourcePath: string; executionId: string | null },
  at: string,
  outcome: 'unknown' | 'charged-no-result' = 'unknown',
): LedgerEntry {
  return { ...savedEntry(spec, { ...item, outputs: [] }, at), outcome };
}

/** The entry for an item whose results are saved. */
export function savedEntry(
  spec: Pick<BatchSpec, 'workflowId' | 'parameters' | 'source'> & Partial<Pick<BatchSpec, 'recipe'>>,
  item: { id: string; contentHash: string; sourcePath: string; outputs: string[]; executionId: string | null },
  at: string,
): LedgerEntry {
  return {
    key: doneKeyOf(spec, item.contentHash), contentHash: item.contentHash, workflowId: spec.workflowId,
    parametersHash: parametersHash(spec.parameters), sourcePath: item.sourcePath, outcome: 'saved', outputs: item.outputs,
    executionId: item.executionId, itemId: item.id, hotFolderId: spec.source.kind === 'hotFolder' ? spec.source.hotFolderId ?? null : null,
    recordedAt: at, recipeFingerprint: spec.recipe?.fingerprint ?? null,
  };
}
