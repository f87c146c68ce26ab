export { createHotFolderManager, type HotFolderManager, type HotFolderManagerOptions, type HotFolderEvents } from './manager';
export { createHotFolderHandlers } from './handlers';
export { createFileBaselineStore, createMemoryBaselineStore } from './baseline-store';
export { createFileHashCache, createMemoryHashCache, type HashCacheStore } from './hash-cache';
export { DEFAULT_WATCH_TIMINGS, type WatchTimings } from './folder-watcher';
export { defaultInspector } from './inspector';
export { junkReason, DONE_DIR, FAILED_DIR } from './ignore';
export type {
  BaselineStore, FileInspector, HotFolderConfigStore, HotFolderEngine, HotFolderItemOutcome, HotFolderLedger,
  LedgerRecordInput, LedgerOutcome,
} from './ports';
