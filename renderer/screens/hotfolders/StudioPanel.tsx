import { useEffect } from 'react';
import type { StudioClaim, StudioInstance, StudioStatus } from '../../../shared/studio/model';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useActions, useApp } from '../../store/context';
import { catalogLabels } from '../../i18n/labels';
import { activeFormat, useFormat, useT } from '../../i18n';

/** A claim in flight, in words (the states are the shared claim table's in-flight group). */
const CLAIM_STATE_LABELS = catalogLabels('hotfolders', { claimed: 'Studio.claimed', submitting: 'Studio.submitting', accepted: 'Studio.accepted' }) satisfies Record<StudioClaim['state'], string>;

/** How often the panel reads the ledger again while it is on screen (a heartbeat is every few seconds). */
export const STUDIO_REFRESH_MS = 5_000;
const MAX_CLAIMS_SHOWN = 50;

const time = (iso: string) => activeFormat().time(iso);

const INSTANCE_STATES = catalogLabels('hotfolders', { stopped: 'Studio.stopped', alive: 'Studio.alive', expired: 'Studio.expired' });

function instanceState(i: StudioInstance): { label: string; tone: string } {
  if (i.stopped) return { label: INSTANCE_STATES.stopped, tone: 'neutral' };
  // Not stopped and the lease ran out: it died or lost the database; its claims are being taken over.
  return i.alive ? { label: INSTANCE_STATES.alive, tone: 'ok' } : { label: INSTANCE_STATES.expired, tone: 'warning' };
}

function Instances({ status }: { status: StudioStatus }) {
  const t = useT('hotfolders');
  const format = useFormat();
  if (status.instances.length === 0) return <p className="muted">{t('Studio.noInstances')}</p>;
  return (
    <table className="table" aria-label={t('Studio.instances')}>
      <thead>
        <tr><th>{t('Studio.host')}</th><th>{t('Studio.version')}</th><th>{t('Studio.state')}</th><th>{t('Studio.heartbeat')}</th><th>{t('Studio.inFlight')}</th><th>{t('Studio.processed')}</th><th>{t('Studio.failed')}</th><th>{t('Studio.credits')}</th><th>{t('Studio.perMinute')}</th></tr>
      </thead>
      <tbody>
        {status.instances.map((i) => {
          const state = instanceState(i);
          return (
            <tr key={i.id}>
              <td className="mono" title={t('Studio.instanceHint', { id: i.id, pid: i.pid, started: format.dateTime(i.startedAt) })}>{i.label ? `${i.label} (${i.host})` : i.host}</td>
              <td>{i.version}</td>
              <td><span className={`badge badge-${state.tone}`}>{state.label}</span></td>
              <td>{time(i.heartbeatAt)}</td>
              <td>{i.inFlight}</td>
              <td>{i.processed}</td>
              <td className={i.failed > 0 ? 'text-danger' : ''}>{i.failed}</td>
              <td>{format.number(i.creditsSpent, 2)}</td>
              <td>{format.number(i.perMinute, 1)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Claims({ status }: { status: StudioStatus }) {
  const t = useT('hotfolders');
  const owners = new Map(status.instances.map((i) => [i.id, i]));
  // A claim whose owner is gone waits for another instance to take it over: say so beside the owner.
  const ownerText = (id: string | null) => {
    const owner = id ? owners.get(id) : undefined;
    if (!owner) return id ?? '—';
    if (owner.stopped) return t('Studio.ownerStopped', { host: owner.host });
    return owner.alive ? owner.host : t('Studio.ownerExpired', { host: owner.host });
  };
  if (status.claimsInFlight.length === 0) return <p className="muted">{t('Studio.noClaims')}</p>;
  const shown = status.claimsInFlight.slice(0, MAX_CLAIMS_SHOWN);
  return (
    <>
      <table className="table" aria-label={t('Studio.claims')}>
        <thead><tr><th>{t('Studio.photo')}</th><th>{t('Studio.state')}</th><th>{t('Studio.owner')}</th><th>{t('Studio.since')}</th></tr></thead>
        <tbody>
          {shown.map((c) => (
            <tr key={`${c.folderKey}/${c.relPath}/${c.since}`}>
              <td className="mono">{c.folderKey}/{c.relPath}</td>
              <td>{CLAIM_STATE_LABELS[c.state]}</td>
              <td className="mono">{ownerText(c.owner)}</td>
              <td>{time(c.since)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {status.claimsInFlight.length > shown.length && <p className="muted">{t('DryRun.andMore', { count: status.claimsInFlight.length - shown.length })}</p>}
    </>
  );
}

function Budgets({ status }: { status: StudioStatus }) {
  const t = useT('hotfolders');
  const format = useFormat();
  if (status.folders.length === 0) return <p className="muted">{t('Studio.noFolders')}</p>;
  return (
    <table className="table" aria-label={t('Studio.budgets')}>
      <thead><tr><th>{t('Studio.folder')}</th><th>{t('Studio.committed')}</th><th>{t('Studio.budget')}</th><th>{t('Studio.processed')}</th><th>{t('Studio.failed')}</th></tr></thead>
      <tbody>
        {status.folders.map((f) => (
          <tr key={f.folderKey}>
            <td className="mono">{f.folderKey}</td>
            <td>{format.number(f.creditsCommitted, 2)}</td>
            <td>{f.budget === null ? t('Studio.noBudget') : t('Studio.budgetLeft', { budget: format.number(f.budget, 2), left: format.number(Math.max(0, f.budget - f.creditsCommitted), 2) })}</td>
            <td>{f.processed}</td>
            <td className={f.failed > 0 ? 'text-danger' : ''}>{f.failed}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The shared studio ledger as every machine sees it: instances, claims in flight, shared budgets. Read when shown,
 * then every STUDIO_REFRESH_MS while the window is visible (hidden windows do not poll the database).
 */
export function StudioPanel() {
  const status = useApp((s) => s.studioStatus);
  const error = useApp((s) => s.studioError);
  const loading = useApp((s) => s.studioLoading);
  const readAt = useApp((s) => s.studioReadAt);
  const { loadStudioStatus } = useActions();
  const t = useT('hotfolders');

  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState !== 'hidden') void loadStudioStatus();
    };
    refresh();
    const timer = setInterval(refresh, STUDIO_REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [loadStudioStatus]);

  return (
    <section className="panel studio-panel" aria-label={t('Card.studio')}>
      <div className="row">
        <h2 className="panel-title">{t('Card.studio')}</h2>
        <div className="inline-field">
          {readAt && <span className="muted">{t('Studio.readAt', { time: time(readAt) })}{status ? <> {t('Studio.from')} <span className="mono">{status.ledger}</span></> : null}</span>}
          <button type="button" className="btn btn-small" disabled={loading} onClick={() => void loadStudioStatus()}>{loading ? t('Studio.reading') : t('Studio.refresh')}</button>
        </div>
      </div>
      {error && <ErrorMessage error={error} onRetry={() => void loadStudioStatus()} />}
      {!status && !error && <p className="muted" role="status">{t('Studio.readingLedger')}</p>}
      {status && (
        <>
          {error && <p className="muted">{readAt ? t('Studio.showingAt', { time: time(readAt) }) : t('Studio.showingLast')}</p>}
          <h3 className="panel-title">{t('Studio.instances')}</h3>
          <Instances status={status} />
          <h3 className="panel-title">{t('Studio.claims')}</h3>
          <Claims status={status} />
          <h3 className="panel-title">{t('Studio.budgets')}</h3>
          <Budgets status={status} />
        </>
      )}
    </section>
  );
}
