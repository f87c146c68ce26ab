import type { HotFolderState } from '../../../shared/hotfolders/model';
import { describeSkip } from '../../../shared/engine/skip-text';
import { describeDeliverables } from '../../../shared/engine/deliverables';
import { baseName, formatCredits } from '../../lib/format';
import { useActions, useApp } from '../../store/context';

const STATE_LABELS = {
  disarmed: 'Off',
  scanning: 'Scanning…',
  armed: 'Watching',
  'awaiting-review': 'Waiting for you',
  unavailable: 'Unavailable',
} as const;
const STATE_TONES = { disarmed: 'neutral', scanning: 'active', armed: 'ok', 'awaiting-review': 'warning', unavailable: 'danger' } as const;

export function HotFolderCard({ folder, onEdit }: { folder: HotFolderState; onEdit: () => void }) {
  const { config, status } = folder;
  const workflow = useApp((s) => s.workflows.find((w) => w.id === config.workflowId));
  const workflowName = workflow?.name ?? config.workflowId;
  const report = useApp((s) => s.dryRuns[config.id]);
  const { setArmed, dryRun, reprocess, removeHotFolder, saveHotFolder } = useActions();
  const waiting = status.state === 'awaiting-review' ? status.awaitingReview : 0;
  const name = baseName(config.path);
  // The pipeline words its own reason the same way while the ledger is away: say it once, in the studio's words.
  const studioDown = status.studio === 'unreachable';
  const reason = studioDown && status.reason?.toLowerCase().startsWith('studio ledger unreachable') ? null : status.reason;

  return (
    <article className={`hot-card hot-${status.state}`} aria-label={`Hot folder ${name}`}>
      <header className="hot-card-head">
        <div>
          <h2 className="mono hot-card-name" title={config.path}>{name}</h2>
          <p className="muted mono hot-path">{config.path}</p>
        </div>
        {/* A visible word beside the switch: a bare toggle did not say it arms the folder (or that it was off). */}
        <label className="switch switch-labelled">
          <input
            type="checkbox"
            role="switch"
            aria-label={`Watch ${name}`}
            checked={config.enabled}
            onChange={(e) => void setArmed(config.id, e.target.checked)}
          />
          <span className="switch-track" aria-hidden="true" />
          <span className="switch-text" aria-hidden="true">Watch</span>
        </label>
      </header>
      <p>
        <span className={`badge badge-${STATE_TONES[status.state]}`}>{STATE_LABELS[status.state]}</span>
        {status.studio === 'connected' && <> <span className="badge badge-active" title={`Claims photos in the shared studio ledger as “${config.studioFolder ?? name}”`}>Studio</span></>}
        <span className="muted"> {workflowName} → <span className="mono">{baseName(config.outputFolder)}</span></span>
      </p>
      {studioDown && <p className="callout callout-warning" role="status">Studio ledger unreachable — claiming paused</p>}
      {reason && <p className={status.state === 'unavailable' ? 'callout callout-danger' : 'callout callout-warning'} role="status">{reason}</p>}
      {waiting > 0 && (
        <div className="button-row waiting-actions">
          {/* Arming a folder that holds files for review approves them (main's hot-folder manager). */}
          <button type="button" className="btn btn-small btn-primary" onClick={() => void setArmed(config.id, true)}>
            Process {waiting} waiting {waiting === 1 ? 'photo' : 'photos'}{workflow ? ` (${formatCredits(waiting * workflow.creditCost)})` : ''}
          </button>
          <button type="button" className="btn btn-small" onClick={() => void saveHotFolder({ ...config, existingFiles: 'skip' })}>Leave them</button>
        </div>
      )}
      <dl className="stat-row">
        <div><dt>Processed</dt><dd>{status.processed}</dd></div>
        <div><dt>Queued</dt><dd>{status.queued}</dd></div>
        <div><dt>Failed</dt><dd className={status.failed > 0 ? 'text-danger' : ''}>{status.failed}</dd></div>
        {status.awaitingReview > 0 && <div><dt>Waiting</dt><dd className="text-warning">{status.awaitingReview}</dd></div>}
        <div><dt>Credits</dt><dd>{status.creditsSpent}</dd></div>
        <div><dt>Last activity</dt><dd>{status.lastActivityAt ? new Date(status.lastActivityAt).toLocaleTimeString() : '—'}</dd></div>
      </dl>
      <div className="button-row">
        <button type="button" className="btn btn-small" onClick={onEdit} aria-label={`Edit ${name}`}>Edit</button>
        <button type="button" className="btn btn-small" onClick={() => void dryRun(config.id)} aria-label={`Dry run ${name}`}>Dry run</button>
        <button type="button" className="btn btn-small" onClick={() => void reprocess(config.id)} aria-label={`Reprocess ${name}`} title="Make files already processed with earlier settings eligible again">Reprocess</button>
        <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => void removeHotFolder(config.id)} aria-label={`Remove ${name}`}>Remove</button>
      </div>
      {report && (
        <section className="dry-run" aria-label={`Dry run of ${name}`}>
          <p>
            <strong>{report.toProcess.length}</strong> to process · {report.alreadyDone.length} already done · {report.colliding.length} would collide ·{' '}
            {report.unsupported.length} unsupported · <strong>{report.totalCredits}</strong> credits
          </p>
          {report.deliverables.length > 1 && (
            <>
              <p>Each photo becomes {report.deliverables.length} files, paid once:</p>
              <ul className="dry-list">{describeDeliverables(report.deliverables).map((line) => <li key={line}>{line}</li>)}</ul>
            </>
          )}
          {report.toProcess.length > 0 && (
            <ul className="dry-list">
              {report.toProcess.slice(0, 8).map((f) => <li key={f.path} className="mono">{baseName(f.path)} → {(f.outputs ?? [f.output]).map(baseName).join(', ')}</li>)}
              {report.toProcess.length > 8 && <li className="muted">…and {report.toProcess.length - 8} more</li>}
            </ul>
          )}
          {report.unsupported.length > 0 && (
            <ul className="dry-list">
              {report.unsupported.slice(0, 5).map((f, i) => <li key={`${i}:${f.path}`}><span className="mono">{baseName(f.path)}</span> — {describeSkip(f, 'hot-folder')}</li>)}
            </ul>
          )}
        </section>
      )}
    </article>
  );
}
