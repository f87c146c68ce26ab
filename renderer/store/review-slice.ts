import type { ItemView } from '../../shared/engine/model';
import { asUiError, unwrap } from '../lib/errors';
import { itemAt, listKey, PAGE_SIZE } from './item-lists';
import type { ReviewSlice, AppState, SliceCreator } from './state';
import { activeFormat, tr } from '../i18n';

/** Items that have something to look at: saved, with at least one output. */
export const isReviewable = (item: ItemView): boolean => item.state === 'saved' && item.outputs.length > 0;

/** Review walks the batch's saved items, a window at a time like the queue (never the whole batch). */
export const reviewKey = (batchId: string): string => listKey(batchId, 'saved');

/** The batch's rejected items the renderer knows of: in the loaded pages, and the verdicts given since. */
export function rejectedIds(s: Pick<AppState, 'itemLists' | 'verdicts'>, batchId: string): Set<string> {
  const ids = new Set<string>();
  for (const page of Object.values(s.itemLists[reviewKey(batchId)]?.pages ?? {})) for (const i of page) if (i.verdict === 'rejected') ids.add(i.id);
  for (const [id, v] of Object.entries(s.verdicts[batchId] ?? {})) if (v === 'rejected') ids.add(id); else ids.delete(id);
  return ids;
}

/**
 * Thumbnails kept (URLs by path): the rows and strip slots on screen ask for theirs as they show, so scrolling a
 * 100k batch would otherwise keep 100k URLs and copy them all on every new one. The oldest go first; a row that
 * shows again asks again.
 */
export const MAX_THUMBNAILS = 600;

export function withThumbnail(urls: Record<string, string | null>, path: string, url: string | null): Record<string, string | null> {
  return withCappedUrl(urls, path, url);
}

/**
 * A URL record with one more, at most MAX_THUMBNAILS kept (thumbnails, and Review's previews: stepping through a
 * 100k batch asks two or three a photo, and 4,000 uncapped previews took 37.8 s of copying).
 */
export function withCappedUrl(urls: Record<string, string | null>, path: string, url: string | null): Record<string, string | null> {
  const keys = Object.keys(urls);
  if (keys.length < MAX_THUMBNAILS) return { ...urls, [path]: url };
  // Half of them at once: dropping one per new thumbnail copied all 600 for every row scrolled into view (150 ms of
  // the bench's traced 3 s at 100k).
  const next: Record<string, string | null> = {};
  for (const key of keys.slice(keys.length - MAX_THUMBNAILS / 2 + 1)) next[key] = urls[key]!;
  next[path] = url;
  return next;
}

/** `withCappedUrl` for several at once: one copy of the record, however many thumbnails a frame answered. */
export function withCappedUrls(urls: Record<string, string | null>, added: ReadonlyMap<string, string | null>): Record<string, string | null> {
  const keys = Object.keys(urls);
  if (keys.length + added.size <= MAX_THUMBNAILS) return { ...urls, ...Object.fromEntries(added) };
  const next: Record<string, string | null> = {};
  for (const key of keys.slice(Math.max(0, keys.length - Math.max(0, MAX_THUMBNAILS / 2 - added.size)))) next[key] = urls[key]!;
  for (const [path, url] of added) next[path] = url;
  return next;
}

