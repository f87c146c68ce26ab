import { PathActions } from '../../components/PathActions';
import { useEffect, useMemo, useRef, useState } from 'react';
import { RadioGroup } from '../../components/RadioGroup';
import { EmptyState } from '../../components/EmptyState';
import { ScreenTitle } from '../../components/ScreenTitle';
import { useActions, useApp } from '../../store/context';
import { isReviewable } from '../../store/review-slice';
import { ZOOM_LEVELS } from '../../store/state';
import { Compare } from './Compare';
import { RerunDialog } from './RerunDialog';
import { ExportDialog } from './ExportDialog';
import { useFormat, useT } from '../../i18n';

const EMPTY: never[] = [];

export function ReviewScreen() {
  const batchId = useApp((s) => s.selectedBatchId);
  const batch = useApp((s) => (s.selectedBatchId ? s.batches[s.selectedBatchId] : undefined));
  const order = useApp((s) => s.batchOrder);
  const batches = useApp((s) => s.batches);
  const list = useApp((s) => s.itemsByBatch[batchId ?? '']?.list ?? EMPTY);
  const reviewItemId = useApp((s) => s.reviewItemId);
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
  // Keyboard review works at once: focus the viewer when it opens (unless the user is already typing somewhere).
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) region.current?.focus();
  }, []);

  const items = useMemo(() => list.filter(isReviewable), [list]);
  const index = Math.max(0, items.findIndex((i) => i.id === reviewItemId));
  const item = items[index];
  const before = item ? Object.values(item.sources)[0] : undefined;
  const after = item?.outputs[0];
  const rejected = list.filter((i) => i.verdict === 'rejected').length;

  useEffect(() => {
    if (before) void actions.loadPreview(before);
    if (after) void actions.loadPreview(after);
    // Warm the next photo so stepping through a batch feels instant.
    const next = items[index + 1];
    if (next?.outputs[0]) void actions.loadPreview(next.outputs[0]);
  }, [before, after, items, index, actions]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!item || (e.target as HTMLElement).closest('input, select, textarea, [role="dialog"]')) return;
    if (e.key === 'ArrowRight' || e.key === 'j') actions.stepReview(1);
    else if (e.key === 'ArrowLeft' || e.key === 'k') actions.stepReview(-1);
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

  if (!batch || items.length === 0 || !item) {
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
          <span className="review-count" aria-live="polite">{t('ReviewScreen.position', { at: index + 1, of: items.length })}</span>
          <button type="button" className="btn" aria-label={t('ReviewScreen.next')} disabled={index >= items.length - 1} onClick={() => actions.stepReview(1)}>→</button>
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
      <p className="muted key-hint">{t('ReviewScreen.keyHint')}</p>
      {exportOpen && <ExportDialog batchId={batch.id} saved={items.length} onClose={() => setExportOpen(false)} />}
      {rerunOpen && <RerunDialog batchId={batch.id} workflowId={batch.workflowId} rejected={rejected} onClose={() => setRerunOpen(false)} />}
    </section>
  );
}
