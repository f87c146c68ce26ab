import { createRoot } from 'react-dom/client';
import { App } from '../App';
import { connectStore, createAppStore } from '../store/app-store';
import { StoreProvider } from '../store/context';
import '../styles/app.css';
import { createScriptedBridge } from './scripted-bridge';

// The queue screen with 10,000 items fed by a scripted progress source; bench/ui-queue.ts drives it in Chromium
// through `window.queueBench`.

// When the page's own steps happened (ms since navigation): where "first rows after" goes at 100k.
const scriptAt = performance.now();
const query = new URLSearchParams(location.search);
const total = Number(query.get('items') ?? 10_000);
const scripted = createScriptedBridge(total, query.get('mixed') === '1');
const bridgeAt = performance.now();
let firstRowsAt = 0;
const firstRows = new MutationObserver(() => {
  if (!document.querySelector('.item-row')) return;
  firstRowsAt = performance.now();
  firstRows.disconnect();
});
firstRows.observe(document.body, { childList: true, subtree: true });
const store = createAppStore(scripted.api);
connectStore(store, scripted.api);
store.getState().setView('queue');

/** What the DOM did during a measurement: elements added and removed, attributes and texts changed. */
interface DomChanges { added: number; removed: number; attributes: number; texts: number }

/**
 * Frame intervals (rAF to rAF), frame costs (rAF start to the first task after that frame's rendering), and what the
 * DOM under the table did meanwhile (elements made and dropped: rows mounted as they scroll in).
 */
function measureScrolling(ms: number, pxPerFrame: number): Promise<{ intervals: number[]; costs: number[]; dom: DomChanges }> {
  const scroller = document.querySelector<HTMLElement>('.item-scroller');
  if (!scroller) throw new Error('no queue scroller on the page');
  const intervals: number[] = [];
  const costs: number[] = [];
  const dom: DomChanges = { added: 0, removed: 0, attributes: 0, texts: 0 };
  const elements = (nodes: NodeList) => {
    let n = 0;
    nodes.forEach((node) => { if (node instanceof Element) n += 1 + node.getElementsByTagName('*').length; });
    return n;
  };
  const watcher = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') dom.attributes += 1;
      else if (r.type === 'characterData') dom.texts += 1;
      else {
        dom.added += elements(r.addedNodes);
        dom.removed += r.removedNodes.length;
      }
    }
  });
  watcher.observe(scroller, { childList: true, subtree: true, attributes: true, characterData: true });
  const channel = new MessageChannel();
  let frameStart = 0;
  channel.port1.onmessage = () => costs.push(performance.now() - frameStart);
  return new Promise((done) => {
    const end = performance.now() + ms;
    let last = 0;
    const frame = (now: number) => {
      frameStart = performance.now();
      if (last) intervals.push(now - last);
      last = now;
      const max = scroller.scrollHeight - scroller.clientHeight;
      scroller.scrollTop = scroller.scrollTop + pxPerFrame >= max ? 0 : scroller.scrollTop + pxPerFrame;
      channel.port2.postMessage(null);
      if (now < end) requestAnimationFrame(frame);
      else setTimeout(() => {
        watcher.disconnect();
        done({ intervals, costs, dom });
      }, 50);
    };
    requestAnimationFrame(frame);
  });
}

/**
 * How many of the batch's items the store holds, whatever its shape: every distinct item object reachable from the
 * state (the point of paging is that this stays a window, not the batch).
 */
function heldItems(): number {
  const seen = new Set<unknown>();
  const ids = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    const v = value as { batchId?: unknown; id?: unknown; position?: unknown };
    if (v.batchId === 'bench' && typeof v.id === 'string' && typeof v.position === 'number') {
      ids.add(v.id);
      return;
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) walk(child, depth + 1);
  };
  walk(store.getState(), 0);
  return ids.size;
}

const nextFrame = () => new Promise<number>((ok) => requestAnimationFrame(ok));
const rowTable = () => document.querySelector<HTMLElement>('.item-scroller');
const rows = () => [...document.querySelectorAll<HTMLElement>('.item-row')];

