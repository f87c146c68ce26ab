import { useId, useState } from 'react';
import { creditKindOf } from '../../shared/service/credit-kind';
import { useFormat, useT } from '../i18n';
import { useApp } from '../store/context';
import { selectLowBalance } from '../store/service-slice';
import { OutageBanner } from './OutageBanner';

function ModeBadge() {
  const t = useT('components');
  const status = useApp((s) => s.status);
  if (!status) return <span className="mode-badge mode-unknown">{t('Header.connecting')}</span>;
  // From the service and the key together: a test key (sk_test_…) spends test credits on any service.
  const sandbox = status.mode === 'sandbox';
  const test = creditKindOf(status) === 'test';
  const text = t(sandbox ? 'Header.modeSandbox' : test ? 'Header.modeTestKey' : 'Header.modeLive');
  const label = t(sandbox ? 'Header.modeSandboxLabel' : test ? 'Header.modeTestKeyLabel' : 'Header.modeLiveLabel');
  return (
    <span className={`mode-badge ${test ? 'mode-sandbox' : 'mode-live'}`} role="status" aria-label={label} title={status.message}>
      <span className="mode-dot" aria-hidden="true" />
      {text}
    </span>
  );
}

function BalanceIndicator() {
  const t = useT('components');
  const format = useFormat();
  const balance = useApp((s) => s.balance);
  const balanceError = useApp((s) => s.balanceError);
  const low = useApp(selectLowBalance);
  const refresh = useApp((s) => s.refreshBalance);
  const [open, setOpen] = useState(false);
  const tipId = useId();

  if (!balance) {
    return (
      <button type="button" className="balance balance-unknown" onClick={() => void refresh()} title={balanceError?.detail}>
        {balanceError ? t('Header.balanceUnavailable') : t('Header.balanceLoading')}
      </button>
    );
  }
  const credits = format.credits(balance.apiCredits);
  // The amount in bold, the unit beside it: split at the number as the language writes it ("1.234 Credits", "1,234 クレジット").
  const amount = format.number(balance.apiCredits, 2);
  const at = credits.indexOf(amount);
  const unit = at >= 0 ? (credits.slice(0, at) + credits.slice(at + amount.length)).trim() : '';
  const amountFirst = at <= 0;
  return (
    <div className="balance-wrap" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        className={`balance${low ? ' balance-low' : ''}`}
        aria-describedby={tipId}
        aria-label={t(low ? 'Header.balanceLabelLow' : 'Header.balanceLabel', { credits })}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => void refresh()}
      >
        {low && <span className="warn-icon" aria-hidden="true">⚠</span>}
        {/* One run of text with a real space, "1,000 credits", exactly as the name says it: speech-input users
            say what they see, and two flex items with a gap between them read as "1,000credits". */}
        <span>
          {amountFirst
            ? <><span className="balance-amount">{amount}</span>{' '}<span className="balance-unit">{unit}</span></>
            : <><span className="balance-unit">{unit}</span>{' '}<span className="balance-amount">{amount}</span></>}
        </span>
      </button>
      <div id={tipId} role="tooltip" className={`tooltip balance-tooltip${open ? ' is-open' : ''}`}>
        <p className="tooltip-title">{t('Header.apiCredits', { credits })}</p>
        {low && <p className="tooltip-warn">{t('Header.runningLow')}</p>}
        <p>{t('Header.webCredits', { credits: format.credits(balance.webCredits.total) })}</p>
        <p className="muted">{t('Header.creditsExplained')}</p>
        {balance.webCredits.breakdown.length > 0 && (
          <ul className="tooltip-list">
            {balance.webCredits.breakdown.map((entry) => (
              <li key={entry.label}><span>{entry.label}</span><span>{format.number(entry.credits)}</span></li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

export function Header() {
  const t = useT('components');
  const tc = useT('common');
  const setView = useApp((s) => s.setView);
  const view = useApp((s) => s.view);
  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Batchroom</span>
      </div>
      <ModeBadge />
      <OutageBanner variant="header" />
      <div className="header-spacer" />
      <BalanceIndicator />
      <button
        type="button"
        className={`btn btn-ghost${view === 'settings' ? ' is-active' : ''}`}
        aria-label={t('Header.openSettings')}
        onClick={() => setView('settings')}
      >
        <span aria-hidden="true">⚙</span> {tc('view.settings')}
      </button>
    </header>
  );
}
