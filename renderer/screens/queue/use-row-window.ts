import { useCallback, useLayoutEffect, useState } from 'react';

/** The rows of a fixed-height list that are on screen, plus `overscan` on each side (inclusive; last < first: none). */
export interface RowWindow { first: number; last: number }

/** jsdom (tests) has no layout: a plausible viewport, so rows render there too. */
const FALLBACK_HEIGHT = 600;

export function rowWindowAt(scrollTop: number, viewport: number, count: number, rowHeight: number, overscan: number): RowWindow {
  if (count === 0) return { first: 0, last: -1 };
  const top = Math.max(0, Math.floor(scrollTop / rowHeight));
  const bottom = Math.ceil((scrollTop + (viewport > 0 ? viewport : FALLBACK_HEIGHT)) / rowHeight);
  return { first: Math.min(count - 1, Math.max(0, top - overscan)), last: Math.min(count - 1, bottom + overscan) };
}

/**
 * Which rows of a fixed-height list to render (axis 'x': columns of a fixed-width strip, e.g. Review's thumbnails). Rows are arithmetic (index × height): nothing is kept per row, so
 * 100,000 rows cost what 30 do, and a change of `count` (a filter) costs nothing either. The list renders again only
 * when the window's first or last row changes, not on every scrolled pixel.
 */
export function useRowWindow(scroller: HTMLElement | null, count: number, rowHeight: number, overscan: number, axis: 'y' | 'x' = 'y'): RowWindow {
  const [window, setWindow] = useState<RowWindow>(() => rowWindowAt(0, 0, count, rowHeight, overscan));
  const update = useCallback(() => {
    const offset = axis === 'y' ? scroller?.scrollTop : scroller?.scrollLeft;
    const viewport = axis === 'y' ? scroller?.clientHeight : scroller?.clientWidth;
    const next = rowWindowAt(offset ?? 0, viewport ?? 0, count, rowHeight, overscan);
    setWindow((now) => (now.first === next.first && now.last === next.last ? now : next));
  }, [scroller, count, rowHeight, overscan, axis]);
  // Before paint: a new count (a filter) or a newly mounted scroller (an element in state, not a ref, so mounting it
  // runs this again) shows the right rows in its first frame.
  useLayoutEffect(() => {
    update();
    const el = scroller;
    if (!el) return;
    el.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, [scroller, update]);
  // Rendered before the effect caught up with a smaller count: never past the end.
  return window.last >= count ? rowWindowAt(0, 0, count, rowHeight, overscan) : window;
}
