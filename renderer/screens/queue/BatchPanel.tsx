import { PathActions } from '../../components/PathActions';
import { useState } from 'react';
import { SERVICE_UNREACHABLE, type BatchSummary } from '../../../shared/engine/model';
import { statesOf } from '../../../shared/engine/item-states';
import { OutageBanner } from '../../components/OutageBanner';
import { downloadText } from '../../lib/download';
import { formatCredits, formatEta, percent } from '../../lib/format';
import { useActions, useApp } from '../../store/context';
import { STATUS_FILTERS } from '../../store/state';
import { FILTER_LABELS } from './labels';
import { ItemList } from './ItemList';
import { batchBadge, photos } from '../../../shared/engine/batch-badge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { TrialChanges } from '../recipes/TrialChanges';
import { RadioGroup } from '../../components/RadioGroup';

/** Where an open batch is among the open ones, in submit order (the store's batchOrder puts them first). */
function useQueuePlace(batchId: string): { at: number; of: number } {
  const order = useApp((s) => s.batchOrder);
  const batches = useApp((s) => s.batches);
  const open = order.filter((id) => batches[id]?.state === 'running' || batches[id]?.state === 'paused');
  return { at: open.indexOf(batchId) + 1, of: open.length };
}

function count(batch: BatchSummary, ...states: (keyof BatchSummary['counts'])[]): number {
  return states.reduce((sum, s) => sum + (batch.counts[s] ?? 0), 0);
}

