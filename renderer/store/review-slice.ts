import type { ItemView } from '../../shared/engine/model';
import { asUiError, unwrap } from '../lib/errors';
import type { ReviewSlice, AppState, SliceCreator } from './state';
import { activeFormat, tr } from '../i18n';

/** Items that have something to look at: saved, with at least one output. */
export const isReviewable = (item: ItemView): boolean => item.state === 'saved' && item.outputs.length > 0;

export function reviewableItems(s: Pick<AppState, 'itemsByBatch'>, batchId: string | null): ItemView[] {
  return batchId ? (s.itemsByBatch[batchId]?.list ?? []).filter(isReviewable) : [];
}

export const createReviewSlice: SliceCreator<ReviewSlice> = (set, get, bridge) => ({
  reviewItemId: null,
  compareMode: 'slider',
  zoom: 1,
  sliderPosition: 50,
  previewUrls: {},
  thumbnailUrls: {},

  openReview(batchId, itemId) {
    get().selectBatch(batchId);
    const first = reviewableItems(get(), batchId)[0];
    set({ reviewItemId: itemId ?? first?.id ?? null, view: 'review', zoom: 1 });
  },

  stepReview(delta) {
    const s = get();
    const list = reviewableItems(s, s.selectedBatchId);
    if (list.length === 0) return;
    const at = list.findIndex((i) => i.id === s.reviewItemId);
    const next = at < 0 ? 0 : Math.max(0, Math.min(list.length - 1, at + delta));
    set({ reviewItemId: list[next]!.id });
  },

  setCompareMode: (compareMode) => set({ compareMode }),
  setZoom: (zoom) => set({ zoom }),
  setSliderPosition: (position) => set({ sliderPosition: Math.max(0, Math.min(100, Math.round(position))) }),

  async loadPreview(path) {
    if (path in get().previewUrls) return;
    set((s) => ({ previewUrls: { ...s.previewUrls, [path]: null } }));
    try {
      const { url } = await unwrap(bridge.files.previewUrl({ path }));
      set((s) => ({ previewUrls: { ...s.previewUrls, [path]: url } }));
    } catch {
      // Left as null: the viewer says the preview is unavailable instead of showing a broken image.
    }
  },

  async loadThumbnail(path) {
    if (path in get().thumbnailUrls) return;
    set((s) => ({ thumbnailUrls: { ...s.thumbnailUrls, [path]: null } }));
    try {
      const { url } = await unwrap(bridge.files.thumbnailUrl({ path }));
      if (url) set((s) => ({ thumbnailUrls: { ...s.thumbnailUrls, [path]: url } }));
    } catch {
      // No thumbnail (a URL input, a host without files): the row shows the name alone.
    }
  },

  async setVerdict(itemId, verdict) {
    try {
      const item = await unwrap(bridge.items.setVerdict({ itemId, verdict }));
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
    const rejected = (get().itemsByBatch[batchId]?.list ?? []).filter((i) => i.verdict === 'rejected').map((i) => i.id);
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
});
