import { useActions, useApp } from '../../store/context';

/**
 * Settings › Shared studio ledger: allow a ledger on another machine without TLS. Off by default (main refuses such
 * a ledger, ledger-tls.ts); switching it on asks first, since the password would then cross the network readable.
 */
export function StudioPlaintextToggle() {
  const allowed = useApp((s) => s.settings?.studioLedgerAllowPlaintext ?? false);
  const { updateSettings } = useActions();
  const change = (next: boolean) => {
    if (next && !window.confirm('Without TLS, the ledger password and every claim cross the network unencrypted, readable by anyone on the way. Allow it anyway?')) return;
    void updateSettings({ studioLedgerAllowPlaintext: next });
  };
  return (
    <>
      <label className="inline-check">
        <input type="checkbox" checked={allowed} onChange={(e) => change(e.target.checked)} /> Allow a ledger on another machine without TLS (no <code>?sslmode=require</code>)
      </label>
      {allowed && <p className="callout callout-warning" role="status">Unencrypted: the ledger password and claims are sent in clear text to any ledger not on this machine.</p>}
    </>
  );
}