export function BatchPanel({ batch }: { batch: BatchSummary }) {
  const filter = useApp((s) => s.statusFilter);
  const { pauseBatch, resumeBatch, cancelBatch, retryFailed, continueTrial, setStatusFilter, openReview, providerReport, moveBatch } = useActions();
  const open = batch.state === 'running' || batch.state === 'paused';
  const queue = useQueuePlace(batch.id);
  const failed = count(batch, 'failed');
  const saved = count(batch, 'saved');
  const unknown = count(batch, 'unknown');
  const noResult = count(batch, 'charged-no-result');
  const badge = batchBadge(batch);
  const [confirm, setConfirm] = useState<'cancel' | 'retry' | 'continue' | null>(null);
  const rest = batch.state === 'completed' ? batch.trialRest ?? 0 : 0;
  const notStarted = count(batch, 'cancelled');
  const waiting = count(batch, ...statesOf('unsent'));
  const sent = count(batch, ...statesOf('sent'));
  const exportReport = async () => {
    const report = await providerReport(batch.id);
    if (report) downloadText(report.fileName, report.csv);
  };

  return (
    <section className="batch-panel" aria-label={`Batch ${batch.workflowName}`}>
      <header className="batch-header">
        <div>
          <h2>{batch.workflowName}</h2>
          <p className="muted">
            <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
            {batch.pausedReason && batch.pausedReason !== SERVICE_UNREACHABLE && <span className="paused-reason"> {batch.pausedReason}</span>}
          </p>
          {batch.pausedReason === SERVICE_UNREACHABLE && <OutageBanner variant="batch" />}
        </div>
        <div className="button-row">
          {batch.state === 'running' && <button type="button" className="btn" onClick={() => void pauseBatch(batch.id)}>Pause</button>}
          {batch.state === 'paused' && (
            <button type="button" className="btn btn-primary" onClick={() => void resumeBatch(batch.id)}>
              {batch.pausedReason === SERVICE_UNREACHABLE ? 'Try now' : 'Resume'}
            </button>
          )}
          {batch.state === 'cancelled' && notStarted > 0 && (
            <button type="button" className="btn btn-primary" onClick={() => void resumeBatch(batch.id)}>Resume ({photos(notStarted)})</button>
          )}
          {open && queue.of > 1 && (
            <>
              <button type="button" className="btn" disabled={queue.at === 1} title="Its photos are sent next; photos already at the service finish first" onClick={() => void moveBatch(batch.id, 'front')}>Move to front</button>
              <button type="button" className="btn" disabled={queue.at === queue.of} title="The other batches' photos are sent first" onClick={() => void moveBatch(batch.id, 'back')}>Move to back</button>
            </>
          )}
          {open && <button type="button" className="btn" onClick={() => setConfirm('cancel')}>Cancel batch</button>}
          {failed > 0 && <button type="button" className="btn" onClick={() => setConfirm('retry')}>Retry failed ({failed})</button>}
          {noResult > 0 && (
            <button type="button" className="btn" title="The executions the service charged but lost, as a CSV to send the provider" onClick={() => void exportReport()}>
              Report to provider ({noResult})
            </button>
          )}
          {saved > 0 && <button type="button" className="btn" onClick={() => openReview(batch.id)}>Review results</button>}
          {rest > 0 && (
            <button type="button" className="btn btn-primary" onClick={() => setConfirm('continue')}>Continue with the other {rest}</button>
          )}
          <PathActions path={batch.outputFolder} kind="folder" downloadUrl={saved > 0 ? `/download/${batch.id}.zip` : undefined} />
        </div>
      </header>

      <div className="batch-progress">
        <div
          className={`progress progress-${badge.tone}`}
          role="progressbar"
          aria-label="Batch progress"
          aria-valuenow={Math.round(badge.fill * 100)}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuetext={badge.detail}
        >
          <span className="progress-fill" style={{ width: percent(badge.fill) }} />
        </div>
        <p className="muted batch-detail">{badge.detail}</p>
        <dl className="stat-row">
          {open && <div><dt>Done</dt><dd>{percent(badge.fill)}</dd></div>}
          {open && queue.of > 1 && <div><dt>In the queue</dt><dd>{queue.at} of {queue.of}{batch.priority ? ` · priority ${batch.priority}` : ''}</dd></div>}
          <div><dt>Saved</dt><dd>{saved} / {batch.total}</dd></div>
          <div><dt>Time left</dt><dd>{open ? formatEta(batch.etaMs) : '—'}</dd></div>
          <div><dt>Credits</dt><dd>{formatCredits(batch.creditsSpent)} <span className="muted">of {batch.creditCost}</span></dd></div>
          {failed > 0 && <div><dt>Failed</dt><dd className="text-danger">{failed}</dd></div>}
          {unknown > 0 && <div><dt>Unknown</dt><dd className="text-warning">{unknown}</dd></div>}
          {noResult > 0 && <div><dt>Charged, no result</dt><dd className="text-danger">{noResult}</dd></div>}
        </dl>
      </div>

      {/* One status at a time: a radio group, one Tab stop on the way from the batch's actions to its items. */}
      <RadioGroup
        label="Filter by status"
        className="chip-row"
        optionClassName="chip"
        value={filter}
        onChange={setStatusFilter}
        options={STATUS_FILTERS.map((f) => ({ value: f, content: FILTER_LABELS[f] }))}
      />
      <ItemList batchId={batch.id} />
      {confirm === 'cancel' && (
        <ConfirmDialog title="Cancel this batch?" confirmLabel="Cancel batch" cancelLabel="Keep running" danger onClose={() => setConfirm(null)} onConfirm={() => void cancelBatch(batch.id)}>
          <p>{photos(waiting)} not sent yet will not be processed: they cost nothing.</p>
          {sent > 0 && <p>{photos(sent)} already at the service cannot be stopped: they finish, are charged and are saved.</p>}
          <p className="muted">You can resume a cancelled batch later: its unstarted photos run then.</p>
        </ConfirmDialog>
      )}
      {confirm === 'continue' && (
        <ConfirmDialog
          title={`Continue with the other ${photos(rest)}?`}
          confirmLabel={`Continue (up to ${formatCredits(rest * batch.unitCost)})`}
          cancelLabel="Not now"
          onClose={() => setConfirm(null)}
          onConfirm={() => void continueTrial(batch.id)}
        >
          <p>The same workflow and settings, as a new batch. The {photos(batch.total)} tried here are done: they are not sent or paid for again.</p>
          <TrialChanges batchId={batch.id} />
        </ConfirmDialog>
      )}
      {confirm === 'retry' && (
        <ConfirmDialog title={`Retry ${photos(failed)}?`} confirmLabel={`Retry (up to ${formatCredits(failed * batch.unitCost)})`} cancelLabel="Not now" onClose={() => setConfirm(null)} onConfirm={() => void retryFailed(batch.id)}>
          <p>Sending them again costs up to {formatCredits(failed * batch.unitCost)} ({formatCredits(batch.unitCost)} each).</p>
          <p className="muted">A result that was paid for but could not be saved is downloaded again without a new charge.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
