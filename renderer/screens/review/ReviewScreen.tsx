import { PathActions } from '../../components/PathActions';
import { useEffect, useRef, useState } from 'react';
import { RadioGroup } from '../../components/RadioGroup';
import { EmptyState } from '../../components/EmptyState';
import { ScreenTitle } from '../../components/ScreenTitle';
import { useActions, useApp } from '../../store/context';
import { itemAt, PAGE_SIZE } from '../../store/item-lists';
import { rejectedIds, reviewKey } from '../../store/review-slice';
import { ZOOM_LEVELS } from '../../store/state';
import { Compare } from './Compare';
import { RerunDialog } from './RerunDialog';
import { ExportDialog } from './ExportDialog';
import { ReviewStrip } from './ReviewStrip';
import { useFormat, useT } from '../../i18n';

export function ReviewScreen() {
  const batchId = useApp((s) => s.selectedBatchId);
  const batch = useApp((s) => (s.selectedBatchId ? s.batches[s.selectedBatchId] : undefined));
  const order = useApp((s) => s.batchOrder);
  const batches = useApp((s) => s.batches);
  // The batch's saved items, a window at a time (a 100k batch is never loaded whole).
  const list = useApp((s) => (s.selectedBatchId ? s.itemLists[reviewKey(s.selectedBatchId)] : undefined));
  const index = useApp((s) => s.reviewIndex);
  const rejected = useApp((s) => (s.selectedBatchId ? rejectedIds(s, s.selectedBatchId).size : 0));
  const mode = useApp((s) => s.compareMode);
  const zoom = useApp((s) => s.zoom);
  const previewUrls = useApp((s) => s.previewUrls);
  const actions = useActions();
  const t = useT('review');
  const common = useT('common');
  const format = useFormat();
  const [rerunOpen, setRerunOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const region = useRef<HTMLElement>(null);
  const total = list?.total ?? 0;
  const item = itemAt(list, index);
  // The photo's page is not here (still loading, or read again): Review waits for it, it is not empty.
  const waiting = !!batch && total > 0 && !item;
  const showing = !!batch && total > 0;
  // Keyboard review works at once: focus the viewer when it shows (unless the user is already typing somewhere).
  useEffect(() => {
    if (showing && (document.activeElement === document.body || document.activeElement === null)) region.current?.focus();
  }, [showing]);
  // Ask for the photo's page again when it is missing (a reply that was lost or a list dropped and read again).
  const { loadItemPage } = actions;
  useEffect(() => {
    if (waiting && batchId) void loadItemPage(batchId, 'saved', Math.floor(index / PAGE_SIZE));
  }, [waiting, batchId, index, loadItemPage]);
  const before = item ? Object.values(item.sources)[0] : undefined;
  const after = item?.outputs[0];
  const nextAfter = itemAt(list, index + 1)?.outputs[0];

  useEffect(() => {
    if (before) void actions.loadPreview(before);
    if (after) void actions.loadPreview(after);
    // Warm the next photo so stepping through a batch feels instant.
    if (nextAfter) void actions.loadPreview(nextAfter);
  }, [before, after, nextAfter, actions]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!showing || (e.target as HTMLElement).closest('input, select, textarea, [role="dialog"]')) return;
    if (e.key === 'ArrowRight' || e.key === 'j') actions.stepReview(1);
    else if (e.key === 'ArrowLeft' || e.key === 'k') actions.stepReview(-1);
    else if (!item) return;
    else if (e.key === 'a') void actions.setVerdict(item.id, item.verdict === 'approved' ? null : 'approved');
    else if (e.key === 'r') void actions.setVerdict(item.id, item.verdict === 'rejected' ? null : 'rejected');
    else return;
    e.preventDefault();
  };

  const withResults = order.filter((id) => (batches[id]?.counts.saved ?? 0) > 0);
  const picker = withResults.length > 0 && (
    <label className="inline-field">
      <span className="muted">{t('ReviewScreen.batch')}</span>
      <select className="input" aria-label={t('ReviewScreen.batchToReview')} value={batchId ?? ''} onChange={(e) => actions.openReview(e.target.value)}>
        {!batchId && <option value="">{t('ReviewScreen.choose')}</option>}
        {withResults.map((id) => <option key={id} value={id}>{batches[id]!.workflowName} · {format.dateTime(batches[id]!.createdAt)}</option>)}
      </select>
    </label>
  );

  if (waiting) {
    return (
      <section ref={region} className="review" aria-label={common('view.review')} onKeyDown={onKeyDown} tabIndex={-1}>
        <ScreenTitle hidden>{common('view.review')}</ScreenTitle>
        <div className="review-toolbar">{picker}</div>
        <p className="muted" role="status" aria-busy="true">{t('Compare.loading')}</p>
        <ReviewStrip batchId={batch.id} />
      </section>
    );
  }

  if (!batch || total === 0 || !item) {
    return (
      <section className="review" aria-label={common('view.review')}>
        <ScreenTitle hidden>{common('view.review')}</ScreenTitle>
        {picker}
        <EmptyState title={t('ReviewScreen.emptyTitle')} icon="◐" action={<button type="button" className="btn btn-primary" onClick={() => actions.setView('queue')}>{t('ReviewScreen.goToQueue')}</button>}>
          {t('ReviewScreen.emptyBody')}
        </EmptyState>
      </section>
    );
  }

  return (
    <section ref={region} className="review" aria-label={common('view.review')} onKeyDown={onKeyDown} tabIndex={-1}>
      <ScreenTitle hidden>{common('view.review')}</ScreenTitle>
      <div className="review-toolbar">
        {picker}
        <div className="button-row">
          <button type="button" className="btn" aria-label={t('ReviewScreen.previous')} disabled={index === 0} onClick={() => actions.stepReview(-1)}>←</button>
          <span className="review-count" aria-live="polite">{t('ReviewScreen.position', { at: index + 1, of: total })}</span>
          <button type="button" className="btn" aria-label={t('ReviewScreen.next')} disabled={index >= total - 1} onClick={() => actions.stepReview(1)}>→</button>
        </div>
        <RadioGroup
          label={t('ReviewScreen.compareMode')}
          className="segmented"
          value={mode}
          onChange={actions.setCompareMode}
          options={[{ value: 'slider', content: t('ReviewScreen.slider') }, { value: 'side', content: t('ReviewScreen.sideBySide') }]}
        />
        <RadioGroup label={t('ReviewScreen.zoom')} className="segmented" value={zoom} onChange={actions.setZoom} options={ZOOM_LEVELS.map((z) => ({ value: z, content: `${z}×` }))} />
      </div>

      <Compare beforeUrl={before ? previewUrls[before] : undefined} afterUrl={after ? previewUrls[after] : undefined} name={item.displayName} />

      <div className="review-footer">
        <div>
          <p className="review-name mono">{item.displayName}</p>
          {after && <p className="muted mono review-path" title={after}>{after}</p>}
        </div>
        <div className="button-row">
          <button type="button" className={`btn verdict-approve${item.verdict === 'approved' ? ' is-on' : ''}`} aria-pressed={item.verdict === 'approved'} onClick={() => void actions.setVerdict(item.id, item.verdict === 'approved' ? null : 'approved')}>✓ {t('ReviewScreen.approve')}</button>
          <button type="button" className={`btn verdict-reject${item.verdict === 'rejected' ? ' is-on' : ''}`} aria-pressed={item.verdict === 'rejected'} onClick={() => void actions.setVerdict(item.id, item.verdict === 'rejected' ? null : 'rejected')}>✕ {t('ReviewScreen.reject')}</button>
          {/* The result file itself (the browser host's /download route), not its screen rendition. */}
          {after && <PathActions path={after} kind="file" downloadUrl={`/download/${batch.id}/${item.id}`} downloadName={after.split(/[\\/]/).pop() ?? ''} />}
          <PathActions path={batch.outputFolder} kind="folder" downloadUrl={`/download/${batch.id}.zip`} />
          <button type="button" className="btn" disabled={rejected === 0} onClick={() => setRerunOpen(true)}>{t('ReviewScreen.rerunRejected', { count: rejected })}</button>
          <button type="button" className="btn" onClick={() => setExportOpen(true)}>{t('ReviewScreen.exportAgain')}</button>
        </div>
      </div>
      <ReviewStrip batchId={batch.id} />
      <p className="muted key-hint">{t('ReviewScreen.keyHint')}</p>
      {exportOpen && <ExportDialog batchId={batch.id} saved={batch.counts.saved ?? total} onClose={() => setExportOpen(false)} />}
      {rerunOpen && <RerunDialog batchId={batch.id} workflowId={batch.workflowId} rejected={rejected} onClose={() => setRerunOpen(false)} />}
    </section>
  );
}
