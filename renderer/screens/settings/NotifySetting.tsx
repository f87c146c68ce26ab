import { useState } from 'react';
import type { SettingsPatchInput } from '../../../shared/settings/schema';
import { requestWebNotifications, webNotificationPermission } from '../../lib/web-notify';
import { catalogLabels, useT } from '../../i18n';
import { useApp } from '../../store/context';

const BROWSER_NOTES: Partial<Record<ReturnType<typeof webNotificationPermission>, string>> = catalogLabels('settings', {
  denied: 'notifyDenied',
  unsupported: 'notifyUnsupported',
});

/**
 * "Notify me when batches finish" (notifyWhenDone). In the browser host the page must also be allowed to notify:
 * the permission is asked from this click only (browsers refuse or block a request made without one).
 */
export function NotifySetting({ on, save }: { on: boolean; save: (patch: SettingsPatchInput) => Promise<unknown> }) {
  const t = useT('settings');
  const isBrowser = useApp((s) => s.appInfo?.host === 'browser');
  const [permission, setPermission] = useState(() => webNotificationPermission());
  const ask = async () => setPermission(await requestWebNotifications());
  const toggle = async (checked: boolean) => {
    if (checked && isBrowser) await ask();
    await save({ notifyWhenDone: checked });
  };
  const note = isBrowser && on ? BROWSER_NOTES[permission] : undefined;
  return (
    <div className="field">
      <label className="inline-check">
        <input type="checkbox" checked={on} onChange={(e) => void toggle(e.target.checked)} /> {t('notify')}
      </label>
      <p className="muted">{t('notifyHint')}</p>
      {isBrowser && on && permission === 'default' && (
        <button type="button" className="btn" onClick={() => void ask()}>{t('allowNotifications')}</button>
      )}
      {note && <p className="callout callout-warning">{note}</p>}
    </div>
  );
}
