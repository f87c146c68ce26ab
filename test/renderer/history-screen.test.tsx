import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobReportQuery } from '../../shared/reports/job-report';
import { FakeFailure } from './helpers/fake-bridge';
import { batch, counts, standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';
import { jobReport } from './helpers/reports';

// The History screen (issue 32 #4): the core's job/client report as a table with its totals and the balance line,
// per job or per client, for this month, last month or a chosen period, and its CSV as a download.

afterEach(cleanup);

async function openHistory(fake = standardBridge({ 'reports:byGroup': (q) => jobReport(q.by) })) {
  const user = userEvent.setup({ delay: null });
  const app = renderApp(fake);
  await user.click(await screen.findByRole('button', { name: 'History' }));
  await screen.findByRole('heading', { level: 1, name: 'History' });
  return { user, fake, ...app };
}

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));

describe('History screen', () => {
  it('shows photos, failures, charged-no-result and credits per job with the totals and the balance line', async () => {
    await openHistory();
    const table = await screen.findByRole('table', { name: 'Credits per job' });
    expect(rowsOf(table)).toEqual([
      ['Job', 'Batches', 'Photos saved', 'Failed', 'Charged, no result', 'Credits'],
      ['Smith wedding', '2', '40', '1', '1 (2 credits)', '84 credits'],
      ['(no job)', '1', '3', '—', '—', '3 credits'],
      ['Total', '3', '43', '1', '1 (2 credits)', '87 credits'],
    ]);
    const line = screen.getByTestId('history-balance');
    expect(line).toHaveTextContent(/Service balance 1,000 credits on .+ → 910 credits on .+ \(-90 credits\) · charged to these batches 87 credits · 3 credits not from these batches\./);
    expect(line).toHaveTextContent('Another client on the same key spends from the same balance.');
    expect(screen.getByText('Batches run on this computer.', { exact: false })).toBeInTheDocument();
  });

  it('groups per client when asked, and asks the core for the period chosen', async () => {
    const { user, fake } = await openHistory();
    await screen.findByRole('table', { name: 'Credits per job' });
    await user.click(screen.getByRole('radio', { name: 'Per client' }));
    const table = await screen.findByRole('table', { name: 'Credits per client' });
    expect(within(table).getByRole('rowheader', { name: 'Smith family' })).toBeInTheDocument();

    const asked = () => fake.callsTo('reports:byGroup') as JobReportQuery[];
    const [thisMonth] = asked();
    // This month on the user's own calendar: from its first local midnight to the next month's.
    const from = new Date(thisMonth!.from!);
    const to = new Date(thisMonth!.to!);
    expect([from.getDate(), from.getHours(), from.getMinutes(), to.getDate(), to.getHours()]).toEqual([1, 0, 0, 1, 0]);
    expect((to.getMonth() - from.getMonth() + 12) % 12).toBe(1);
    expect(asked().at(-1)).toEqual({ by: 'client', from: thisMonth!.from, to: thisMonth!.to });

    await user.click(screen.getByRole('radio', { name: 'Last month' }));
    await waitFor(() => expect(asked().at(-1)).toMatchObject({ by: 'client', to: thisMonth!.from }));
    expect(new Date(asked().at(-1)!.from!).getDate()).toBe(1);

    await user.click(screen.getByRole('radio', { name: 'From – to' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-02' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-04' } });
    await waitFor(() => expect(asked().at(-1)).toEqual({
      by: 'client', from: new Date(2026, 2, 2).toISOString(), to: new Date(2026, 2, 5).toISOString(),
    }));
    // Days the wrong way round are said, not sent.
    const sent = asked().length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-09' } });
    expect(await screen.findByText('The period starts after it ends: swap the two days.')).toBeInTheDocument();
    expect(asked()).toHaveLength(sent);
  });

  it('reads the report again when a batch ends while the screen is open', async () => {
    const running = batch({ state: 'running', counts: counts({ running: 3 }) });
    const fake = standardBridge({ 'reports:byGroup': (q) => jobReport(q.by), 'batches:list': () => [running] });
    await openHistory(fake);
    await screen.findByRole('table', { name: 'Credits per job' });
    expect(fake.callsTo('reports:byGroup')).toHaveLength(1);
    act(() => fake.emit('batches:progress', { batches: [{ ...running, state: 'running', progress: 0.5 }], items: [] }));
    act(() => fake.emit('batches:progress', { batches: [{ ...running, state: 'completed', counts: counts({ saved: 3 }), progress: 1 }], items: [] }));
    await waitFor(() => expect(fake.callsTo('reports:byGroup')).toHaveLength(2));
  });

  it('downloads the core CSV of the report shown', async () => {
    const csv = 'job,batches,saved\r\nSmith wedding,2,40\r\n';
    const fake = standardBridge({
      'reports:byGroup': (q) => jobReport(q.by),
      'reports:csv': () => ({ csv, fileName: 'batchroom-report-by-job-2026-11.csv' }),
    });
    const blobs: Blob[] = [];
    const clicked: string[] = [];
    const createObjectURL = URL.createObjectURL;
    const click = HTMLAnchorElement.prototype.click;
    URL.createObjectURL = (blob: Blob) => { blobs.push(blob); return 'blob:report'; };
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) { clicked.push(this.download); };
    try {
      const { user } = await openHistory(fake);
      await screen.findByRole('table', { name: 'Credits per job' });
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(clicked).toEqual(['batchroom-report-by-job-2026-11.csv']));
      expect(await blobs[0]!.text()).toBe(csv);
      expect(fake.callsTo('reports:csv')).toEqual([fake.callsTo('reports:byGroup').at(-1)]);
    } finally {
      URL.createObjectURL = createObjectURL;
      HTMLAnchorElement.prototype.click = click;
    }
  });

  it('says when nothing happened in the period, when the balance cannot be compared, and when the report failed', async () => {
    let answer: 'empty' | 'no-balance' | 'fail' = 'empty';
    const fake = standardBridge({
      'reports:byGroup': (q) => {
        if (answer === 'fail') throw new FakeFailure('unavailable', 'The journal is being upgraded by another Batchroom.');
        const report = jobReport(q.by);
        return answer === 'empty' ? { ...report, groups: [], balance: null } : { ...report, balance: null };
      },
    });
    const { user, store } = await openHistory(fake);
    expect(await screen.findByRole('region', { name: 'Nothing in this period' })).toBeInTheDocument();
    answer = 'no-balance';
    await user.click(screen.getByRole('radio', { name: 'Last month' }));
    expect(await screen.findByTestId('history-balance')).toHaveTextContent('No balance comparison: the service balance was not read at least twice in this period.');
    answer = 'fail';
    await act(() => store.getState().loadHistory());
    expect(screen.getByRole('alert')).toHaveTextContent('The journal is being upgraded by another Batchroom.');
  });
});
