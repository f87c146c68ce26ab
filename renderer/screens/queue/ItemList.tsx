import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { inGroup } from '../../../shared/engine/item-states';
import type { ItemView } from '../../../shared/engine/model';
import { useActions, useApp } from '../../store/context';
import { itemAt, listKey, PAGE_SIZE } from '../../store/item-lists';
import { ITEM_STATE_KEYS, stateTone } from './labels';
import { useT } from '../../i18n';
import { ResubmitDialog } from './ResubmitDialog';

const ROW_HEIGHT = 48;
const estimateSize = () => ROW_HEIGHT;

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
            <span className="progress-fill" style={{ width: `${item.progress}%` }} />
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
 * The batch's items under the status filter, virtualized and paged: only the rows on screen exist, and only their
 * pages (PAGE_SIZE items, at most MAX_PAGES kept) are asked of main — 100,000 rows cost what the visible thirty cost.
 */
export function ItemList({ batchId }: { batchId: string }) {
  const filter = useApp((s) => s.statusFilter);
  const list = useApp((s) => s.itemLists[listKey(batchId, s.statusFilter)]);
  const unitCost = useApp((s) => s.batches[batchId]?.unitCost ?? 0);
  const { resubmitItem, loadItemPage } = useActions();
  const t = useT('queue');
  const [confirming, setConfirming] = useState<ItemView | null>(null);
  const count = list?.total ?? 0;
  const loaded = list?.loaded ?? false;
  const scroller = useRef<HTMLDivElement>(null);
  // Stable option functions: the virtualizer rebuilds its measurements whenever one changes, which must happen
  // when the list's length or filter changes, never on every scrolled frame or progress tick.
  const getScrollElement = useCallback(() => scroller.current, []);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement,
    estimateSize,
    overscan: 8,
    // jsdom (tests) has no layout: start from a plausible viewport so rows render there too.
    initialRect: { width: 900, height: 600 },
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? 0;
  const pages = list?.pages;
  const stale = list?.stale ?? false;
  // The pages under the rows on screen: asked for as they appear (loadItemPage skips loaded, current ones).
  useEffect(() => {
    if (count === 0) return;
    for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page++) {
      if (!pages?.[page] || stale) void loadItemPage(batchId, filter, page);
    }
  }, [batchId, filter, first, last, count, pages, stale, loadItemPage]);

  if (!loaded) return <p className="muted" role="status">{t('ItemList.loading')}</p>;
  return (
    <>
      <div ref={scroller} className="item-scroller" role="table" aria-label={t('ItemList.items')} aria-rowcount={count} tabIndex={0}>
        {count === 0 ? (
          <p className="muted item-empty">{t('ItemList.empty')}</p>
        ) : (
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {rows.map((row) => {
              const item = itemAt(list, row.index);
              return (
                <div key={row.key} className="item-row-wrap" style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}>
                  {item ? <ItemRow item={item} onResubmit={setConfirming} /> : <PendingRow />}
                </div>
              );
            })}
          </div>
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
}
