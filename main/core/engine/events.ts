import type { BatchProgressEvent } from '../../../shared/engine/model';

// Coalesces engine changes into at most one event per interval (100 ms → ≤ 10 messages a second, however many
// items change): callers mark what changed, the flush reads the current state once per marked id.

export type ProgressListener = (event: BatchProgressEvent) => void;

export interface Coalescer {
  markBatch(id: string): void;
  markItem(id: string, batchId: string): void;
  on(listener: ProgressListener): () => void;
  /** Emits now whatever is pending (used on stop and in tests). */
  flush(): void;
  close(): void;
}

const MAX_ITEMS_PER_EVENT = 500;

export function createCoalescer(build: (batchIds: string[], itemIds: string[]) => BatchProgressEvent, intervalMs = 100): Coalescer {
  const listeners = new Set<ProgressListener>();
  const batches = new Set<string>();
  const items = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let lastEmit = 0;

  const flush = () => {
    if (timer) { clearTimeout(timer); timer = null; }
    if (batches.size === 0 && items.size === 0) return;
    const itemIds = [...items].slice(0, MAX_ITEMS_PER_EVENT);
    for (const id of itemIds) items.delete(id);
    const batchIds = [...batches];
    batches.clear();
    lastEmit = Date.now();
    if (listeners.size > 0) {
      const event = build(batchIds, itemIds);
      for (const listener of listeners) {
        try { listener(event); } catch { /* a listener's failure is its own */ }
      }
    }
    if (items.size > 0) schedule();
  };

  const schedule = () => {
    if (timer) return;
    const wait = Math.max(0, intervalMs - (Date.now() - lastEmit));
    timer = setTimeout(flush, wait);
    timer.unref?.();
  };

  return {
    markBatch: (id) => { batches.add(id); schedule(); },
    markItem: (id, batchId) => { items.add(id); batches.add(batchId); schedule(); },
    on: (listener) => { listeners.add(listener); return () => listeners.delete(listener); },
    flush,
    close: () => { if (timer) clearTimeout(timer); timer = null; listeners.clear(); },
  };
}