export const createReviewSlice: SliceCreator<ReviewSlice> = (set, get, bridge) => {
  // Thumbnails answered within one frame go into the store in one change: a flick brings ~10 rows a frame, and each
  // store change copies the URL record and runs every subscriber's selector. Asked-for paths wait here, not in the
  // store (a null entry per row scrolled in was one more store change each).
  const asking = new Set<string>();
  let answered = new Map<string, string | null>();
  let flushing = false;
  const flushThumbnails = () => {
    flushing = false;
    const batch = answered;
    answered = new Map();
    for (const path of batch.keys()) asking.delete(path);
    set((s) => ({ thumbnailUrls: withCappedUrls(s.thumbnailUrls, batch) }));
  };
  const answerThumbnail = (path: string, url: string | null) => {
    answered.set(path, url);
    if (flushing) return;
    flushing = true;
    if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') {
      // The timer too: a frame that never comes (the window hidden meanwhile) must not hold thumbnails back.
      let done = false;
      const once = () => { if (!done) { done = true; flushThumbnails(); } };
      requestAnimationFrame(once);
      setTimeout(once, 100);
    } else setTimeout(flushThumbnails, 16);
  };
  /** The index of an item in the saved list's loaded pages (null: not loaded). */
  const loadedIndexOf = (batchId: string, itemId: string): number | null => {
    const list = get().itemLists[reviewKey(batchId)];
    for (const [page, items] of Object.entries(list?.pages ?? {})) {
      const at = items.findIndex((i) => i.id === itemId);
      if (at >= 0) return Number(page) * PAGE_SIZE + at;
    }
    return null;
  };
  /** The index of an item in the batch's saved list: from the loaded pages, else read from main 1,000 at a time. */
  const indexOfSaved = async (batchId: string, itemId: string): Promise<number> => {
    const loaded = loadedIndexOf(batchId, itemId);
    if (loaded !== null) return loaded;
    for (let offset = 0; ; offset += 1000) {
      const window = await unwrap(bridge.batches.itemWindow({ batchId, filter: 'saved', offset, limit: 1000 }));
      const at = window.items.findIndex((i) => i.id === itemId);
      if (at >= 0) return offset + at;
      if (window.items.length < 1000) return 0;
    }
  };
  /** Shows the saved item at `index` once its page is here (the page is asked for first). */
  const showIndex = async (batchId: string, index: number) => {
    // The id goes with the index at once (null while its page loads): a page read meanwhile moves reviewIndex to
    // reviewItemId's place, and an old id would pull Review back to the photo it just left.
    set({ reviewIndex: index, reviewItemId: itemAt(get().itemLists[reviewKey(batchId)], index)?.id ?? null });
    await get().loadItemPage(batchId, 'saved', Math.floor(index / PAGE_SIZE));
    if (get().reviewIndex === index && get().selectedBatchId === batchId) set({ reviewItemId: itemAt(get().itemLists[reviewKey(batchId)], index)?.id ?? null });
  };

  return {
  reviewItemId: null,
  reviewIndex: 0,
  verdicts: {},
  compareMode: 'slider',
  zoom: 1,
  sliderPosition: 50,
  previewUrls: {},
  thumbnailUrls: {},

  openReview(batchId, itemId) {
    get().selectBatch(batchId);
    set({ reviewItemId: itemId ?? null, reviewIndex: 0, view: 'review', zoom: 1 });
    void (async () => {
      try {
        await get().loadItemPage(batchId, 'saved', 0);
        await showIndex(batchId, itemId ? await indexOfSaved(batchId, itemId) : 0);
      } catch (error) {
        get().notifyError(asUiError(error));
      }
    })();
  },

  stepReview(delta) {
    const s = get();
    const batchId = s.selectedBatchId;
    const total = batchId ? s.itemLists[reviewKey(batchId)]?.total ?? 0 : 0;
    if (!batchId || total === 0) return;
    // Step from where the photo on screen is now: while a batch runs, items saved ahead of it move it down the
    // saved list when the list is read again, and stepping from the old index would show the same photo twice.
    const here = (s.reviewItemId ? loadedIndexOf(batchId, s.reviewItemId) : null) ?? s.reviewIndex;
    const next = Math.max(0, Math.min(total - 1, here + delta));
    void showIndex(batchId, next);
  },

  showReviewAt(index) {
    const s = get();
    const batchId = s.selectedBatchId;
    const total = batchId ? s.itemLists[reviewKey(batchId)]?.total ?? 0 : 0;
    if (!batchId || total === 0) return;
    void showIndex(batchId, Math.max(0, Math.min(total - 1, index)));
  },

  setCompareMode: (compareMode) => set({ compareMode }),
  setZoom: (zoom) => set({ zoom }),
  setSliderPosition: (position) => set({ sliderPosition: Math.max(0, Math.min(100, Math.round(position))) }),

  async loadPreview(path) {
    if (path in get().previewUrls) return;
    set((s) => ({ previewUrls: withCappedUrl(s.previewUrls, path, null) }));
    try {
      const { url } = await unwrap(bridge.files.previewUrl({ path }));
      // Kept even if dropped meanwhile: it was asked for because the photo is on screen now.
      set((s) => ({ previewUrls: path in s.previewUrls ? { ...s.previewUrls, [path]: url } : withCappedUrl(s.previewUrls, path, url) }));
    } catch {
      // Left as null: the viewer says the preview is unavailable instead of showing a broken image.
    }
  },

  async loadThumbnail(path) {
    if (path in get().thumbnailUrls || asking.has(path)) return;
    asking.add(path);
    try {
      const { url } = await unwrap(bridge.files.thumbnailUrl({ path }));
      answerThumbnail(path, url);
    } catch {
      // No thumbnail (a URL input, a host without files): the row shows the name alone, and does not ask again.
      answerThumbnail(path, null);
    }
  },

  async setVerdict(itemId, verdict) {
    try {
      const item = await unwrap(bridge.items.setVerdict({ itemId, verdict }));
      set((s) => ({ verdicts: { ...s.verdicts, [item.batchId]: { ...s.verdicts[item.batchId], [item.id]: item.verdict } } }));
      get().applyProgress({ batches: [], items: [item] });
    } catch (error) {
      get().notifyError(asUiError(error));
    }
  },

  async exportAgain(request) {
    try {
      const { batches, notExportable } = await unwrap(bridge.batches.export(request));
      if (batches.length === 0) {
        get().notify('warning', notExportable.length > 0
          ? tr('review', 'store.nothingExportedBecause', { name: notExportable[0]!.displayName, reason: notExportable[0]!.reason })
          : tr('review', 'store.nothingExported'));
        return false;
      }
      get().upsertBatches(batches);
      get().selectBatch(batches[0]!.id);
      get().setView('queue');
      const files = batches.reduce((n, b) => n + b.total, 0);
      const exporting = tr('review', 'store.exporting', { count: files, credits: activeFormat().credits(0) });
      const list = notExportable.slice(0, 3).map((m) => `${m.displayName} (${m.reason})`).join('; ');
      get().notify('info', notExportable.length > 0 ? `${exporting} ${tr('review', 'store.cannotExport', { count: notExportable.length, list })}` : exporting);
      return true;
    } catch (error) {
      get().notifyError(asUiError(error));
      return false;
    }
  },

  async rerunRejected(batchId, parameters) {
    // Every rejected item of the batch, not only the loaded pages': the saved list read 1,000 at a time.
    const found = rejectedIds(get(), batchId);
    try {
      for (let offset = 0; ; offset += 1000) {
        const window = await unwrap(bridge.batches.itemWindow({ batchId, filter: 'saved', offset, limit: 1000 }));
        // A verdict given in this session is newer than the page (it was read before it, or by a slower reply).
        const given = get().verdicts[batchId] ?? {};
        for (const i of window.items) if (i.verdict === 'rejected' && (given[i.id] ?? 'rejected') === 'rejected') found.add(i.id);
        if (window.items.length < 1000) break;
      }
    } catch (error) {
      get().notifyError(asUiError(error));
      return false;
    }
    const rejected = [...found];
    if (rejected.length === 0) {
      get().notify('info', tr('review', 'store.nothingToRerun'));
      return false;
    }
    try {
      const summary = await unwrap(bridge.items.rerun({ itemIds: rejected, parameters }));
      get().upsertBatches([summary]);
      get().selectBatch(summary.id);
      get().setView('queue');
      get().notify('info', tr('review', 'store.rerunning', { count: rejected.length }));
      return true;
    } catch (error) {
      get().notifyError(asUiError(error));
      return false;
    }
  },

  async revealFile(path) {
    try {
      await unwrap(bridge.files.reveal({ path }));
    } catch (error) {
      get().notifyError(asUiError(error));
    }
  },
  async openFolder(path) {
    try {
      await unwrap(bridge.files.openFolder({ path }));
    } catch (error) {
      get().notifyError(asUiError(error));
    }
  },
  };
};
