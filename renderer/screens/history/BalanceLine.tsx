import type { BalanceComparison } from '../../../shared/reports/job-report';
import { formatCredits } from '../../lib/format';

const day = (iso: string) => new Date(iso).toLocaleDateString();

/**
 * The service balance over the period beside what Batchroom's batches were charged: the totals add up to the balance
 * change, or this says by how much they do not (another app on the same key, a top-up) and why, in the core's words.
 */
export function BalanceLine({ balance }: { balance: BalanceComparison | null }) {
  if (!balance) {
    return (
      <p className="muted history-balance" data-testid="history-balance">
        No balance comparison: the service balance was not read at least twice in this period.
      </p>
    );
  }
  const { first, last, change, batchroomCredits, unexplained } = balance;
  return (
    <div className="history-balance" data-testid="history-balance">
      <p>
        <span className="muted">Service balance</span> {formatCredits(first.credits)} on {day(first.at)} → {formatCredits(last.credits)} on {day(last.at)}
        {' '}({change > 0 ? '+' : ''}{formatCredits(change)}) · <span className="muted">charged to these batches</span> {formatCredits(batchroomCredits)}
        {' · '}
        {Math.abs(unexplained) < 1e-6
          ? 'they add up.'
          : <>{formatCredits(unexplained)} <span className="muted">not from these batches.</span></>}
      </p>
      {!balance.coversPeriod && (
        <p className="muted">The balance readings cover only part of the period: charges before the first or after the last are not compared.</p>
      )}
      {balance.notes.length > 0 && <ul className="history-notes">{balance.notes.map((n) => <li key={n}>{n}</li>)}</ul>}
    </div>
  );
}
