import { PathActions } from '../../components/PathActions';
import { useState } from 'react';
import { SERVICE_UNREACHABLE, type BatchSummary } from '../../../shared/engine/model';
import { statesOf } from '../../../shared/engine/item-states';
import { OutageBanner } from '../../components/OutageBanner';
import { downloadText } from '../../lib/download';
import { useActions, useApp } from '../../store/context';
import { STATUS_FILTERS } from '../../store/state';
import { FILTER_KEYS } from './labels';
import { ItemList } from './ItemList';
import { badgeWords } from './badge-words';
import { useFormat, useT } from '../../i18n';
import { ChainSteps } from './ChainSteps';
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
  const t = useT('queue');
  const format = useFormat();
  const { pauseBatch, resumeBatch, cancelBatch, retryFailed, continueTrial, setStatusFilter, openReview, providerReport, moveBatch } = useActions();
  const open = batch.state === 'running' || batch.state === 'paused';
  const queue = useQueuePlace(batch.id);
  const failed = count(batch, 'failed');
  const saved = count(batch, 'saved');
  const unknown = count(batch, 'unknown');
  const noResult = count(batch, 'charged-no-result');
  const badge = badgeWords(batch, t);
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
    <section className="batch-panel" aria-label={t('BatchPanel.ariaLabel', { name: batch.workflowName })}>
      <header className="batch-header">
        <div>
          <h2>{batch.workflowName}</h2>
          {batch.chain && <ChainSteps chain={batch.chain} />}
          <p className="muted">
            <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
            {batch.pausedReason && batch.pausedReason !== SERVICE_UNREACHABLE && <span className="paused-reason"> {batch.pausedReason}</span>}
          </p>
          {batch.pausedReason === SERVICE_UNREACHABLE && <OutageBanner variant="batch" />}
        </div>
        <div className="button-row">
          {batch.state === 'running' && <button type="button" className="btn" onClick={() => void pauseBatch(batch.id)}>{t('BatchPanel.pause')}</button>}
          {batch.state === 'paused' && (
            <button type="button" className="btn btn-primary" onClick={() => void resumeBatch(batch.id)}>
              {batch.pausedReason === SERVICE_UNREACHABLE ? t('BatchPanel.tryNow') : t('BatchPanel.resume')}
            </button>
          )}
          {batch.state === 'cancelled' && notStarted > 0 && (
            <button type="button" className="btn btn-primary" onClick={() => void resumeBatch(batch.id)}>{t('BatchPanel.resumeCount', { photos: format.photos(notStarted) })}</button>
          )}
          {open && queue.of > 1 && (
            <>
              <button type="button" className="btn" disabled={queue.at === 1} title={t('BatchPanel.moveToFrontHint')} onClick={() => void moveBatch(batch.id, 'front')}>{t('BatchPanel.moveToFront')}</button>
              <button type="button" className="btn" disabled={queue.at === queue.of} title={t('BatchPanel.moveToBackHint')} onClick={() => void moveBatch(batch.id, 'back')}>{t('BatchPanel.moveToBack')}</button>
            </>
          )}
          {open && <button type="button" className="btn" onClick={() => setConfirm('cancel')}>{t('BatchPanel.cancelBatch')}</button>}
          {failed > 0 && <button type="button" className="btn" onClick={() => setConfirm('retry')}>{t('BatchPanel.retryFailed', { count: failed })}</button>}
          {noResult > 0 && (
            <button type="button" className="btn" title={t('BatchPanel.reportHint')} onClick={() => void exportReport()}>
              {t('BatchPanel.reportToProvider', { count: noResult })}
            </button>
          )}
          {saved > 0 && <button type="button" className="btn" onClick={() => openReview(batch.id)}>{t('BatchPanel.reviewResults')}</button>}
          {rest > 0 && (
            <button type="button" className="btn btn-primary" onClick={() => setConfirm('continue')}>{t('BatchPanel.continueRest', { count: rest })}</button>
          )}
          <PathActions path={batch.outputFolder} kind="folder" downloadUrl={saved > 0 ? `/download/${batch.id}.zip` : undefined} />
        </div>
      </header>

      <div className="batch-progress">
        <div
          className={`progress progress-${badge.tone}`}
          role="progressbar"
          aria-label={t('BatchPanel.progress')}
          aria-valuenow={Math.round(badge.fill * 100)}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuetext={badge.detail}
        >
          <span className="progress-fill" style={{ width: `${Math.round(badge.fill * 100)}%` }} />
        </div>
        <p className="muted batch-detail">{badge.detail}</p>
        <dl className="stat-row">
          {open && <div><dt>{t('BatchPanel.done')}</dt><dd>{format.percent(badge.fill)}</dd></div>}
          {open && queue.of > 1 && <div><dt>{t('BatchPanel.inQueue')}</dt><dd>{batch.priority ? t('BatchPanel.queuePlacePriority', { at: queue.at, of: queue.of, priority: batch.priority }) : t('BatchPanel.queuePlace', { at: queue.at, of: queue.of })}</dd></div>}
          <div><dt>{t('BatchPanel.saved')}</dt><dd>{format.number(saved)} / {format.number(batch.total)}</dd></div>
          <div><dt>{t('BatchPanel.timeLeft')}</dt><dd>{open ? format.eta(batch.etaMs) : '—'}</dd></div>
          <div><dt>{t('BatchPanel.credits')}</dt><dd>{format.credits(batch.creditsSpent)} <span className="muted">{t('BatchPanel.creditsOf', { cost: format.number(batch.creditCost, 2) })}</span></dd></div>
          {failed > 0 && <div><dt>{t('BatchPanel.failed')}</dt><dd className="text-danger">{format.number(failed)}</dd></div>}
          {unknown > 0 && <div><dt>{t('BatchPanel.unknown')}</dt><dd className="text-warning">{format.number(unknown)}</dd></div>}
          {noResult > 0 && <div><dt>{t('BatchPanel.chargedNoResult')}</dt><dd className="text-danger">{format.number(noResult)}</dd></div>}
        </dl>
      </div>

      {/* One status at a time: a radio group, one Tab stop on the way from the batch's actions to its items. */}
      <RadioGroup
        label={t('BatchPanel.filterByStatus')}
        className="chip-row"
        optionClassName="chip"
        value={filter}
        onChange={setStatusFilter}
        options={STATUS_FILTERS.map((f) => ({ value: f, content: t(FILTER_KEYS[f]) }))}
      />
      <ItemList batchId={batch.id} />
      {confirm === 'cancel' && (
        <ConfirmDialog title={t('CancelDialog.title')} confirmLabel={t('BatchPanel.cancelBatch')} cancelLabel={t('CancelDialog.keepRunning')} danger onClose={() => setConfirm(null)} onConfirm={() => void cancelBatch(batch.id)}>
          <p>{t('CancelDialog.notSent', { count: waiting, photos: format.photos(waiting) })}</p>
          {sent > 0 && <p>{t('CancelDialog.alreadySent', { count: sent, photos: format.photos(sent) })}</p>}
          <p className="muted">{t('CancelDialog.resumeLater')}</p>
        </ConfirmDialog>
      )}
      {confirm === 'continue' && (
        <ConfirmDialog
          title={t('ContinueDialog.title', { photos: format.photos(rest) })}
          confirmLabel={t('ContinueDialog.confirm', { credits: format.credits(rest * batch.unitCost) })}
          cancelLabel={t('notNow')}
          onClose={() => setConfirm(null)}
          onConfirm={() => void continueTrial(batch.id)}
        >
          <p>{t('ContinueDialog.body', { count: batch.total, photos: format.photos(batch.total) })}</p>
          <TrialChanges batchId={batch.id} />
        </ConfirmDialog>
      )}
      {confirm === 'retry' && (
        <ConfirmDialog title={t('RetryDialog.title', { photos: format.photos(failed) })} confirmLabel={t('RetryDialog.confirm', { credits: format.credits(failed * batch.unitCost) })} cancelLabel={t('notNow')} onClose={() => setConfirm(null)} onConfirm={() => void retryFailed(batch.id)}>
          <p>{t('RetryDialog.cost', { total: format.credits(failed * batch.unitCost), each: format.credits(batch.unitCost) })}</p>
          <p className="muted">{t('RetryDialog.noNewCharge')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
