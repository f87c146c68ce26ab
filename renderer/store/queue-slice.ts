import { inGroup } from '../../shared/engine/item-states';
import type {  BatchSummary, ItemState, ItemView } from '../../shared/engine/model';
import { asUiError, unwrap } from '../lib/errors';
import type { StatusFilter, QueueSlice, SliceCreator } from './state';

export function matchesFilter(state: ItemState, filter: StatusFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'active') return inGroup('inFlight', state);
  return state === filter;
}

const PAGE = 5_000;

/** Position lookups per batch, kept beside the store so a progress event patches in O(changed items). */
const positions = new WeakMap<ItemView[], Map<string, number>>();
function indexOf(list: ItemView[]): Map<string, number> {
  let index = positions.get(list);
  if (!index) {
    index = new Map(list.map((item, i) => [item.id, i]));
    positions.set(list, index);
  }
  return index;
}

function mergeItems(list: ItemView[], changed: ItemView[]): ItemView[] {
  const index = indexOf(list);
  const next = list.slice();
  let appended = false;
  for (const item of changed) {
    const at = index.get(item.id);
    if (at === undefined) {
      next.push(item);
      appended = true;
    } else next[at] = item;
  }
  if (appended) next.sort((a, b) => a.position - b.position);
  else positions.set(next, index); // same ids at the same places: the lookup stays valid
  return next;
}

// Open batches first, in the order the engine submits them (priority, then queue order: docs/engine.md "Queue
// order"), so a move shows where the batch went; then the finished ones newest first. ISO timestamps sort as plain
// strings; localeCompare would load ICU's collation data on a page's first use (tens of ms) for nothing.
const isOpen = (b: BatchSummary) => b.state === 'running' || b.state === 'paused';
const newestFirst = (a: BatchSummary, b: BatchSummary) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0);
const submitOrder = (a: BatchSummary, b: BatchSummary) =>
  (b.priority ?? 0) - (a.priority ?? 0) || (a.queueOrder ?? 0) - (b.queueOrder ?? 0) || newestFirst(a, b);
const orderOf = (batches: Record<string, BatchSummary>) =>
  Object.values(batches).sort((a, b) => Number(isOpen(b)) - Number(isOpen(a)) || (isOpen(a) ? submitOrder(a, b) : newestFirst(a, b))).map((b) => b.id);

