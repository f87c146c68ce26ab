import { Dialog } from '../../components/Dialog';
import { describeResultFile } from '../../../shared/engine/result-file';
import { describeDeliverables } from '../../../shared/engine/deliverables';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useFormat, useT } from '../../i18n';
import { baseName } from '../../lib/format';
import { describeAlreadyDone, describeFollowing, describeResultsGone } from '../../../shared/engine/done-summary';
import { describeRawPairs, describeSkip } from '../../../shared/engine/skip-text';
import { METADATA_LABELS } from '../../lib/metadata-labels';
import { useActions, useApp } from '../../store/context';

/** The last look before spending: count, skipped files and why, cost against balance, where results go. */
/** How many photos "Try first" runs, spread across the batch. */
const TRY_FIRST = 3;

export function BatchSummaryDialog() {
  const t = useT('workflows');
  const format = useFormat();
  const formatCredits = (n: number) => format.credits(n);
  const estimate = useApp((s) => s.estimate);
  const starting = useApp((s) => s.starting);
  const draftError = useApp((s) => s.draftError);
  const estimating = useApp((s) => s.estimating);
  const metadataPolicy = useApp((s) => s.draft.metadataPolicy ?? s.settings?.metadataPolicy ?? 'keep');
  const job = useApp((s) => s.draft.job.trim());
  const client = useApp((s) => s.draft.client.trim());
  const { resetEstimate, startBatch, setRerun } = useActions();
  if (!estimate) return null;

  const nothingToDo = estimate.itemCount === 0;
  const blocked = nothingToDo || !estimate.fitsBalance || !estimate.fitsBudget;
  const skippedCount = estimate.skipped.length + estimate.duplicates.length;
  const done = estimate.alreadyDone;
  const rerunCost = done.length * estimate.costPerItem;
  // Nobody wants to spend 500 credits on the wrong settings: a few photos first, then the rest (no second charge).
  const canTry = estimate.itemCount >= TRY_FIRST * 3;

  return (
    <Dialog
      title={t('BatchSummary.title')}
      onClose={resetEstimate}
      wide
      footer={
        <>
          <button type="button" className="btn" onClick={resetEstimate}>{t('BatchSummary.back')}</button>
          {canTry && (
            <button type="button" className="btn" disabled={blocked || starting} onClick={() => void startBatch({ tryFirst: TRY_FIRST })}>
              {t('BatchSummary.tryFirstButton', { count: TRY_FIRST })}
            </button>
          )}
          <button type="button" className="btn btn-primary" data-autofocus disabled={blocked || starting} onClick={() => void startBatch()}>
            {starting ? t('BatchSummary.starting') : t('BatchSummary.start', { count: estimate.itemCount })}
          </button>
        </>
      }
    >
      <dl className="summary-grid">
        <div><dt>{t('BatchSummary.photos')}</dt><dd>{format.number(estimate.itemCount)}</dd></div>
        <div><dt>{t('BatchSummary.skipped')}</dt><dd>{format.number(skippedCount)}</dd></div>
        <div>
          <dt>{t('BatchSummary.cost')}</dt>
          <dd>{formatCredits(estimate.totalCost)}<span className="dd-note">{t('BatchSummary.each', { credits: formatCredits(estimate.costPerItem) })}</span></dd>
        </div>
        <div>
          <dt>{t('BatchSummary.balance')}</dt>
          <dd className={estimate.fitsBalance ? '' : 'text-danger'}>
            {estimate.balance === null ? t('BatchSummary.balanceUnknown') : formatCredits(estimate.balance)}
            {estimate.balance !== null && estimate.fitsBalance && (
              <span className="dd-note">{t('BatchSummary.afterBatch', { credits: formatCredits(estimate.balance - estimate.totalCost) })}</span>
            )}
          </dd>
        </div>
      </dl>
      {done.length > 0 && !estimate.rerun && (
        <p className="callout" role="status" data-testid="already-done">
          {t('BatchSummary.doneSkipped', { done: describeAlreadyDone(done) })}{' '}
          <button type="button" className="btn btn-small" disabled={estimating} onClick={() => void setRerun(true)}>
            {t('BatchSummary.runAgain', { credits: formatCredits(rerunCost) })}
          </button>
        </p>
      )}
      {done.length > 0 && estimate.rerun && (
        <p className="callout callout-warning" role="status" data-testid="already-done">
          {t('BatchSummary.doneRerun', { done: describeAlreadyDone(done), credits: formatCredits(rerunCost) })}{' '}
          <button type="button" className="btn btn-small" disabled={estimating} onClick={() => void setRerun(false)}>{t('BatchSummary.skipThem')}</button>
        </p>
      )}
      {estimate.resultsGone.length > 0 && (
        <p className="callout" role="status" data-testid="results-gone">
          {t('BatchSummary.gone', { gone: describeResultsGone(estimate.resultsGone), credits: formatCredits(estimate.resultsGone.length * estimate.costPerItem) })}
        </p>
      )}
      {estimate.following.length > 0 && (
        <p className="callout" role="status" data-testid="already-running">{t('BatchSummary.following', { following: describeFollowing(estimate.following) })}</p>
      )}
      {nothingToDo && done.length === 0 && <p className="callout callout-warning" role="alert">{t('BatchSummary.nothingToDo')}</p>}
      {!estimate.fitsBalance && (
        <p className="callout callout-danger" role="alert">
          {t('BatchSummary.notEnough', { needed: formatCredits(estimate.totalCost), balance: formatCredits(estimate.balance ?? 0) })}
        </p>
      )}
      {!estimate.fitsBudget && <p className="callout callout-danger" role="alert">{t('BatchSummary.overBudget')}</p>}
      <p className="summary-line"><span className="muted">{t('BatchSummary.savedTo')}</span> <span className="mono">{estimate.outputFolder}</span></p>
      <p className="summary-line"><span className="muted">{t('BatchSummary.metadata')}</span> {METADATA_LABELS[metadataPolicy]}</p>
      {(job || client) && (
        <p className="summary-line" data-testid="job-client">
          {job && <><span className="muted">{t('BatchSummary.job')}</span> {job}</>}{job && client && ' · '}{client && <><span className="muted">{t('BatchSummary.client')}</span> {client}</>}
        </p>
      )}
      {canTry && (
        <p className="summary-line" data-testid="try-first">
          <span className="muted">{t('BatchSummary.notSure')}</span>{' '}
          {t('BatchSummary.tryFirst', {
            count: TRY_FIRST, credits: formatCredits(TRY_FIRST * estimate.costPerItem),
            rest: estimate.itemCount - TRY_FIRST, restCredits: formatCredits((estimate.itemCount - TRY_FIRST) * estimate.costPerItem),
          })}
        </p>
      )}
      {estimate.resultFile && <p className="summary-line">{describeResultFile(estimate.resultFile)}</p>}
      {estimate.deliverables.length > 1 && (
        <div className="summary-line" data-testid="deliverables">
          <span className="muted">{t('BatchSummary.eachBecomes', { count: estimate.deliverables.length })}</span>
          <ul className="deliverable-lines">{describeDeliverables(estimate.deliverables).map((line) => <li key={line} className="mono">{line}</li>)}</ul>
        </div>
      )}
      {describeRawPairs(estimate.skipped) && <p className="summary-line" data-testid="raw-pairs">{describeRawPairs(estimate.skipped)}</p>}
      {estimate.namingPreview.length > 0 && (
        <table className="table naming-preview" aria-label={t('BatchSummary.outputNames')}>
          <thead><tr><th>{t('BatchSummary.photo')}</th><th>{t('BatchSummary.savedAs')}</th></tr></thead>
          <tbody>
            {estimate.namingPreview.map((n) => (
              <tr key={n.source}>
                <td className="mono">{baseName(n.source)}</td>
                <td className="mono" title={n.output}>{baseName(n.output)}{n.note && <span className="muted"> — {n.note}</span>}</td>
              </tr>
            ))}
          </tbody>
          {estimate.namingPreviewMore > 0 && (
            <tfoot><tr><td colSpan={2} className="muted">{t('BatchSummary.andMore', { count: estimate.namingPreviewMore })}</td></tr></tfoot>
          )}
        </table>
      )}
      {skippedCount > 0 && (
        <details className="skipped">
          <summary>{t('BatchSummary.skippedFiles', { count: skippedCount })}</summary>
          <ul aria-label={t('BatchSummary.skippedList')}>
            {estimate.skipped.map((s, i) => <li key={`${i}:${s.path}`}><span className="mono">{baseName(s.path)}</span> — {describeSkip(s, 'app')}</li>)}
            {estimate.duplicates.map((d) => <li key={d.path}><span className="mono">{baseName(d.path)}</span> — {t('BatchSummary.sameAs', { name: baseName(d.duplicateOf) })}</li>)}
          </ul>
        </details>
      )}
      {draftError && <ErrorMessage error={draftError} />}
    </Dialog>
  );
}
