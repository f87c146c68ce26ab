import { createStore } from 'zustand/vanilla';
import type { Api } from '../../shared/ipc/contract';
import { showWebAttention, type WebNotificationApi } from '../lib/web-notify';
import { createBatchSlice } from './batch-slice';
import { createCatalogSlice } from './catalog-slice';
import { createHistorySlice } from './history-slice';
import { createHotFolderSlice } from './hotfolder-slice';
import { coalesceProgress } from './progress-coalescer';
import { createQueueSlice } from './queue-slice';
import { createRecipeSlice } from './recipe-slice';
import { createReviewSlice } from './review-slice';
import { createServiceSlice } from './service-slice';
import type { AppState, AppStore } from './state';
import { createStudioSlice } from './studio-slice';
import { createUiSlice } from './ui-slice';

/** One store from slices; the bridge is a parameter so tests and benches inject their own. */
export function createAppStore(bridge: Api): AppStore {
  return createStore<AppState>()((set, get) => ({
    ...createUiSlice(set, get, bridge),
    ...createServiceSlice(set, get, bridge),
    ...createCatalogSlice(set, get, bridge),
    ...createBatchSlice(set, get, bridge),
    ...createQueueSlice(set, get, bridge),
    ...createReviewSlice(set, get, bridge),
    ...createHotFolderSlice(set, get, bridge),
    ...createStudioSlice(set, get, bridge),
    ...createRecipeSlice(set, get, bridge),
    ...createHistorySlice(set, get, bridge),
  }));
}

/**
 * Wires main's events into the store and loads the first screenful. Returns a function that unsubscribes
 * everything (tests call it; the app lives as long as the window).
 */
export function connectStore(store: AppStore, bridge: Api, options: { notifications?: WebNotificationApi } = {}): () => void {
  const s = () => store.getState();
  /** Review of the batch a notification named (a hot-folder run without a known batch: the queue). */
  const openBatch = (view: 'review' | 'queue', batchId: string | null | undefined) =>
    (view === 'review' && batchId ? s().openReview(batchId) : s().setView(view));
  // Progress is applied once per frame, however many messages arrived in it (one store change, one render).
  const coalescer = coalesceProgress((event) => {
    // A batch that just finished has spent credits: read the balance again rather than wait for main to say so.
    const finished = event.batches.some((b) => b.state !== 'running' && b.state !== 'paused' && s().batches[b.id]?.state === 'running');
    s().applyProgress(event);
    if (finished) void s().refreshBalance();
  });
  const unsubscribers = [
    coalescer.stop,
    bridge.batches.onProgress((event) => coalescer.push(event)),
    bridge.batches.onEstimateProgress((progress) => s().applyEstimateProgress(progress)),
    bridge.balance.onChanged((balance) => s().applyBalance(balance)),
    bridge.service.onChanged((status) => {
      s().applyServiceStatus(status);
      void s().loadWorkflows();
      void s().refreshBalance();
    }),
    bridge.settings.onChanged((settings) => s().applySettings(settings)),
    bridge.consent.onRequested((request) => s().applyConsentRequest(request)),
    bridge.hotFolders.onChanged((list) => s().applyHotFolders(list)),
    bridge.hotFolders.onActivity((entry) => s().applyActivity(entry)),
    bridge.app.onNotice((notice) => s().notify(notice.level, notice.message)),
    bridge.app.onNavigate(({ view, batchId }) => (view === 'review' ? openBatch(view, batchId) : s().setView(view))),
    // The browser host says "done" itself (a Web Notification, when allowed); the Electron app's main process does.
    bridge.app.onAttention((attention) => {
      if (s().appInfo?.host !== 'browser' || !s().settings?.notifyWhenDone) return;
      showWebAttention(attention, () => openBatch(attention.batchId ? 'review' : 'queue', attention.batchId), options.notifications);
    }),
    bridge.files.onOpened(({ paths }) => {
      s().addPaths(paths);
      s().setView('workflows');
    }),
  ];
  void s().loadService();
  void s().loadWorkflows();
  void s().loadBatches();
  void s().loadHotFolders();
  void s().loadRecipes();
  return () => unsubscribers.forEach((off) => off());
}
