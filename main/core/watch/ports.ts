import type { BatchSpec } from '../../../shared/engine/model';
import type { HotFolderConfig } from '../../../shared/hotfolders/model';

// The small interfaces the hot-folder manager needs from the rest of the core. Each is narrow on purpose: the
// manager is unit-tested with in-memory fakes, and `adapters.ts` maps them onto the real engine, journal, images
// and settings modules.

/** How an item that came from a hot folder ended. */
export interface HotFolderItemOutcome {
  batchId: string;
  /** Absolute path of the original the item was made from. */
  sourcePath: string;
  state: 'saved' | 'failed' | 'cancelled' | 'unknown' | 'charged-no-result' | 'skipped';
  outputs: string[];
  reason: string | null;
  executionId: string | null;
  itemId: string | null;
  creditsCharged: number;
  /** From the batch spec (`source.hotFolderId`), so outcomes of batches resumed after a restart still find their folder. */
  hotFolderId: string | null;
  contentHash: string | null;
  /** The batch's workflow and parameters hash: the ledger key of a batch resumed after its folder was edited. */
  workflowId?: string;
  parametersHash?: string;
  /** 1 for the item's first outcome; a retried item's later outcome replaces the earlier one (outcome outbox). */
  attempt?: number;
}

export interface HotFolderEngine {
  /**
   * Starts a batch for these files (spec.inputs.paths); resolves once the batch is durable in the journal. Once
   * `signal` aborts (the folder closed and stopped waiting), it journals nothing and rejects.
   */
  submit(spec: BatchSpec, options?: { signal?: AbortSignal }): Promise<{ batchId: string }>;
  /**
   * Every terminal outcome of every attempt of an item of a hot-folder batch, once, in order (the journal's outcome
   * outbox), including batches resumed after a restart. The next one is delivered after the returned promise settles.
   */
  onItemFinal(listener: (outcome: HotFolderItemOutcome) => void | Promise<void>): () => void;
  /**
   * Studio takeover: follows executions another instance submitted for these files (and died), saving their results
   * like its own; never submits anything.
   */
  adopt?(spec: BatchSpec, executions: ReadonlyArray<{ path: string; executionId: string; credits: number }>): Promise<{ batchId: string }>;
  /** The folder moved an original (move-originals): the item reads it from there if it is retried. */
  sourceMoved?(itemId: string, from: string, to: string): void;
  /** Credits one execution of the workflow costs (dry-run totals, budget). */
  creditCost(workflowId: string): Promise<number>;
  /** A non-final item with this content hash exists for this folder (survives restarts: the engine resumes it). */
  isInFlight?(contentHash: string, hotFolderId: string): boolean | Promise<boolean>;
}

export type LedgerOutcome = 'saved' | 'failed' | 'unknown' | 'charged-no-result' | 'cancelled' | 'skipped';

export interface LedgerRecordInput {
  key: string;
  contentHash: string;
  workflowId: string;
  parametersHash: string;
  sourcePath: string;
  outcome: LedgerOutcome;
  outputs: string[];
  executionId: string | null;
  itemId: string | null;
  hotFolderId: string | null;
  /** What the service charged for it (the studio's shared budget counts it). */
  creditsCharged?: number;
}

export interface HotFolderLedger {
  /** The outcome recorded under this key, or null. */
  get(key: string): { outcome: LedgerOutcome } | null | Promise<{ outcome: LedgerOutcome } | null>;
  record(entry: LedgerRecordInput): void | Promise<void>;
}

export type Classification = { supported: true } | { supported: false; reason: string };

/** Content hashing and "is this an image we can send" — the engine's images module in production. */
export interface FileInspector {
  contentHash(path: string): Promise<string>;
  classify(path: string): Promise<Classification>;
}

/** Where hot-folder configs live (the settings store in the app; memory for `batchroom watch <dir>`). */
export interface HotFolderConfigStore {
  load(): HotFolderConfig[] | Promise<HotFolderConfig[]>;
  save(configs: HotFolderConfig[]): void | Promise<void>;
}

/**
 * Files that were already in a folder when it was armed with the 'skip' policy, remembered by a cheap fingerprint
 * (size + mtime) so a restart does not mistake them for files added while the app was closed.
 */
export interface BaselineStore {
  load(folderId: string): Promise<Set<string>>;
  add(folderId: string, fingerprints: readonly string[]): Promise<void>;
  /** Swaps the whole set at once: until it returns, the old one stays valid (a crash never leaves neither). */
  replace(folderId: string, fingerprints: readonly string[]): Promise<void>;
  clear(folderId: string): Promise<void>;
}
