import type { BalanceComparison } from '../../../shared/reports/job-report';
import { useFormat, useT } from '../../i18n';

/**
 * The service balance over the period beside what Batchroom's batches were charged: the totals add up to the balance
 * change, or this says by how much they do not (another app on the same key, a top-up) and why, in the core's words.
 */
export function BalanceLine({ balance }: { balance: BalanceComparison | null }) {
  const t = useT('history');
  const format = useFormat();
  if (!balance) {
    return (
      <p className="muted history-balance" data-testid="history-balance">
        {t('BalanceLine.none')}
      </p>
    );
  }
  const { first, last, change, batchroomCredits, unexplained } = balance;
  return (
    <div className="history-balance" data-testid="history-balance">
      <p>
        <span className="muted">{t('BalanceLine.serviceBalance')}</span>{' '}
        {t('BalanceLine.from', { first: format.credits(first.credits), firstDay: format.date(first.at), last: format.credits(last.credits), lastDay: format.date(last.at) })}
        {' '}({change > 0 ? '+' : ''}{format.credits(change)}) · <span className="muted">{t('BalanceLine.charged')}</span> {format.credits(batchroomCredits)}
        {' · '}
        {Math.abs(unexplained) < 1e-6
          ? t('BalanceLine.addUp')
          : <>{format.credits(unexplained)} <span className="muted">{t('BalanceLine.notFromThese')}</span></>}
      </p>
      {!balance.coversPeriod && (
        <p className="muted">{t('BalanceLine.partial')}</p>
      )}
      {balance.notes.length > 0 && <ul className="history-notes">{balance.notes.map((n) => <li key={n}>{n}</li>)}</ul>}
    </div>
  );
}
