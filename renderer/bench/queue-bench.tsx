import { createRoot } from 'react-dom/client';
import { App } from '../App';
import { connectStore, createAppStore } from '../store/app-store';
import { StoreProvider } from '../store/context';
import '../styles/app.css';
import { createScriptedBridge } from './scripted-bridge';

// The queue screen with 10,000 items fed by a scripted progress source; bench/ui-queue.ts drives it in Chromium
// through `window.queueBench`.

const total = Number(new URLSearchParams(location.search).get('items') ?? 10_000);
const scripted = createScriptedBridge(total);
const store = createAppStore(scripted.api);
connectStore(store, scripted.api);
store.getState().setView('queue');

/** Frame intervals (rAF to rAF) and frame costs (rAF start to the first task after that frame's rendering). */
function measureScrolling(ms: number, pxPerFrame: number): Promise<{ intervals: number[]; costs: number[] }> {
  const scroller = document.querySelector<HTMLElement>('.item-scroller');
  if (!scroller) throw new Error('no queue scroller on the page');
  const intervals: number[] = [];
  const costs: number[] = [];
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
      else setTimeout(() => done({ intervals, costs }), 50);
    };
    requestAnimationFrame(frame);
  });
}

declare global {
  interface Window {
    queueBench: {
      loadedItems(): number;
      renderedRows(): number;
      startProgress(rate: number, perMessage: number): void;
      stopProgress(): void;
      stats(): { delivered: number[]; itemUpdates: number };
      measureScrolling(ms: number, pxPerFrame: number): Promise<{ intervals: number[]; costs: number[] }>;
    };
  }
}

window.queueBench = {
  loadedItems: () => store.getState().itemsByBatch.bench?.list.length ?? 0,
  renderedRows: () => document.querySelectorAll('.item-row').length,
  startProgress: (rate, perMessage) => scripted.startProgress(rate, perMessage),
  stopProgress: () => scripted.stopProgress(),
  stats: () => scripted.stats(),
  measureScrolling,
};

createRoot(document.getElementById('root')!).render(
  <StoreProvider store={store} bridge={scripted.api}>
    <App />
  </StoreProvider>,
);

