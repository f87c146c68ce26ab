import { describe, expect, it } from 'vitest';
import { parseReportInstant, parseReportPeriod } from '../../../shared/reports/period';

// `--from` / `--to` as a person types them: local time, a bare `--to` date includes its whole day.

describe('report period', () => {
  it('a date is local midnight; as --to, the next local midnight (the whole day included)', () => {
    expect(parseReportPeriod('2026-11-01', '2026-11-30')).toEqual({
      from: new Date(2026, 10, 1).toISOString(),
      to: new Date(2026, 11, 1).toISOString(),
    });
  });

  it('a date-time is local unless it says Z or an offset', () => {
    expect(parseReportInstant('2026-11-27T14:30', false)).toEqual({ at: new Date(2026, 10, 27, 14, 30).toISOString() });
    expect(parseReportInstant('2026-11-27 14:30:05', true)).toEqual({ at: new Date(2026, 10, 27, 14, 30, 5).toISOString() });
    expect(parseReportInstant('2026-11-27T14:30:00Z', false)).toEqual({ at: '2026-11-27T14:30:00.000Z' });
    expect(parseReportInstant('2026-11-27T14:30:00+02:00', false)).toEqual({ at: '2026-11-27T12:30:00.000Z' });
  });

  it('either end may be open', () => {
    expect(parseReportPeriod(undefined, undefined)).toEqual({ from: null, to: null });
    expect(parseReportPeriod('2026-01-01', undefined)).toEqual({ from: new Date(2026, 0, 1).toISOString(), to: null });
  });

  it('refuses what is no date, a day the calendar lacks, and an end not after the start', () => {
    expect(parseReportPeriod('last week', undefined)).toEqual({ problem: expect.stringMatching(/^--from: last week is not a date/) });
    expect(parseReportPeriod(undefined, '2026-02-30')).toEqual({ problem: '--to: 2026-02-30 is not a day of the calendar' });
    expect(parseReportPeriod('2026-11-02', '2026-11-01')).toEqual({ problem: '--to (2026-11-01) must be after --from (2026-11-02)' });
  });
});
