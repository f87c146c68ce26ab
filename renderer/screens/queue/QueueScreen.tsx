import { EmptyState } from '../../components/EmptyState';
import { ScreenTitle } from '../../components/ScreenTitle';
import { shortFolder } from '../../lib/format';
import { useFormat, useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';
import { BatchPanel } from './BatchPanel';
import { badgeWords } from './badge-words';

export function QueueScreen() {
  const t = useT('queue');
  const common = useT('common');
  const format = useFormat();
  const order = useApp((s) => s.batchOrder);
  const batches = useApp((s) => s.batches);
  const selectedId = useApp((s) => s.selectedBatchId);
  const { selectBatch, cancelAll, setView } = useActions();
  const selected = selectedId ? batches[selectedId] : undefined;
  const anyOpen = order.some((id) => batches[id]?.state === 'running' || batches[id]?.state === 'paused');

  if (order.length === 0) {
    return (
      <>
      <ScreenTitle hidden>{common('view.queue')}</ScreenTitle>
      <EmptyState
        title={t('QueueScreen.emptyTitle')}
        icon="☰"
        action={<button type="button" className="btn btn-primary" onClick={() => setView('workflows')}>{t('QueueScreen.chooseWorkflow')}</button>}
      >
        {t('QueueScreen.emptyBody')}
      </EmptyState>
      </>
    );
  }
  return (
    <div className="split split-narrow">
      <ScreenTitle hidden>{common('view.queue')}</ScreenTitle>
      <section className="batch-list" aria-label={t('QueueScreen.batches')}>
        <div className="list-head">
          <h2>{t('QueueScreen.batches')}</h2>
          {anyOpen && <button type="button" className="btn btn-small" onClick={() => void cancelAll()}>{t('QueueScreen.cancelAll')}</button>}
        </div>
        <ul>
          {order.map((id) => {
            const b = batches[id]!;
            const badge = badgeWords(b, t);
            return (
              <li key={id}>
                <button type="button" className={`batch-card${id === selectedId ? ' is-selected' : ''}`} aria-pressed={id === selectedId} onClick={() => selectBatch(id)}>
                  <span className="batch-card-top">
                    <span className="workflow-name">{b.workflowName}</span>
                    {b.chain && <span className="chain-step-short">{t('ChainSteps.short', { step: b.chain.step, steps: b.chain.steps })}</span>}
                    <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
                  </span>
                  <span className={`progress progress-small progress-${badge.tone}`} aria-hidden="true"><span className="progress-fill" style={{ width: `${Math.round(badge.fill * 100)}%` }} /></span>
                  <span className="muted batch-card-meta">{format.photos(b.total)} · {format.dateTime(b.createdAt)}</span>
                  {/* Which photos: batches of one workflow (several CLI runs) were told apart by nothing else. */}
                  <span className="muted mono batch-card-folder" title={t('QueueScreen.resultsIn', { folder: b.outputFolder })}>{shortFolder(b.outputFolder)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </section>
      {selected ? <BatchPanel batch={selected} /> : <EmptyState title={t('QueueScreen.selectTitle')}>{t('QueueScreen.selectBody')}</EmptyState>}
    </div>
  );
}
