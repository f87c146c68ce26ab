import type { HotFolderState } from '../../../shared/hotfolders/model';
import { describeSkip } from '../../../shared/engine/skip-text';
import { describeDeliverables } from '../../../shared/engine/deliverables';
import { baseName } from '../../lib/format';
import { catalogLabels } from '../../i18n/labels';
import { useFormat, useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';

const STATE_LABELS = catalogLabels('hotfolders', {
  disarmed: 'State.disarmed',
  scanning: 'State.scanning',
  armed: 'State.armed',
  'awaiting-review': 'State.awaitingReview',
  unavailable: 'State.unavailable',
});
const STATE_TONES = { disarmed: 'neutral', scanning: 'active', armed: 'ok', 'awaiting-review': 'warning', unavailable: 'danger' } as const;

export function HotFolderCard({ folder, onEdit }: { folder: HotFolderState; onEdit: () => void }) {
  const { config, status } = folder;
  const workflow = useApp((s) => s.workflows.find((w) => w.id === config.workflowId));
  const workflowName = workflow?.name ?? config.workflowId;
  const report = useApp((s) => s.dryRuns[config.id]);
  const { setArmed, dryRun, reprocess, removeHotFolder, saveHotFolder } = useActions();
  const t = useT('hotfolders');
  const format = useFormat();
  const waiting = status.state === 'awaiting-review' ? status.awaitingReview : 0;
  const name = baseName(config.path);
  // The pipeline words its own reason the same way while the ledger is away: say it once, in the studio's words.
  const studioDown = status.studio === 'unreachable';
  const reason = studioDown && status.reason?.toLowerCase().startsWith('studio ledger unreachable') ? null : status.reason;

  return (
    <article className={`hot-card hot-${status.state}`} aria-label={t('Card.label', { name })}>
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
            aria-label={t('Card.watchLabel', { name })}
            checked={config.enabled}
            onChange={(e) => void setArmed(config.id, e.target.checked)}
          />
          <span className="switch-track" aria-hidden="true" />
          <span className="switch-text" aria-hidden="true">{t('Card.watch')}</span>
        </label>
      </header>
      <p>
        <span className={`badge badge-${STATE_TONES[status.state]}`}>{STATE_LABELS[status.state]}</span>
        {status.studio === 'connected' && <> <span className="badge badge-active" title={t('Card.studioHint', { name: config.studioFolder ?? name })}>{t('Card.studio')}</span></>}
        <span className="muted"> {workflowName} → <span className="mono">{baseName(config.outputFolder)}</span></span>
      </p>
      {studioDown && <p className="callout callout-warning" role="status">{t('Card.studioDown')}</p>}
      {reason && <p className={status.state === 'unavailable' ? 'callout callout-danger' : 'callout callout-warning'} role="status">{reason}</p>}
      {waiting > 0 && (
        <div className="button-row waiting-actions">
          {/* Arming a folder that holds files for review approves them (main's hot-folder manager). */}
          <button type="button" className="btn btn-small btn-primary" onClick={() => void setArmed(config.id, true)}>
            {workflow
              ? t('Card.processWaitingCost', { count: waiting, credits: format.credits(waiting * workflow.creditCost) })
              : t('Card.processWaiting', { count: waiting })}
          </button>
          <button type="button" className="btn btn-small" onClick={() => void saveHotFolder({ ...config, existingFiles: 'skip' })}>{t('Card.leaveThem')}</button>
        </div>
      )}
      <dl className="stat-row">
        <div><dt>{t('Card.processed')}</dt><dd>{format.number(status.processed)}</dd></div>
        <div><dt>{t('Card.queued')}</dt><dd>{format.number(status.queued)}</dd></div>
        <div><dt>{t('Card.failed')}</dt><dd className={status.failed > 0 ? 'text-danger' : ''}>{format.number(status.failed)}</dd></div>
        {status.awaitingReview > 0 && <div><dt>{t('Card.waiting')}</dt><dd className="text-warning">{format.number(status.awaitingReview)}</dd></div>}
        <div><dt>{t('Card.credits')}</dt><dd>{format.number(status.creditsSpent, 2)}</dd></div>
        <div><dt>{t('Card.lastActivity')}</dt><dd>{status.lastActivityAt ? format.time(status.lastActivityAt) : '—'}</dd></div>
      </dl>
      <div className="button-row">
        <button type="button" className="btn btn-small" onClick={onEdit} aria-label={t('Card.editLabel', { name })}>{t('Card.edit')}</button>
        <button type="button" className="btn btn-small" onClick={() => void dryRun(config.id)} aria-label={t('Card.dryRunLabel', { name })}>{t('Card.dryRun')}</button>
        <button type="button" className="btn btn-small" onClick={() => void reprocess(config.id)} aria-label={t('Card.reprocessLabel', { name })} title={t('Card.reprocessHint')}>{t('Card.reprocess')}</button>
        <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => void removeHotFolder(config.id)} aria-label={t('Card.removeLabel', { name })}>{t('Card.remove')}</button>
      </div>
      {report && (
        <section className="dry-run" aria-label={t('Card.dryRunOf', { name })}>
          <p>
            <strong>{format.number(report.toProcess.length)}</strong> {t('DryRun.toProcess')} · {t('DryRun.alreadyDone', { count: report.alreadyDone.length })} · {t('DryRun.wouldCollide', { count: report.colliding.length })} ·{' '}
            {t('DryRun.unsupported', { count: report.unsupported.length })} · <strong>{format.credits(report.totalCredits)}</strong>
          </p>
          {report.deliverables.length > 1 && (
            <>
              <p>{t('DryRun.eachPhotoBecomes', { count: report.deliverables.length })}</p>
              <ul className="dry-list">{describeDeliverables(report.deliverables).map((line) => <li key={line}>{line}</li>)}</ul>
            </>
          )}
          {report.toProcess.length > 0 && (
            <ul className="dry-list">
              {report.toProcess.slice(0, 8).map((f) => <li key={f.path} className="mono">{baseName(f.path)} → {(f.outputs ?? [f.output]).map(baseName).join(', ')}</li>)}
              {report.toProcess.length > 8 && <li className="muted">{t('DryRun.andMore', { count: report.toProcess.length - 8 })}</li>}
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
