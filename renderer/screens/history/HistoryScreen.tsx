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

type PeriodKind = HistoryPeriod['kind'];

/** A custom period starts as this month so far: the dates are there to change, not to type from nothing. */
function customFrom(period: HistoryPeriod, now = new Date()): HistoryPeriod {
  return period.kind === 'custom' ? period : { kind: 'custom', from: dayOf(new Date(now.getFullYear(), now.getMonth(), 1)), to: dayOf(now) };
}

function CustomPeriod({ period }: { period: Extract<HistoryPeriod, { kind: 'custom' }> }) {
  const { setHistoryPeriod } = useActions();
  const id = useId();
  return (
    <div className="history-dates">
      <label htmlFor={`${id}-from`} className="field-label">From</label>
      <input id={`${id}-from`} type="date" className="input" value={period.from} max={period.to || undefined} onChange={(e) => setHistoryPeriod({ ...period, from: e.target.value })} />
      <label htmlFor={`${id}-to`} className="field-label">To</label>
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
          <ScreenTitle>History</ScreenTitle>
          <p className="muted">
            Photos and credits per job or client.{' '}
            {shown?.source === 'studio' ? 'Every machine of the studio, through the shared ledger.' : 'Batches run on this computer.'}
          </p>
        </div>
        <button type="button" className="btn" disabled={!shown} onClick={() => void exportCsv()}>Export CSV</button>
      </div>
      <div className="history-controls">
        <RadioGroup<ReportGrouping>
          label="Group by" className="segmented" value={by} onChange={setHistoryBy}
          options={[{ value: 'job', content: 'Per job' }, { value: 'client', content: 'Per client' }]}
        />
        <RadioGroup<PeriodKind>
          label="Period" className="segmented" value={period.kind}
          onChange={(kind) => setHistoryPeriod(kind === 'custom' ? customFrom(period) : { kind })}
          options={[{ value: 'this-month', content: 'This month' }, { value: 'last-month', content: 'Last month' }, { value: 'custom', content: 'From – to' }]}
        />
        {period.kind === 'custom' && <CustomPeriod period={period} />}
        {loading && <span className="muted" role="status">Loading…</span>}
      </div>
      {error && <ErrorMessage error={error} onRetry={() => void loadHistory()} />}
      {shown && shown.groups.length === 0 && (
        <EmptyState title="Nothing in this period" icon="◷">No batch saved a photo or was charged credits in this period.</EmptyState>
      )}
      {shown && shown.groups.length > 0 && (
        <section className="panel" aria-label="Report">
          <HistoryTable report={shown} />
          <BalanceLine balance={shown.balance} />
        </section>
      )}
    </div>
  );
}
