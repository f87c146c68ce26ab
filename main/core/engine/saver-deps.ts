import type { ResultMetadataWriter } from '../images/result-metadata';
import type { Journal } from '../journal/journal';
import type { BatchRecord, ItemRecord } from '../journal/types';
import type { ServiceClient } from '../service/types';
import type { RequestGate } from './limiter';
import type { NamePlanCache } from './name-plan-cache';
import type { ResultCache } from './result-cache';

// What saving results needs from the engine (saver.ts and its steps, save-steps.ts).

export interface SaverDeps {
  journal: Journal;
  client: ServiceClient;
  gate: RequestGate;
  originalsOf: (batchId: string) => ReadonlySet<string>;
  /** Each output folder's name plan, reused while it holds (see name-plan-cache.ts). */
  namePlans: NamePlanCache;
  now: () => Date;
  onChange: (item: ItemRecord) => void;
  /** Time spent downloading and saving each result (the engine's phase totals). */
  onPhase?: (phase: 'download' | 'save', ms: number) => void;
  /** Copies the original's metadata onto each result (policy per batch) before it is placed. */
  metadata?: ResultMetadataWriter;
  /** Where each result's bytes are kept until they are saved (result-cache.ts); absent: written straight out. */
  cache?: ResultCache;
  /**
   * Asked right before each result gets its final name (studio mode): throws PlacementWithdrawn when another instance
   * owns the photo now, PlacementUndecided when the ledger cannot tell.
   */
  confirmPlacement?: (item: ItemRecord, batch: BatchRecord) => Promise<void>;
}
