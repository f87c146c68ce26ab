import { statesOf } from '../../shared/engine/item-states';
import { ITEM_STATES, type BatchSummary, type ItemView } from '../../shared/engine/model';
import type { IpcResult } from '../../shared/ipc/contract-kit';
import { matchesItemFilter, type ItemFilter } from '../../shared/ipc/channels/item-window';
import { DEFAULT_SETTINGS } from '../../shared/settings/schema';
import { makeBridge } from '../bridge/make-bridge';

// The bench's stand-in for main: one batch of N items, and a progress source that behaves like the engine's
// coalescer (at most `rate` messages per second, each carrying the items that changed since the last one).

/** The in-flight states in order: each tick moves an item one step along them. */
const ACTIVE = statesOf('inFlight');

/**
 * `mixed`: a batch part-way through (every 50th item failed, every 3rd saved with a result, the rest pending), for
 * the filter and Review figures of bench/scale-ui.ts; otherwise every item starts pending (bench/ui-queue.ts).
 */
export function createScriptedBridge(total: number, mixed = false) {
  const stateAt = (n: number): ItemView['state'] => (!mixed ? 'pending' : n % 50 === 7 ? 'failed' : n % 3 === 0 ? 'saved' : 'pending');
  const items: ItemView[] = Array.from({ length: total }, (_, n) => {
    const state = stateAt(n);
    return {
      id: `i${n}`, batchId: 'bench', position: n, displayName: `IMG_${String(n).padStart(5, '0')}.jpg`, sources: { photo: `/in/IMG_${n}.jpg` },
      state, progress: state === 'saved' ? 100 : 0, reason: state === 'failed' ? 'bench failure' : null, executionId: null,
      outputs: state === 'saved' ? [`/out/IMG_${n}.jpg`] : [], creditsCharged: 0, verdict: null, updatedAt: new Date(0).toISOString(),
    };
  });
  /**
   * What main was asked for: item requests, items sent across, thumbnails asked; and `mainMs`, the time this
   * stand-in for main spent on the page's own thread (the real main is another process), so the bench can tell the
   * renderer's part of a figure from it.
   */
  const served = { itemRequests: 0, itemsSent: 0, thumbnails: 0, mainMs: 0 };
  // Kept as items change (as main's journal keeps its counts), not summed over the batch on every message.
  const tally = Object.fromEntries(ITEM_STATES.map((s) => [s, 0])) as BatchSummary['counts'];
  let progressSum = 0;
  const weight = (i: ItemView) => (i.state === 'saved' ? 100 : i.progress);
  for (const i of items) {
    tally[i.state] += 1;
    progressSum += weight(i);
  }
  const counts = () => ({ ...tally });
  /** Filtered lists, made once per filter until an item changes (main answers a page from an index). */
  let filtered = new Map<ItemFilter, ItemView[]>();
  const summary = (): BatchSummary => {
    const c = counts();
    const progress = progressSum / (total * 100);
    return {
      id: 'bench', workflowId: 'color-grade', workflowName: 'Color Grade', state: 'running', pausedReason: null, pauseCode: null, createdAt: new Date(0).toISOString(),
      total, counts: c, progress, etaMs: 60_000, creditCost: total, unitCost: 1, trialRest: null, creditsSpent: c.saved, budget: null, outputFolder: '/out',
    };
  };
  const listeners = new Set<(payload: unknown) => void>();
  const delivered: number[] = [];
  let itemUpdates = 0;

  const invoke = async (channel: string, args: unknown): Promise<IpcResult<unknown>> => {
    const start = performance.now();
    try {
      return answer(channel, args);
    } finally {
      served.mainMs += performance.now() - start;
    }
  };
  const answer = (channel: string, args: unknown): IpcResult<unknown> => {
    const ok = (data: unknown): IpcResult<unknown> => ({ ok: true, data });
    switch (channel) {
      case 'app:info': return ok({ version: 'bench', host: 'browser', platform: 'bench' });
      case 'service:status': return ok({ mode: 'sandbox', serviceUrl: 'http://bench', keyMasked: null, keySource: 'sandbox', message: 'bench' });
      case 'settings:get': return ok({ settings: { ...DEFAULT_SETTINGS, theme: 'light' }, warnings: [] });
      case 'key:status': return ok({ mode: 'sandbox', serviceUrl: 'http://bench', hasKey: false, keyMasked: null, source: 'none', sandboxReason: 'no-key', keychainAvailable: true, message: '' });
      case 'balance:get': return ok({ apiCredits: 100_000, webCredits: { total: 0, breakdown: [] } });
      case 'workflows:list': return ok({ workflows: [] });
      case 'hotFolders:list': return ok([]);
      case 'batches:list': return ok([summary()]);
      case 'batches:items': {
        const { offset = 0, limit = 500 } = args as { offset?: number; limit?: number };
        const page = items.slice(offset, offset + limit);
        served.itemRequests += 1;
        served.itemsSent += page.length;
        return ok({ total, items: page });
      }
      case 'batches:itemWindow': {
        // Main's answer to a list page (main/core/journal/item-window.ts filters in SQLite; here, in memory).
        const { batchId, filter = 'all', offset = 0, limit = 200 } = args as { batchId: string; filter?: ItemFilter; offset?: number; limit?: number };
        let matching = filter === 'all' ? items : filtered.get(filter);
        if (!matching) {
          matching = items.filter((i) => matchesItemFilter(i.state, filter));
          filtered.set(filter, matching);
        }
        const page = matching.slice(offset, offset + limit);
        served.itemRequests += 1;
        served.itemsSent += page.length;
        return ok({ batchId, filter, offset, total: matching.length, items: page });
      }
      case 'files:thumbnailUrl':
        served.thumbnails += 1;
        return ok({ url: null });
      case 'files:previewUrl': return ok({ url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' });
      default: return { ok: false, code: 'unsupported', message: `${channel} is not scripted` };
    }
  };
  const subscribe = (channel: string, listener: (payload: unknown) => void) => {
    if (channel !== 'batches:progress') return () => {};
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  let cursor = 0;
  /** One coalesced message: the next `perMessage` items advance one step (pending → active → … → saved). */
  const tick = (perMessage: number) => {
    const start = performance.now();
    const changed: ItemView[] = [];
    for (let k = 0; k < perMessage; k++) {
      const at = cursor++ % total;
      const item = items[at]!;
      // Failed stays failed; in the mixed batch saved stays saved too, as in a real batch (the filter and Review
      // figures have them to find: a longer run had moved every saved item back to running). bench/ui-queue.ts's
      // all-pending batch keeps cycling saved items round, so its stream never runs dry.
      if (item.state === 'failed' || (mixed && item.state === 'saved')) continue;
      const next: ItemView = item.state === 'saved'
        ? { ...item, state: 'running', progress: 5 }
        : item.progress >= 90 ? { ...item, state: 'saved', progress: 100, outputs: [`/out/${item.displayName}`] }
          : { ...item, state: ACTIVE[(item.progress / 20) | 0] ?? 'running', progress: item.progress + 20 };
      items[at] = next;
      tally[item.state] -= 1;
      tally[next.state] += 1;
      progressSum += weight(next) - weight(item);
      changed.push(next);
    }
    if (changed.length > 0) filtered = new Map();
    itemUpdates += changed.length;
    const event = { batches: [summary()], items: changed };
    served.mainMs += performance.now() - start;
    delivered.push(performance.now());
    for (const l of listeners) l(event);
  };

  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    api: makeBridge(invoke, subscribe),
    startProgress(ratePerSecond: number, perMessage: number) {
      timer = setInterval(() => tick(perMessage), 1000 / ratePerSecond);
    },
    stopProgress() {
      if (timer) clearInterval(timer);
    },
    stats: () => ({ delivered: [...delivered], itemUpdates }),
    served: () => ({ ...served }),
    /** The batch's items per state as main holds them now (what a filter must show). */
    counts: () => counts(),
    /** The name of the last item in a state (null: of the batch), where scrolling to the end must arrive. */
    lastName: (state: string | null) => [...items].reverse().find((i) => state === null || i.state === state)?.displayName ?? '',
  };
}
