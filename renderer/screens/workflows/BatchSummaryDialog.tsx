import { Dialog } from '../../components/Dialog';
import { describeResultFile } from '../../../shared/engine/result-file';
import { describeDeliverables } from '../../../shared/engine/deliverables';
import { ErrorMessage } from '../../components/ErrorMessage';
import { baseName, formatCredits } from '../../lib/format';
import { describeAlreadyDone, describeFollowing, describeResultsGone } from '../../../shared/engine/done-summary';
import { describeRawPairs, describeSkip } from '../../../shared/engine/skip-text';
import { METADATA_LABELS } from '../../lib/metadata-labels';
import { useActions, useApp } from '../../store/context';

/** The last look before spending: count, skipped files and why, cost against balance, where results go. */
/** How many photos "Try first" runs, spread across the batch. */
const TRY_FIRST = 3;

export function BatchSummaryDialog() {
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
      title="Batch summary"
      onClose={resetEstimate}
      wide
      footer={
        <>
          <button type="button" className="btn" onClick={resetEstimate}>Back</button>
          {canTry && (
            <button type="button" className="btn" disabled={blocked || starting} onClick={() => void startBatch({ tryFirst: TRY_FIRST })}>
              Try on {TRY_FIRST} photos first
            </button>
          )}
          <button type="button" className="btn btn-primary" data-autofocus disabled={blocked || starting} onClick={() => void startBatch()}>
            {starting ? 'Starting…' : `Start ${estimate.itemCount} ${estimate.itemCount === 1 ? 'photo' : 'photos'}`}
          </button>
        </>
      }
    >
      <dl className="summary-grid">
        <div><dt>Photos</dt><dd>{estimate.itemCount}</dd></div>
        <div><dt>Skipped</dt><dd>{skippedCount}</dd></div>
        <div>
          <dt>Cost</dt>
          <dd>{formatCredits(estimate.totalCost)}<span className="dd-note">{formatCredits(estimate.costPerItem)} each</span></dd>
        </div>
        <div>
          <dt>Balance</dt>
          <dd className={estimate.fitsBalance ? '' : 'text-danger'}>
            {estimate.balance === null ? 'unknown (offline)' : formatCredits(estimate.balance)}
            {estimate.balance !== null && estimate.fitsBalance && (
              <span className="dd-note">{formatCredits(estimate.balance - estimate.totalCost)} after this batch</span>
            )}
          </dd>
        </div>
      </dl>
      {done.length > 0 && !estimate.rerun && (
        <p className="callout" role="status" data-testid="already-done">
          {describeAlreadyDone(done)}: skipped, nothing is paid for them.{' '}
          <button type="button" className="btn btn-small" disabled={estimating} onClick={() => void setRerun(true)}>
            Run them again ({formatCredits(rerunCost)})
          </button>
        </p>
      )}
      {done.length > 0 && estimate.rerun && (
        <p className="callout callout-warning" role="status" data-testid="already-done">
          {describeAlreadyDone(done)}: running them again ({formatCredits(rerunCost)} included in the cost).{' '}
          <button type="button" className="btn btn-small" disabled={estimating} onClick={() => void setRerun(false)}>Skip them</button>
        </p>
      )}
      {estimate.resultsGone.length > 0 && (
        <p className="callout" role="status" data-testid="results-gone">
          {describeResultsGone(estimate.resultsGone)} ({formatCredits(estimate.resultsGone.length * estimate.costPerItem)} included in the cost).
        </p>
      )}
      {estimate.following.length > 0 && (
        <p className="callout" role="status" data-testid="already-running">{describeFollowing(estimate.following)}.</p>
      )}
      {nothingToDo && done.length === 0 && <p className="callout callout-warning" role="alert">No photos to process: every file was skipped. See the reasons below.</p>}
      {!estimate.fitsBalance && (
        <p className="callout callout-danger" role="alert">
          Not enough credits: this batch needs {formatCredits(estimate.totalCost)} but the balance is {formatCredits(estimate.balance ?? 0)}.
          Top up, or remove some photos.
        </p>
      )}
      {!estimate.fitsBudget && <p className="callout callout-danger" role="alert">This batch costs more than the budget you set.</p>}
      <p className="summary-line"><span className="muted">Saved to</span> <span className="mono">{estimate.outputFolder}</span></p>
      <p className="summary-line"><span className="muted">Photo metadata</span> {METADATA_LABELS[metadataPolicy]}</p>
      {(job || client) && (
        <p className="summary-line" data-testid="job-client">
          {job && <><span className="muted">Job</span> {job}</>}{job && client && ' · '}{client && <><span className="muted">Client</span> {client}</>}
        </p>
      )}
      {canTry && (
        <p className="summary-line" data-testid="try-first">
          <span className="muted">Not sure yet?</span> Try {TRY_FIRST} photos first ({formatCredits(TRY_FIRST * estimate.costPerItem)}), review them, then
          continue with the other {estimate.itemCount - TRY_FIRST} ({formatCredits((estimate.itemCount - TRY_FIRST) * estimate.costPerItem)}).
        </p>
      )}
      {estimate.resultFile && <p className="summary-line">{describeResultFile(estimate.resultFile)}</p>}
      {estimate.deliverables.length > 1 && (
        <div className="summary-line" data-testid="deliverables">
          <span className="muted">Each photo becomes {estimate.deliverables.length} files, paid once:</span>
          <ul className="deliverable-lines">{describeDeliverables(estimate.deliverables).map((line) => <li key={line} className="mono">{line}</li>)}</ul>
        </div>
      )}
      {describeRawPairs(estimate.skipped) && <p className="summary-line" data-testid="raw-pairs">{describeRawPairs(estimate.skipped)}</p>}
      {estimate.namingPreview.length > 0 && (
        <table className="table naming-preview" aria-label="Output names">
          <thead><tr><th>Photo</th><th>Saved as</th></tr></thead>
          <tbody>
            {estimate.namingPreview.map((n) => (
              <tr key={n.source}>
                <td className="mono">{baseName(n.source)}</td>
                <td className="mono" title={n.output}>{baseName(n.output)}{n.note && <span className="muted"> — {n.note}</span>}</td>
              </tr>
            ))}
          </tbody>
          {estimate.namingPreviewMore > 0 && (
            <tfoot><tr><td colSpan={2} className="muted">…and {estimate.namingPreviewMore} more</td></tr></tfoot>
          )}
        </table>
      )}
      {skippedCount > 0 && (
        <details className="skipped">
          <summary>{skippedCount} skipped {skippedCount === 1 ? 'file' : 'files'}</summary>
          <ul aria-label="Skipped files">
            {estimate.skipped.map((s, i) => <li key={`${i}:${s.path}`}><span className="mono">{baseName(s.path)}</span> — {describeSkip(s, 'app')}</li>)}
            {estimate.duplicates.map((d) => <li key={d.path}><span className="mono">{baseName(d.path)}</span> — same photo as {baseName(d.duplicateOf)}</li>)}
          </ul>
        </details>
      )}
      {draftError && <ErrorMessage error={draftError} />}
    </Dialog>
  );
}
