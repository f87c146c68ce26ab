import { useId } from 'react';
import { UPDATE_CHANNELS, type UpdateChannel } from '../../../shared/update/model';
import type { SettingsPatchInput } from '../../../shared/settings/schema';
import { useApp } from '../../store/context';
import { useUpdateStatus } from './update-status';

const CHANNEL_LABELS: Record<UpdateChannel, string> = {
  stable: 'Stable: tested releases',
  beta: 'Beta: new features earlier, may have rough edges',
};

/**
 * Settings › Updates: the channel, "Stay on this version", a check on demand and what the updater last said. When
 * the admin's batchroom-policy.json decides, the controls show its choice and cannot be changed here.
 */
export function UpdateSection({ save }: { save: (patch: SettingsPatchInput) => Promise<unknown> }) {
  const settings = useApp((s) => s.settings);
  const { status, check } = useUpdateStatus();
  const ids = { channel: useId() };
  if (!settings) return null;
  const managed = status?.managedBy === 'policy';
  const channel = managed ? status.channel : settings.updateChannel;
  const stay = managed ? status.stayOnThisVersion : settings.updateStayOnThisVersion;
  const busy = status?.state === 'checking' || status?.state === 'downloading';
  return (
    <section className="panel" aria-label="Updates">
      <h2 className="panel-title">Updates</h2>
      {status && <p className="muted">Batchroom {status.currentVersion}</p>}
      {managed && <p className="callout callout-warning">Your administrator manages updates on this computer (batchroom-policy.json).</p>}
      <div className="field">
        <label className="field-label" htmlFor={ids.channel}>Update channel</label>
        <select id={ids.channel} className="input" value={channel} disabled={managed} onChange={(e) => void save({ updateChannel: e.target.value as UpdateChannel })}>
          {UPDATE_CHANNELS.map((c) => <option key={c} value={c}>{CHANNEL_LABELS[c]}</option>)}
        </select>
      </div>
      <label className="inline-check">
        <input type="checkbox" checked={stay} disabled={managed} onChange={(e) => void save({ updateStayOnThisVersion: e.target.checked })} /> Stay on this version
      </label>
      <p className="muted">Nothing is downloaded or installed while this is on, as a studio keeping one tested version on every machine wants.</p>
      {status?.state !== 'unavailable' && (
        <button type="button" className="btn" disabled={!status || busy} onClick={() => void check().catch(() => undefined)}>
          {busy ? 'Checking…' : 'Check for updates'}
        </button>
      )}
      {status?.message && <p className="muted" role="status">{status.message}</p>}
      {status?.state === 'downloading' && status.percent !== null && <p className="muted">Downloading {Math.round(status.percent)} %</p>}
    </section>
  );
}
