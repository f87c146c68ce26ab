import { memo, useEffect, useLayoutEffect, useState } from 'react';
import { useActions, useApp } from '../../store/context';
import { itemAt, PAGE_SIZE } from '../../store/item-lists';
import { reviewKey } from '../../store/review-slice';
import { useRowWindow } from '../queue/use-row-window';
import { useT } from '../../i18n';

/** One thumbnail's slot, its gap included (screens.css .review-strip-slot). */
const SLOT_WIDTH = 76;
const OVERSCAN = 4;

/** One saved result: its thumbnail (asked for when the slot first shows, through main's thumbnail path), its name. */
const StripThumb = memo(function StripThumb({ listId, index, current }: { listId: string; index: number; current: boolean }) {
  const item = useApp((s) => itemAt(s.itemLists[listId], index));
  const path = item ? item.outputs[0] ?? Object.values(item.sources)[0] : undefined;
  const url = useApp((s) => (path ? s.thumbnailUrls[path] : null));
  const { loadThumbnail, showReviewAt } = useActions();
  const t = useT('review');
  useEffect(() => {
    if (path && !/^https?:\/\//i.test(path)) void loadThumbnail(path);
  }, [path, loadThumbnail]);
  return (
    <button
      type="button"
      className={`review-strip-slot${current ? ' is-current' : ''}${item?.verdict ? ` is-${item.verdict}` : ''}`}
      style={{ transform: `translateX(${index * SLOT_WIDTH}px)` }}
      aria-current={current ? 'true' : undefined}
      aria-label={item?.displayName ?? t('Compare.loading')}
      aria-busy={item ? undefined : true}
      tabIndex={-1}
      onClick={(e) => {
        showReviewAt(index);
        // Keys stay Review's: the clicked slot is unmounted once the strip follows the photo along, and focus on it
        // would fall to <body>, where ←/→ reach no handler.
        (e.currentTarget.closest('section') as HTMLElement | null)?.focus({ preventScroll: true });
      }}
    >
      {url ? <img className="review-strip-thumb" src={url} alt="" loading="lazy" decoding="async" /> : <span className="review-strip-thumb" aria-hidden="true" />}
    </button>
  );
});

/**
 * The batch's saved results as a strip of thumbnails under the viewer, windowed like the queue: only the slots on
 * screen exist, only their pages of the saved list are asked of main, and only their thumbnails are made — a 100k
 * batch's strip costs what its dozen visible thumbnails cost. The current photo is kept in view as Review steps.
 * Keyboard review stays the section's (←/→, a, r): the slots are clickable, not tab stops.
 */
export const ReviewStrip = memo(function ReviewStrip({ batchId }: { batchId: string }) {
  const listId = reviewKey(batchId);
  const total = useApp((s) => s.itemLists[listId]?.total ?? 0);
  const pageKeys = useApp((s) => Object.keys(s.itemLists[listId]?.pages ?? {}).join(','));
  const stale = useApp((s) => s.itemLists[listId]?.stale ?? false);
  const index = useApp((s) => s.reviewIndex);
  const { loadItemPage } = useActions();
  const t = useT('review');
  const [strip, setStrip] = useState<HTMLDivElement | null>(null);
  const { first, last } = useRowWindow(strip, total, SLOT_WIDTH, OVERSCAN, 'x');

  // The current photo in view: scrolled to only when it is not, so a user scrolling the strip is left alone.
  useLayoutEffect(() => {
    if (!strip) return;
    const left = index * SLOT_WIDTH;
    if (left < strip.scrollLeft || left + SLOT_WIDTH > strip.scrollLeft + strip.clientWidth) {
      strip.scrollLeft = Math.max(0, left - Math.max(0, strip.clientWidth - SLOT_WIDTH) / 2);
    }
  }, [strip, index]);

  useEffect(() => {
    if (total === 0 || last < first) return;
    const have = new Set(pageKeys.split(','));
    for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page++) {
      if (!have.has(String(page)) || stale) void loadItemPage(batchId, 'saved', page);
    }
  }, [batchId, first, last, total, pageKeys, stale, loadItemPage]);

  const slots = [];
  for (let at = first; at <= last; at++) slots.push(<StripThumb key={at} listId={listId} index={at} current={at === index} />);
  return (
    <div ref={setStrip} className="review-strip" role="group" aria-label={t('ReviewStrip.label')}>
      <div className="review-strip-track" style={{ width: total * SLOT_WIDTH }}>{slots}</div>
    </div>
  );
});
