import { useEffect } from 'react';
import type { StudioClaim, StudioInstance, StudioStatus } from '../../../shared/studio/model';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useActions, useApp } from '../../store/context';

/** A claim in flight, in words (the states are the shared claim table's in-flight group). */
const CLAIM_STATE_LABELS: Record<StudioClaim['state'], string> = { claimed: 'Claimed', submitting: 'Sending', accepted: 'At the service' };

/** How often the panel reads the ledger again while it is on screen (a heartbeat is every few seconds). */
export const STUDIO_REFRESH_MS = 5_000;
const MAX_CLAIMS_SHOWN = 50;

const time = (iso: string) => new Date(iso).toLocaleTimeString();

function instanceState(i: StudioInstance): { label: string; tone: string } {
  if (i.stopped) return { label: 'Stopped', tone: 'neutral' };
  // Not stopped and the lease ran out: it died or lost the database; its claims are being taken over.
  return i.alive ? { label: 'Alive', tone: 'ok' } : { label: 'Lease expired', tone: 'warning' };
}

function Instances({ status }: { status: StudioStatus }) {
  if (status.instances.length === 0) return <p className="muted">No instance has joined this ledger yet. Each machine joins when its hot folders start.</p>;
  return (
    <table className="table" aria-label="Instances">
      <thead>
        <tr><th>Host</th><th>Version</th><th>State</th><th>Last heartbeat</th><th>In flight</th><th>Processed</th><th>Failed</th><th>Credits</th><th>Per minute</th></tr>
      </thead>
      <tbody>
        {status.instances.map((i) => {
          const state = instanceState(i);
          return (
            <tr key={i.id}>
              <td className="mono" title={`${i.id} · pid ${i.pid} · started ${new Date(i.startedAt).toLocaleString()}`}>{i.label ? `${i.label} (${i.host})` : i.host}</td>
              <td>{i.version}</td>
              <td><span className={`badge badge-${state.tone}`}>{state.label}</span></td>
              <td>{time(i.heartbeatAt)}</td>
              <td>{i.inFlight}</td>
              <td>{i.processed}</td>
              <td className={i.failed > 0 ? 'text-danger' : ''}>{i.failed}</td>
              <td>{i.creditsSpent}</td>
              <td>{i.perMinute}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Claims({ status }: { status: StudioStatus }) {
  const owners = new Map(status.instances.map((i) => [i.id, i]));
  // A claim whose owner is gone waits for another instance to take it over: say so beside the owner.
  const ownerText = (id: string | null) => {
    const owner = id ? owners.get(id) : undefined;
    if (!owner) return id ?? '—';
    return owner.alive && !owner.stopped ? owner.host : `${owner.host} (${instanceState(owner).label.toLowerCase()})`;
  };
  if (status.claimsInFlight.length === 0) return <p className="muted">No photo is being processed right now.</p>;
  const shown = status.claimsInFlight.slice(0, MAX_CLAIMS_SHOWN);
  return (
    <>
      <table className="table" aria-label="Claims in flight">
        <thead><tr><th>Photo</th><th>State</th><th>Owner</th><th>Since</th></tr></thead>
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
      {status.claimsInFlight.length > shown.length && <p className="muted">…and {status.claimsInFlight.length - shown.length} more</p>}
    </>
  );
}

function Budgets({ status }: { status: StudioStatus }) {
  if (status.folders.length === 0) return <p className="muted">No folder has been processed through this ledger yet.</p>;
  return (
    <table className="table" aria-label="Shared budgets">
      <thead><tr><th>Folder</th><th>Credits committed</th><th>Budget</th><th>Processed</th><th>Failed</th></tr></thead>
      <tbody>
        {status.folders.map((f) => (
          <tr key={f.folderKey}>
            <td className="mono">{f.folderKey}</td>
            <td>{f.creditsCommitted}</td>
            <td>{f.budget === null ? 'none' : `${f.budget} (${Math.max(0, f.budget - f.creditsCommitted)} left)`}</td>
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
    <section className="panel studio-panel" aria-label="Studio">
      <div className="row">
        <h2 className="panel-title">Studio</h2>
        <div className="inline-field">
          {readAt && <span className="muted">Read at {time(readAt)}{status ? <> from <span className="mono">{status.ledger}</span></> : null}</span>}
          <button type="button" className="btn btn-small" disabled={loading} onClick={() => void loadStudioStatus()}>{loading ? 'Reading…' : 'Refresh'}</button>
        </div>
      </div>
      {error && <ErrorMessage error={error} onRetry={() => void loadStudioStatus()} />}
      {!status && !error && <p className="muted" role="status">Reading the studio ledger…</p>}
      {status && (
        <>
          {error && <p className="muted">Showing what the ledger said at {readAt ? time(readAt) : 'the last read'}.</p>}
          <h3 className="panel-title">Instances</h3>
          <Instances status={status} />
          <h3 className="panel-title">Claims in flight</h3>
          <Claims status={status} />
          <h3 className="panel-title">Shared budgets</h3>
          <Budgets status={status} />
        </>
      )}
    </section>
  );
}
