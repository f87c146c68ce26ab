import type { BatchSummary, ItemState, ItemView } from '../../shared/engine/model';
import { matchesItemFilter, statesOfFilter } from '../../shared/ipc/channels/item-window';
import { asUiError, unwrap } from '../lib/errors';
import { emptyList, listKey, patchList, PAGE_SIZE, withPage, type ItemList } from './item-lists';
import type { StatusFilter, QueueSlice, SliceCreator } from './state';

export function matchesFilter(state: ItemState, filter: StatusFilter): boolean {
  return matchesItemFilter(state, filter);
}

/** How many items of a batch a filter shows, from the batch summary's counts (what the chips say). */
export function filterTotal(batch: BatchSummary, filter: StatusFilter): number {
  const states = statesOfFilter(filter);
  return states === null ? batch.total : states.reduce((sum, state) => sum + (batch.counts[state] ?? 0), 0);
}

/** A list read again at most this often while progress moves items in and out of its filter. */
const REFRESH_MS = 1000;

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

  // One request per list page at a time: the list asking as rows appear and a refresh share it.
  const inFlight = new Map<string, Promise<void>>();
  const fetchPage = async (batchId: string, filter: StatusFilter, page: number) => {
    const key = listKey(batchId, filter);
    try {
      const answer = await unwrap(bridge.batches.itemWindow({ batchId, filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE }));
      set((s) => {
        const list = s.itemLists[key] ?? emptyList(batchId, filter);
        // Review's saved list is shared by the photo on screen and its strip: the strip scrolled far along must not
        // drop the photo's own page (the viewer would empty and its keys go with it).
        const reviewing = filter === 'saved' && s.selectedBatchId === batchId;
        const keep = reviewing ? Math.floor(s.reviewIndex / PAGE_SIZE) : undefined;
        const next: ItemList = { ...list, total: answer.total, pages: withPage(list.pages, page, answer.items, keep), loaded: true };
        // A photo saved ahead of the one on screen moved it along the list: Review follows the photo, not the index.
        const at = reviewing && s.reviewItemId ? answer.items.findIndex((i) => i.id === s.reviewItemId) : -1;
        const moved = at >= 0 && page * PAGE_SIZE + at !== s.reviewIndex ? { reviewIndex: page * PAGE_SIZE + at } : {};
        return { itemLists: { ...s.itemLists, [key]: next }, ...moved };
      });
    } catch (error) {
      get().notifyError(asUiError(error));
    }
  };
  const loadPage = (batchId: string, filter: StatusFilter, page: number): Promise<void> => {
    const id = `${listKey(batchId, filter)}#${page}`;
    const running = inFlight.get(id);
    if (running) return running;
    const load = fetchPage(batchId, filter, page).finally(() => inFlight.delete(id));
    inFlight.set(id, load);
    return load;
  };
  /** Reads a list's loaded pages again (page 0 when none is loaded). */
  const reload = async (batchId: string, filter: StatusFilter) => {
    const list = get().itemLists[listKey(batchId, filter)];
    const pages = list ? Object.keys(list.pages).map(Number) : [];
    set((s) => (s.itemLists[listKey(batchId, filter)] ? { itemLists: { ...s.itemLists, [listKey(batchId, filter)]: { ...s.itemLists[listKey(batchId, filter)]!, stale: false } } } : {}));
    await Promise.all((pages.length > 0 ? pages : [0]).map((page) => loadPage(batchId, filter, page)));
  };
  const refreshTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const scheduleRefresh = (list: ItemList) => {
    const key = listKey(list.batchId, list.filter);
    if (refreshTimers.has(key)) return;
    refreshTimers.set(key, setTimeout(() => {
      refreshTimers.delete(key);
      if (get().itemLists[key]?.stale) void reload(list.batchId, list.filter);
    }, REFRESH_MS));
  };

  return {
    batches: {},
    batchOrder: [],
    selectedBatchId: null,
    itemLists: {},
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

    loadItemPage: (batchId, filter, page) => {
      const list = get().itemLists[listKey(batchId, filter)];
      if (list?.pages[page] && !list.stale) return Promise.resolve();
      return loadPage(batchId, filter, page);
    },

    async loadItems(batchId) {
      // Every list of the batch read again where it is loaded (after a retry or a reorder changed its items).
      const lists = Object.values(get().itemLists).filter((l) => l.batchId === batchId);
      const filters = new Set<StatusFilter>([get().statusFilter, ...lists.map((l) => l.filter)]);
      await Promise.all([...filters].map((filter) => reload(batchId, filter)));
    },

    selectBatch(batchId) {
      set({ selectedBatchId: batchId });
      if (batchId && !get().itemLists[listKey(batchId, get().statusFilter)]?.loaded) void loadPage(batchId, get().statusFilter, 0);
    },
    setStatusFilter(statusFilter) {
      const { selectedBatchId, itemLists } = get();
      // The other filters' queue lists are dropped (Review's list of saved items stays): one window per screen.
      const kept = Object.fromEntries(Object.entries(itemLists).filter(([, l]) => l.batchId !== selectedBatchId || l.filter === 'saved'));
      set({ statusFilter, itemLists: kept });
      if (selectedBatchId) void loadPage(selectedBatchId, statusFilter, 0);
    },

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
      const summaries = new Map(event.batches.map((b) => [b.id, b]));
      const refresh: ItemList[] = [];
      // One state change per event, so subscribers render once per message.
      set((s) => {
        let { batches, batchOrder } = s;
        if (event.batches.length > 0) {
          batches = { ...batches };
          for (const b of event.batches) batches[b.id] = b;
          batchOrder = orderOf(batches);
        }
        let itemLists = s.itemLists;
        for (const [key, list] of Object.entries(s.itemLists)) {
          // Only the windows on screen are kept item by item: a batch nobody looks at is its summary.
          const changed = byBatch.get(list.batchId);
          const summary = summaries.get(list.batchId);
          let next = changed ? patchList(list, changed) : list;
          if (summary && next.loaded && filterTotal(summary, next.filter) !== next.total) next = { ...next, total: filterTotal(summary, next.filter), stale: true };
          if (next === list) continue;
          if (itemLists === s.itemLists) itemLists = { ...itemLists };
          itemLists[key] = next;
          if (next.stale) refresh.push(next);
        }
        const unreachable = event.engine ? event.engine.unreachable ?? null : s.unreachable;
        return { batches, batchOrder, itemLists, unreachable, progressEvents: s.progressEvents + 1 };
      });
      for (const list of refresh) scheduleRefresh(list);
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