export const createQueueSlice: SliceCreator<QueueSlice> = (set, get, bridge) => {
  const control = async (run: () => Promise<BatchSummary>) => {
    try {
      get().upsertBatches([await run()]);
    } catch (error) {
      get().notifyError(asUiError(error));
    }
  };
  const itemAction = async (run: () => Promise<ItemView>) => {
    try {
      const item = await run();
      get().applyProgress({ batches: [], items: [item] });
    } catch (error) {
      get().notifyError(asUiError(error));
    }
  };

  const inFlight = new Map<string, Promise<void>>();
  const fetchAll = async (batchId: string) => {
    try {
      const list: ItemView[] = [];
      let total = 0;
      do {
        const page = await unwrap(bridge.batches.items({ batchId, offset: list.length, limit: PAGE }));
        total = page.total;
        list.push(...page.items);
        if (page.items.length === 0) break;
      } while (list.length < total);
      list.sort((a, b) => a.position - b.position);
      // Events that arrived while pages loaded are newer than the pages: keep them.
      const during = get().itemsByBatch[batchId]?.list ?? [];
      const merged = mergeItems(list, during);
      set((s) => ({ itemsByBatch: { ...s.itemsByBatch, [batchId]: { total, list: merged, loaded: true } } }));
    } catch (error) {
      get().notifyError(asUiError(error));
    }
  };

  return {
    batches: {},
    batchOrder: [],
    selectedBatchId: null,
    itemsByBatch: {},
    statusFilter: 'all',
    progressEvents: 0,
    unreachable: null,

    async loadBatches() {
      try {
        const list = await unwrap(bridge.batches.list({}));
        get().upsertBatches(list);
        const { selectedBatchId, batchOrder } = get();
        if (!selectedBatchId && batchOrder[0]) get().selectBatch(batchOrder[0]);
      } catch (error) {
        get().notifyError(asUiError(error));
      }
    },

    loadItems(batchId) {
      // One load per batch at a time: selecting a batch and an explicit refresh share the same request.
      const running = inFlight.get(batchId);
      if (running) return running;
      const load = fetchAll(batchId).finally(() => inFlight.delete(batchId));
      inFlight.set(batchId, load);
      return load;
    },

    selectBatch(batchId) {
      set({ selectedBatchId: batchId });
      if (batchId && !get().itemsByBatch[batchId]?.loaded) void get().loadItems(batchId);
    },
    setStatusFilter: (statusFilter) => set({ statusFilter }),

    upsertBatches(list) {
      if (list.length === 0) return;
      set((s) => {
        const batches = { ...s.batches };
        for (const b of list) batches[b.id] = b;
        return { batches, batchOrder: orderOf(batches) };
      });
    },

    applyProgress(event) {
      const byBatch = new Map<string, ItemView[]>();
      for (const item of event.items) {
        const group = byBatch.get(item.batchId) ?? [];
        group.push(item);
        byBatch.set(item.batchId, group);
      }
      // One state change per event, so subscribers render once per message.
      set((s) => {
        let { batches, batchOrder } = s;
        if (event.batches.length > 0) {
          batches = { ...batches };
          for (const b of event.batches) batches[b.id] = b;
          batchOrder = orderOf(batches);
        }
        let itemsByBatch = s.itemsByBatch;
        for (const [batchId, changed] of byBatch) {
          const current = itemsByBatch[batchId];
          // Batches whose items were never opened are not kept item by item: their summary is enough.
          if (!current) continue;
          if (itemsByBatch === s.itemsByBatch) itemsByBatch = { ...itemsByBatch };
          const list = mergeItems(current.list, changed);
          itemsByBatch[batchId] = { ...current, list, total: Math.max(current.total, list.length) };
        }
        const unreachable = event.engine ? event.engine.unreachable ?? null : s.unreachable;
        return { batches, batchOrder, itemsByBatch, unreachable, progressEvents: s.progressEvents + 1 };
      });
    },

    pauseBatch: (batchId) => control(() => unwrap(bridge.batches.pause({ batchId }))),
    resumeBatch: (batchId) => control(() => unwrap(bridge.batches.resume({ batchId }))),
    cancelBatch: (batchId) => control(() => unwrap(bridge.batches.cancel({ batchId }))),
    retryFailed: async (batchId) => {
      await control(() => unwrap(bridge.batches.retryFailed({ batchId })));
      await get().loadItems(batchId);
    },
    async continueTrial(batchId) {
      try {
        const next = await unwrap(bridge.batches.continueTrial({ batchId }));
        get().upsertBatches([next]);
        get().selectBatch(next.id);
      } catch (error) {
        get().notifyError(asUiError(error));
      }
    },
    async providerReport(batchId) {
      try {
        return await unwrap(bridge.batches.providerReport({ batchId }));
      } catch (error) {
        get().notifyError(asUiError(error));
        return null;
      }
    },
    async cancelAll() {
      const open = Object.values(get().batches).filter((b) => b.state === 'running' || b.state === 'paused');
      await Promise.all(open.map((b) => get().cancelBatch(b.id)));
    },
    cancelItem: (itemId) => itemAction(() => unwrap(bridge.items.cancel({ itemId }))),
    resubmitItem: (itemId, acknowledgeMayChargeTwice) =>
      itemAction(() => unwrap(bridge.items.resubmit({ itemId, acknowledgeMayChargeTwice }))),
    moveBatch: (batchId, to) => control(() => unwrap(bridge.batches.move({ batchId, to }))),
    async moveToFront(batchId, itemIds) {
      try {
        await unwrap(bridge.items.reorder({ batchId, itemIds, beforeItemId: null }));
        await get().loadItems(batchId);
      } catch (error) {
        get().notifyError(asUiError(error));
      }
    },
  };
};