/** Waits frame by frame until `done()` holds; answers the ms from `start` to the frame it held in. */
async function until(start: number, done: () => boolean, timeoutMs = 30_000): Promise<number> {
  for (;;) {
    if (done()) return performance.now() - start;
    if (performance.now() - start > timeoutMs) {
      const shown = rows().slice(0, 3).map((r) => r.getAttribute('aria-label')).join(' | ');
      const st = store.getState();
      const lists = Object.entries(st.itemLists).map(([key, l]) => `${key}: ${l.total} (pages ${Object.keys(l.pages).join(',')}${l.stale ? ', stale' : ''}${l.loaded ? '' : ', not loaded'})`).join('; ');
      throw new Error(`timed out: ${rowTable()?.getAttribute('aria-rowcount')} rows counted; first rows: ${shown}; page: ${document.querySelector('main')?.textContent?.slice(0, 300)}; store: ${st.view}, batch ${st.selectedBatchId}, review index ${st.reviewIndex}, lists ${lists}`);
    }
    await nextFrame();
  }
}

/** Clicks a status chip and times it until the table says the filter's count and shows only such rows. */
async function filterTo(label: string, expected: number, stateWord: string): Promise<{ ms: number; mainMs: number; rowCount: number; rows: number }> {
  const chip = [...document.querySelectorAll<HTMLElement>('[role="radio"]')].find((e) => e.textContent?.trim().startsWith(label));
  if (!chip) throw new Error(`no status chip ${label}`);
  const mainBefore = scripted.served().mainMs;
  const start = performance.now();
  chip.click();
  const ms = await until(start, () => {
    const table = rowTable();
    const shown = rows();
    return table?.getAttribute('aria-rowcount') === String(expected) && shown.length > 0
      && shown.every((r) => r.querySelector('.item-state')?.textContent?.startsWith(stateWord));
  });
  // mainMs: what the stand-in for main spent on this thread meanwhile (the real main answers from another process).
  return { ms, mainMs: scripted.served().mainMs - mainBefore, rowCount: Number(rowTable()?.getAttribute('aria-rowcount')), rows: rows().length };
}

/** Scrolls the item table to its end and times it until the row of `lastName` is on screen. */
async function scrollToEnd(lastName: string): Promise<{ ms: number; rows: number }> {
  const scroller = rowTable();
  if (!scroller) throw new Error('no queue scroller on the page');
  const start = performance.now();
  scroller.scrollTop = scroller.scrollHeight;
  const ms = await until(start, () => rows().some((r) => r.querySelector('.item-name-text')?.textContent === lastName));
  return { ms, rows: rows().length };
}

declare global {
  interface Window {
    queueBench: {
      loadedItems(): number;
      renderedRows(): number;
      startProgress(rate: number, perMessage: number): void;
      stopProgress(): void;
      stats(): { delivered: number[]; itemUpdates: number };
      measureScrolling(ms: number, pxPerFrame: number): Promise<{ intervals: number[]; costs: number[]; dom: DomChanges }>;
      loadTimes(): { scriptAt: number; bridgeAt: number; firstRowsAt: number; bundleMs: number };
      heldItems(): number;
      served(): { itemRequests: number; itemsSent: number; thumbnails: number; mainMs: number };
      counts(): Record<string, number>;
      lastName(state: string | null): string;
      filterTo(label: string, expected: number, stateWord: string): Promise<{ ms: number; mainMs: number; rowCount: number; rows: number }>;
      scrollToEnd(lastName: string): Promise<{ ms: number; rows: number }>;
      openReview(): Promise<{ ms: number; position: string }>;
    };
  }
}

window.queueBench = {
  loadedItems: () => heldItems(),
  renderedRows: () => document.querySelectorAll('.item-row').length,
  startProgress: (rate, perMessage) => scripted.startProgress(rate, perMessage),
  stopProgress: () => scripted.stopProgress(),
  stats: () => scripted.stats(),
  measureScrolling,
  // bundleMs: the scripts' download (resource timing), what precedes scriptAt beside their compile.
  loadTimes: () => ({
    scriptAt, bridgeAt, firstRowsAt,
    bundleMs: performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js')).reduce((sum, e) => Math.max(sum, (e as PerformanceResourceTiming).responseEnd), 0),
  }),
  heldItems,
  served: () => scripted.served(),
  counts: () => scripted.counts(),
  lastName: (state) => scripted.lastName(state),
  filterTo,
  scrollToEnd,
  async openReview() {
    const start = performance.now();
    store.getState().openReview('bench');
    const ms = await until(start, () => /\d/.test(document.querySelector('.review-count')?.textContent ?? ''));
    return { ms, position: document.querySelector('.review-count')?.textContent ?? '' };
  },
};

createRoot(document.getElementById('root')!).render(
  <StoreProvider store={store} bridge={scripted.api}>
    <App />
  </StoreProvider>,
);

