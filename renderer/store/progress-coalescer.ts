import type { BatchProgressEvent, BatchSummary, ItemView } from '../../shared/engine/model';

/**
 * Merges the progress messages that arrive within one frame into one (the newest summary per batch and state per
 * item win) and hands it on at the next animation frame: however fast main sends, the store changes and the queue
 * renders at most once a frame. Where there are no frames (a hidden tab, tests without layout), a 16 ms timer.
 */
export function coalesceProgress(apply: (event: BatchProgressEvent) => void): { push(event: BatchProgressEvent): void; stop(): void } {
  let batches = new Map<string, BatchSummary>();
  let items = new Map<string, ItemView>();
  let engine: BatchProgressEvent['engine'];
  let scheduled: { cancel(): void } | null = null;
  const flush = () => {
    scheduled = null;
    const event: BatchProgressEvent = { batches: [...batches.values()], items: [...items.values()], ...(engine !== undefined ? { engine } : {}) };
    batches = new Map();
    items = new Map();
    engine = undefined;
    apply(event);
  };
  const schedule = () => {
    if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') {
      // A frame that never comes (the window hidden meanwhile) must not hold progress back: the timer also fires.
      const frame = requestAnimationFrame(() => run());
      const timer = setTimeout(() => run(), 100);
      const run = () => {
        cancelAnimationFrame(frame);
        clearTimeout(timer);
        if (scheduled) flush();
      };
      return { cancel: () => { cancelAnimationFrame(frame); clearTimeout(timer); } };
    }
    const timer = setTimeout(flush, 16);
    return { cancel: () => clearTimeout(timer) };
  };
  return {
    push(event) {
      for (const b of event.batches) batches.set(b.id, b);
      for (const i of event.items) items.set(i.id, i);
      if (event.engine !== undefined) engine = event.engine;
      scheduled ??= schedule();
    },
    stop() {
      scheduled?.cancel();
      scheduled = null;
    },
  };
}
