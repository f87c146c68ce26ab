import { useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';

/**
 * A long estimate (thousands of photos read and hashed) shows how far it is and can be stopped: main says so after
 * 1 s (batches:estimateProgress), and Cancel stops it (batches:cancelEstimate) — nothing was sent or spent.
 */
export function EstimateProgress() {
  const t = useT('workflows');
  const progress = useApp((s) => s.estimateProgress);
  const { cancelEstimate } = useActions();
  if (!progress) return null;
  const reading = progress.phase === 'reading' && progress.total > 0;
  return (
    <span className="estimate-progress" role="group" aria-label={t('WorkflowForm.estimateProgress')}>
      <progress max={reading ? progress.total : undefined} value={reading ? progress.done : undefined} aria-label={t('WorkflowForm.estimateProgress')} />
      {reading ? <span className="muted">{t('WorkflowForm.estimateReading', { done: progress.done, total: progress.total })}</span> : null}
      <button type="button" className="btn" onClick={() => void cancelEstimate()}>{t('WorkflowForm.estimateCancel')}</button>
    </span>
  );
}
