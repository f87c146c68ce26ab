import { useRichT, useT } from '../../i18n';
import { useActions, useApp } from '../../store/context';

/**
 * Settings › Shared studio ledger: allow a ledger on another machine without TLS. Off by default (main refuses such
 * a ledger, ledger-tls.ts); switching it on asks first, since the password would then cross the network readable.
 */
export function StudioPlaintextToggle() {
  const t = useT('settings');
  const rt = useRichT('settings');
  const allowed = useApp((s) => s.settings?.studioLedgerAllowPlaintext ?? false);
  const { updateSettings } = useActions();
  const change = (next: boolean) => {
    if (next && !window.confirm(t('studio.plaintextConfirm'))) return;
    void updateSettings({ studioLedgerAllowPlaintext: next });
  };
  return (
    <>
      <label className="inline-check">
        <input type="checkbox" checked={allowed} onChange={(e) => change(e.target.checked)} /> {rt('studio.allowPlaintext')}
      </label>
      {allowed && <p className="callout callout-warning" role="status">{t('studio.plaintextOn')}</p>}
    </>
  );
}
