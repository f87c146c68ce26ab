import { memo, useEffect, useRef, useState } from 'react';
import { inGroup } from '../../../shared/engine/item-states';
import type { ItemView } from '../../../shared/engine/model';
import { useActions, useApp } from '../../store/context';
import { itemAt, listKey, pagesForWindow } from '../../store/item-lists';
import { useRowWindow } from './use-row-window';
import { useSlotPool } from './slot-pool';
import { ITEM_STATE_KEYS, stateTone } from './labels';
import { useT } from '../../i18n';
import { ResubmitDialog } from './ResubmitDialog';

const ROW_HEIGHT = 48;
const OVERSCAN = 8;

/** The original's small picture: asked for when the row first shows (only visible rows exist), made by main. */
function Thumb({ path }: { path: string | undefined }) {
  const url = useApp((s) => (path ? s.thumbnailUrls[path] : null));
  const { loadThumbnail } = useActions();
  useEffect(() => {
    if (path && !/^https?:\/\//i.test(path)) void loadThumbnail(path);
  }, [path, loadThumbnail]);
  return url ? <img className="item-thumb" src={url} alt="" loading="lazy" decoding="async" /> : <span className="item-thumb" aria-hidden="true" />;
}

const ItemRow = memo(function ItemRow({ item, onResubmit }: { item: ItemView; onResubmit: (item: ItemView) => void }) {
  const { cancelItem, moveToFront, openReview } = useActions();
  const t = useT('queue');
  const active = inGroup('inFlight', item.state);
  const stateWord = t(ITEM_STATE_KEYS[item.state]);
  return (
    <div className="item-row" role="row" aria-label={item.attention ? t('ItemRow.rowLabelAttention', { name: item.displayName, state: stateWord }) : t('ItemRow.rowLabel', { name: item.displayName, state: stateWord })}>
      <span role="cell" className="item-pos">{item.position + 1}</span>
      <span role="cell" className="item-name mono" title={Object.values(item.sources).join('\n')}>
        <Thumb path={Object.values(item.sources)[0]} />
        <span className="item-name-text">{item.displayName}</span>
      </span>
      <span role="cell" className="item-state">
        <span className={`badge badge-${stateTone(item.state)}`}>{stateWord}</span>
        {item.attention && <span className="badge badge-warning" title={item.attention}>{t('ItemRow.needsAttention')}</span>}
      </span>
      <span role="cell" className="item-progress">
        {/* A parked item (its state move was refused) says why first: its progress no longer moves. */}
        {item.attention ? (
          <span className="item-reason item-attention" title={item.attention}>{item.attention}</span>
        ) : item.state === 'encoding' && item.reason ? (
          // What preparing is doing now (reading the photo, or ready and waiting for a slot), not an empty bar.
          <span className="item-reason" title={item.reason}>{item.reason}</span>
        ) : active ? (
          <span className="progress progress-small" role="progressbar" aria-label={t('ItemRow.progress', { name: item.displayName })} aria-valuenow={Math.round(item.progress)} aria-valuemin={0} aria-valuemax={100}>
            {/* Scaled, not sized: a progress tick repaints the bar on its own layer, never lays the row out again. */}
            {/* Keyed by photo: a slot reused for another photo gets a new fill, not the last one's 300 ms transition from its value. */}
            <span key={item.id} className="progress-fill progress-fill-scaled" style={{ transform: `scaleX(${Math.min(100, Math.max(0, item.progress)) / 100})` }} />
          </span>
        ) : (
          // A waiting row has no reason to show (one left from preparing before a restart is stale).
          <span className="item-reason" title={item.reason ?? undefined}>{item.state === 'pending' ? '' : item.reason ?? ''}</span>
        )}
      </span>
      <span role="cell" className="item-actions">
        {item.state === 'pending' && (
          <button type="button" className="btn btn-small" aria-label={t('ItemRow.moveToFrontLabel', { name: item.displayName })} onClick={() => void moveToFront(item.batchId, [item.id])}>{t('BatchPanel.moveToFront')}</button>
        )}
        {(item.state === 'pending' || active) && (
          <button type="button" className="btn btn-small" aria-label={t('ItemRow.cancelLabel', { name: item.displayName })} onClick={() => void cancelItem(item.id)}>{t('ItemRow.cancel')}</button>
        )}
        {(item.state === 'unknown' || item.state === 'charged-no-result') && (
          <button type="button" className="btn btn-small btn-warning" aria-label={t('ItemRow.resubmitLabel', { name: item.displayName })} onClick={() => onResubmit(item)}>{t('ItemRow.resubmit')}</button>
        )}
        {item.state === 'saved' && (
          <button type="button" className="btn btn-small" aria-label={t('ItemRow.reviewLabel', { name: item.displayName })} onClick={() => openReview(item.batchId, item.id)}>{t('ItemRow.review')}</button>
        )}
      </span>
    </div>
  );
});

/** A row whose page is not loaded yet: the same height, so the scrollbar and the rows around it do not move. */
function PendingRow() {
  return <div className="item-row item-row-loading" role="row" aria-busy="true"><span role="cell" className="item-pos" /></div>;
}

/**
 * One slot of the window, subscribed to its own row's item only: a progress tick renders the rows whose item changed
 * (the store keeps unchanged items as the same objects), never the list or the other rows. Scrolling moves a slot to
 * another row: the same elements get the new item's props (no unmount, no new DOM) — except when focus is inside.
 */
const RowSlot = memo(function RowSlot({ listId, index, onResubmit }: { listId: string; index: number; onResubmit: (item: ItemView) => void }) {
  const item = useApp((s) => itemAt(s.itemLists[listId], index));
  const wrapper = useRef<HTMLDivElement>(null);
  const shown = useRef({ id: item?.id, generation: 0 });
  if (shown.current.id !== item?.id) {
    // Another photo in this slot while a button of it has focus (a filtered list moved, or the user scrolled): a new
    // row, so the focused button leaves with its photo instead of turning into the next photo's Cancel under Enter.
    const focused = wrapper.current?.contains(document.activeElement) ?? false;
    shown.current = { id: item?.id, generation: shown.current.generation + (focused ? 1 : 0) };
  }
  return (
    <div ref={wrapper} className="item-row-wrap" style={{ transform: `translateY(${index * ROW_HEIGHT}px)`, height: ROW_HEIGHT }}>
      {item ? <ItemRow key={shown.current.generation} item={item} onResubmit={onResubmit} /> : <PendingRow />}
    </div>
  );
});

/**
 * The batch's items under the status filter, windowed and paged: only the rows on screen exist, and only their
 * pages (PAGE_SIZE items, at most MAX_PAGES kept) are asked of main — 100,000 rows cost what the visible thirty cost.
 * Memoised, and subscribed to the list's shape only (its count, which pages are loaded, stale): the batch panel
 * above renders on every progress tick, this does not.
 */
export const ItemList = memo(function ItemList({ batchId }: { batchId: string }) {
  const filter = useApp((s) => s.statusFilter);
  const listId = listKey(batchId, filter);
  const count = useApp((s) => s.itemLists[listId]?.total ?? 0);
  const loaded = useApp((s) => s.itemLists[listId]?.loaded ?? false);
  const stale = useApp((s) => s.itemLists[listId]?.stale ?? false);
  // A string, so a patched page (same pages, new objects) is no change here.
  const pageKeys = useApp((s) => Object.keys(s.itemLists[listId]?.pages ?? {}).join(','));
  const unitCost = useApp((s) => s.batches[batchId]?.unitCost ?? 0);
  const { resubmitItem, loadItemPage } = useActions();
  const t = useT('queue');
  const [confirming, setConfirming] = useState<ItemView | null>(null);
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const { first, last } = useRowWindow(scroller, count, ROW_HEIGHT, OVERSCAN);
  const pool = useSlotPool(first, last);
  // The pages under the rows on screen, then the one they are scrolling towards (loadItemPage skips loaded, current
  // ones).
  useEffect(() => {
    const have = new Set(pageKeys.split(','));
    for (const page of pagesForWindow(first, last, count)) {
      if (!have.has(String(page)) || stale) void loadItemPage(batchId, filter, page);
    }
  }, [batchId, filter, first, last, count, pageKeys, stale, loadItemPage]);

  if (!loaded) return <p className="muted" role="status">{t('ItemList.loading')}</p>;
  // Keyed by slot, in row order (the DOM order is the reading and Tab order): a row scrolling in reuses the elements
  // of one that scrolled out.
  const slots = pool.map(({ index, slot }) => <RowSlot key={slot} listId={listId} index={index} onResubmit={setConfirming} />);
  return (
    <>
      <div ref={setScroller} className="item-scroller" role="table" aria-label={t('ItemList.items')} aria-rowcount={count} tabIndex={0}>
        {count === 0 ? (
          <p className="muted item-empty">{t('ItemList.empty')}</p>
        ) : (
          <div role="rowgroup" style={{ height: count * ROW_HEIGHT, position: 'relative' }}>{slots}</div>
        )}
      </div>
      {confirming && (
        <ResubmitDialog
          item={confirming}
          cost={unitCost}
          onClose={() => setConfirming(null)}
          onConfirm={() => {
            void resubmitItem(confirming.id, true);
            setConfirming(null);
          }}
        />
      )}
    </>
  );
});
