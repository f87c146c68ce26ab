import { useId } from 'react';
import { UPDATE_CHANNELS, type UpdateChannel } from '../../../shared/update/model';
import type { SettingsPatchInput } from '../../../shared/settings/schema';
import { useApp } from '../../store/context';
import { useFormat, useT } from '../../i18n';
import { useUpdateStatus } from './update-status';

const CHANNEL_KEYS = { stable: 'UpdateSection.channelStable', beta: 'UpdateSection.channelBeta' } as const satisfies Record<UpdateChannel, string>;

/**
 * Settings › Updates: the channel, "Stay on this version", a check on demand and what the updater last said. When
 * the admin's batchroom-policy.json decides, the controls show its choice and cannot be changed here.
 */
export function UpdateSection({ save }: { save: (patch: SettingsPatchInput) => Promise<unknown> }) {
  const t = useT('settings');
  const format = useFormat();
  const settings = useApp((s) => s.settings);
  const { status, check } = useUpdateStatus();
  const ids = { channel: useId() };
  if (!settings) return null;
  const managed = status?.managedBy === 'policy';
  const channel = managed ? status.channel : settings.updateChannel;
  const stay = managed ? status.stayOnThisVersion : settings.updateStayOnThisVersion;
  const busy = status?.state === 'checking' || status?.state === 'downloading';
  return (
    <section className="panel" aria-label={t('UpdateSection.title')}>
      <h2 className="panel-title">{t('UpdateSection.title')}</h2>
      {status && <p className="muted">{t('UpdateSection.currentVersion', { version: status.currentVersion })}</p>}
      {managed && <p className="callout callout-warning">{t('UpdateSection.managed')}</p>}
      <div className="field">
        <label className="field-label" htmlFor={ids.channel}>{t('UpdateSection.channel')}</label>
        <select id={ids.channel} className="input" value={channel} disabled={managed} onChange={(e) => void save({ updateChannel: e.target.value as UpdateChannel })}>
          {UPDATE_CHANNELS.map((c) => <option key={c} value={c}>{t(CHANNEL_KEYS[c])}</option>)}
        </select>
      </div>
      <label className="inline-check">
        <input type="checkbox" checked={stay} disabled={managed} onChange={(e) => void save({ updateStayOnThisVersion: e.target.checked })} /> {t('UpdateSection.stay')}
      </label>
      <p className="muted">{t('UpdateSection.stayHint')}</p>
      {status?.state !== 'unavailable' && (
        <button type="button" className="btn" disabled={!status || busy} onClick={() => void check().catch(() => undefined)}>
          {busy ? t('UpdateSection.checking') : t('UpdateSection.check')}
        </button>
      )}
      {/* The updater's own sentence (main's words, still English: docs/i18n.md). */}
      {status?.message && <p className="muted" role="status" data-from="main">{status.message}</p>}
      {status?.state === 'downloading' && status.percent !== null && <p className="muted">{t('UpdateSection.downloading', { percent: format.percent(status.percent / 100) })}</p>}
    </section>
  );
}
