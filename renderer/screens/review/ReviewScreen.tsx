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
      <span className="muted">Batch</span>
      <select className="input" aria-label="Batch to review" value={batchId ?? ''} onChange={(e) => actions.openReview(e.target.value)}>
        {!batchId && <option value="">Choose…</option>}
        {withResults.map((id) => <option key={id} value={id}>{batches[id]!.workflowName} · {new Date(batches[id]!.createdAt).toLocaleString()}</option>)}
      </select>
    </label>
  );

  if (!batch || items.length === 0 || !item) {
    return (
      <section className="review" aria-label="Review">
        <ScreenTitle hidden>Review</ScreenTitle>
        {picker}
        <EmptyState title="Nothing to review yet" icon="◐" action={<button type="button" className="btn btn-primary" onClick={() => actions.setView('queue')}>Go to the queue</button>}>
          Finished photos appear here to compare with the originals, approve or reject.
        </EmptyState>
      </section>
    );
  }

  return (
    <section ref={region} className="review" aria-label="Review" onKeyDown={onKeyDown} tabIndex={-1}>
      <ScreenTitle hidden>Review</ScreenTitle>
      <div className="review-toolbar">
        {picker}
        <div className="button-row">
          <button type="button" className="btn" aria-label="Previous photo" disabled={index === 0} onClick={() => actions.stepReview(-1)}>←</button>
          <span className="review-count" aria-live="polite">{index + 1} of {items.length}</span>
          <button type="button" className="btn" aria-label="Next photo" disabled={index >= items.length - 1} onClick={() => actions.stepReview(1)}>→</button>
        </div>
        <RadioGroup
          label="Compare mode"
          className="segmented"
          value={mode}
          onChange={actions.setCompareMode}
          options={[{ value: 'slider', content: 'Slider' }, { value: 'side', content: 'Side by side' }]}
        />
        <RadioGroup label="Zoom" className="segmented" value={zoom} onChange={actions.setZoom} options={ZOOM_LEVELS.map((z) => ({ value: z, content: `${z}×` }))} />
      </div>

      <Compare beforeUrl={before ? previewUrls[before] : undefined} afterUrl={after ? previewUrls[after] : undefined} name={item.displayName} />

      <div className="review-footer">
        <div>
          <p className="review-name mono">{item.displayName}</p>
          {after && <p className="muted mono review-path" title={after}>{after}</p>}
        </div>
        <div className="button-row">
          <button type="button" className={`btn verdict-approve${item.verdict === 'approved' ? ' is-on' : ''}`} aria-pressed={item.verdict === 'approved'} onClick={() => void actions.setVerdict(item.id, item.verdict === 'approved' ? null : 'approved')}>✓ Approve</button>
          <button type="button" className={`btn verdict-reject${item.verdict === 'rejected' ? ' is-on' : ''}`} aria-pressed={item.verdict === 'rejected'} onClick={() => void actions.setVerdict(item.id, item.verdict === 'rejected' ? null : 'rejected')}>✕ Reject</button>
          {/* The result file itself (the browser host's /download route), not its screen rendition. */}
          {after && <PathActions path={after} kind="file" downloadUrl={`/download/${batch.id}/${item.id}`} downloadName={after.split(/[\\/]/).pop() ?? ''} />}
          <PathActions path={batch.outputFolder} kind="folder" downloadUrl={`/download/${batch.id}.zip`} />
          <button type="button" className="btn" disabled={rejected === 0} onClick={() => setRerunOpen(true)}>Re-run rejected ({rejected})…</button>
          <button type="button" className="btn" onClick={() => setExportOpen(true)}>Export again…</button>
        </div>
      </div>
      <p className="muted key-hint">Keys: ← → next and previous · A approve · R reject · on the divider, ← → move it</p>
      {exportOpen && <ExportDialog batchId={batch.id} saved={items.length} onClose={() => setExportOpen(false)} />}
      {rerunOpen && <RerunDialog batchId={batch.id} workflowId={batch.workflowId} rejected={rejected} onClose={() => setRerunOpen(false)} />}
    </section>
  );
}
