import { useId, useState } from 'react';
import { creditKindOf } from '../../shared/service/credit-kind';
import { formatCredits, formatNumber } from '../lib/format';
import { useApp } from '../store/context';
import { selectLowBalance } from '../store/service-slice';
import { OutageBanner } from './OutageBanner';

function ModeBadge() {
  const status = useApp((s) => s.status);
  if (!status) return <span className="mode-badge mode-unknown">Connecting…</span>;
  // From the service and the key together: a test key (sk_test_…) spends test credits on any service.
  const sandbox = status.mode === 'sandbox';
  const test = creditKindOf(status) === 'test';
  const text = sandbox ? 'Sandbox · test credits' : test ? 'Test key · test credits' : 'Live · real credits';
  const label = sandbox ? 'Sandbox mode: test service, no real credits are spent'
    : test ? 'Test key: no real credits are spent' : 'Live service: real credits are spent';
  return (
    <span className={`mode-badge ${test ? 'mode-sandbox' : 'mode-live'}`} role="status" aria-label={label} title={status.message}>
      <span className="mode-dot" aria-hidden="true" />
      {text}
    </span>
  );
}

function BalanceIndicator() {
  const balance = useApp((s) => s.balance);
  const balanceError = useApp((s) => s.balanceError);
  const low = useApp(selectLowBalance);
  const refresh = useApp((s) => s.refreshBalance);
  const [open, setOpen] = useState(false);
  const tipId = useId();

  if (!balance) {
    return (
      <button type="button" className="balance balance-unknown" onClick={() => void refresh()} title={balanceError?.detail}>
        {balanceError ? 'Balance unavailable · retry' : 'Balance…'}
      </button>
    );
  }
  const [amount, unit] = formatCredits(balance.apiCredits).split(' ');
  return (
    <div className="balance-wrap" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        className={`balance${low ? ' balance-low' : ''}`}
        aria-describedby={tipId}
        aria-label={`Balance: ${formatCredits(balance.apiCredits)}${low ? ', running low' : ''}`}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => void refresh()}
      >
        {low && <span className="warn-icon" aria-hidden="true">⚠</span>}
        {/* One run of text with a real space, "1,000 credits", exactly as the name says it: speech-input users
            say what they see, and two flex items with a gap between them read as "1,000credits". */}
        <span>
          <span className="balance-amount">{amount}</span>{' '}
          <span className="balance-unit">{unit}</span>
        </span>
      </button>
      <div id={tipId} role="tooltip" className={`tooltip balance-tooltip${open ? ' is-open' : ''}`}>
        <p className="tooltip-title">API credits: {formatCredits(balance.apiCredits)}</p>
        {low && <p className="tooltip-warn">Running low: batches stop when credits run out.</p>}
        <p>Web credits: {formatCredits(balance.webCredits.total)}</p>
        <p className="muted">Batches here spend API credits; web credits are your balance on the provider's website, shown for reference.</p>
        {balance.webCredits.breakdown.length > 0 && (
          <ul className="tooltip-list">
            {balance.webCredits.breakdown.map((entry) => (
              <li key={entry.label}><span>{entry.label}</span><span>{formatNumber(entry.credits)}</span></li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

export function Header() {
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
        aria-label="Open settings"
        onClick={() => setView('settings')}
      >
        <span aria-hidden="true">⚙</span> Settings
      </button>
    </header>
  );
}
