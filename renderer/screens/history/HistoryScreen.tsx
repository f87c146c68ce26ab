import { useEffect, useId } from 'react';
import type { ReportGrouping } from '../../../shared/reports/job-report';
import { EmptyState } from '../../components/EmptyState';
import { ErrorMessage } from '../../components/ErrorMessage';
import { RadioGroup } from '../../components/RadioGroup';
import { ScreenTitle } from '../../components/ScreenTitle';
import { downloadText } from '../../lib/download';
import { dayOf } from '../../lib/report-period';
import { useActions, useApp } from '../../store/context';
import type { HistoryPeriod } from '../../store/history-state';
import { BalanceLine } from './BalanceLine';
import { HistoryTable } from './HistoryTable';
import { useT } from '../../i18n';

type PeriodKind = HistoryPeriod['kind'];

/** A custom period starts as this month so far: the dates are there to change, not to type from nothing. */
function customFrom(period: HistoryPeriod, now = new Date()): HistoryPeriod {
  return period.kind === 'custom' ? period : { kind: 'custom', from: dayOf(new Date(now.getFullYear(), now.getMonth(), 1)), to: dayOf(now) };
}

function CustomPeriod({ period }: { period: Extract<HistoryPeriod, { kind: 'custom' }> }) {
  const { setHistoryPeriod } = useActions();
  const t = useT('history');
  const id = useId();
  return (
    <div className="history-dates">
      <label htmlFor={`${id}-from`} className="field-label">{t('CustomPeriod.from')}</label>
      <input id={`${id}-from`} type="date" className="input" value={period.from} max={period.to || undefined} onChange={(e) => setHistoryPeriod({ ...period, from: e.target.value })} />
      <label htmlFor={`${id}-to`} className="field-label">{t('CustomPeriod.to')}</label>
      <input id={`${id}-to`} type="date" className="input" value={period.to} min={period.from || undefined} onChange={(e) => setHistoryPeriod({ ...period, to: e.target.value })} />
    </div>
  );
}

/** Photos, credits, failures and charged-no-result per job or client over a period, with the service balance beside. */
export function HistoryScreen() {
  const by = useApp((s) => s.historyBy);
  const period = useApp((s) => s.historyPeriod);
  const report = useApp((s) => s.historyReport);
  const loading = useApp((s) => s.historyLoading);
  const error = useApp((s) => s.historyError);
  const { setHistoryBy, setHistoryPeriod, loadHistory, historyCsv } = useActions();
  const t = useT('history');
  const common = useT('common');
  // Read each time the screen opens, and again when a batch ends while it is open: its photos and credits count now.
  const ended = useApp((s) => s.batchOrder.filter((id) => s.batches[id]?.state === 'completed' || s.batches[id]?.state === 'cancelled').length);
  useEffect(() => { void loadHistory(); }, [loadHistory, ended]);
  const shown = report && report.by === by ? report : null;
  const exportCsv = async () => {
    const csv = await historyCsv();
    if (csv) downloadText(csv.fileName, csv.csv);
  };

  return (
    <div className="history">
      <div className="screen-head">
        <div>
          <ScreenTitle>{common('view.history')}</ScreenTitle>
          <p className="muted">
            {t('HistoryScreen.intro')}{' '}
            {shown?.source === 'studio' ? t('HistoryScreen.studio') : t('HistoryScreen.local')}
          </p>
        </div>
        <button type="button" className="btn" disabled={!shown} onClick={() => void exportCsv()}>{t('HistoryScreen.exportCsv')}</button>
      </div>
      <div className="history-controls">
        <RadioGroup<ReportGrouping>
          label={t('HistoryScreen.groupBy')} className="segmented" value={by} onChange={setHistoryBy}
          options={[{ value: 'job', content: t('HistoryScreen.perJob') }, { value: 'client', content: t('HistoryScreen.perClient') }]}
        />
        <RadioGroup<PeriodKind>
          label={t('HistoryScreen.period')} className="segmented" value={period.kind}
          onChange={(kind) => setHistoryPeriod(kind === 'custom' ? customFrom(period) : { kind })}
          options={[{ value: 'this-month', content: t('HistoryScreen.thisMonth') }, { value: 'last-month', content: t('HistoryScreen.lastMonth') }, { value: 'custom', content: t('HistoryScreen.custom') }]}
        />
        {period.kind === 'custom' && <CustomPeriod period={period} />}
        {loading && <span className="muted" role="status">{t('HistoryScreen.loading')}</span>}
      </div>
      {error && <ErrorMessage error={error} onRetry={() => void loadHistory()} />}
      {shown && shown.groups.length === 0 && (
        <EmptyState title={t('HistoryScreen.emptyTitle')} icon="◷">{t('HistoryScreen.emptyBody')}</EmptyState>
      )}
      {shown && shown.groups.length > 0 && (
        <section className="panel" aria-label={t('HistoryScreen.report')}>
          <HistoryTable report={shown} />
          <BalanceLine balance={shown.balance} />
        </section>
      )}
    </div>
  );
}
