import { describe, expect, it } from 'vitest';
import { dayOf, periodRange } from '../../renderer/lib/report-period';

// The History screen's periods as the instants the core reports over: months and days on the user's own calendar.

const local = (y: number, m: number, d: number) => new Date(y, m, d).toISOString();

describe('periodRange', () => {
  const midJanuary = new Date(2026, 0, 15, 13, 45);

  it('covers this month and last month from local midnight to local midnight, across the turn of the year', () => {
    expect(periodRange({ kind: 'this-month' }, midJanuary)).toEqual({ from: local(2026, 0, 1), to: local(2026, 1, 1) });
    expect(periodRange({ kind: 'last-month' }, midJanuary)).toEqual({ from: local(2025, 11, 1), to: local(2026, 0, 1) });
  });

  it('takes a custom period with both days in, and says why one cannot be reported', () => {
    expect(periodRange({ kind: 'custom', from: '2026-02-27', to: '2026-02-28' }, midJanuary)).toEqual({ from: local(2026, 1, 27), to: local(2026, 2, 1) });
    expect(periodRange({ kind: 'custom', from: '2026-02-28', to: '2026-02-28' }, midJanuary)).toEqual({ from: local(2026, 1, 28), to: local(2026, 2, 1) });
    expect(periodRange({ kind: 'custom', from: '2026-02-30', to: '2026-03-01' }, midJanuary)).toEqual({ problem: 'Choose both days of the period.' });
    expect(periodRange({ kind: 'custom', from: '', to: '2026-03-01' }, midJanuary)).toEqual({ problem: 'Choose both days of the period.' });
    expect(periodRange({ kind: 'custom', from: '2026-03-02', to: '2026-03-01' }, midJanuary)).toEqual({ problem: 'The period starts after it ends: swap the two days.' });
  });

  it('writes a local day as a date input shows it', () => {
    expect(dayOf(new Date(2026, 8, 5, 23, 59))).toBe('2026-09-05');
  });
});
