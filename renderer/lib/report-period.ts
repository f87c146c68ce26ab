import { tr } from '../i18n/active';
import type { HistoryPeriod } from '../store/history-state';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a YYYY-MM-DD day, or null when it is not a real day (2026-02-30). */
function localDay(text: string): Date | null {
  const m = DAY.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = new Date(y, mo, d);
  return date.getFullYear() === y && date.getMonth() === mo && date.getDate() === d ? date : null;
}

/** YYYY-MM-DD of a local date (what a date input shows). */
export function dayOf(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/**
 * The instants a period covers, in the photographer's own time zone (a month is the month on their calendar, not
 * UTC's): from the first moment of its first day to the first moment after its last day. An answer with `problem`
 * says why a custom period cannot be reported (a missing or impossible day, or the days the wrong way round).
 */
export function periodRange(period: HistoryPeriod, now: Date): { from: string; to: string } | { problem: string } {
  if (period.kind !== 'custom') {
    const month = now.getMonth() - (period.kind === 'last-month' ? 1 : 0);
    return { from: new Date(now.getFullYear(), month, 1).toISOString(), to: new Date(now.getFullYear(), month + 1, 1).toISOString() };
  }
  const from = localDay(period.from);
  const to = localDay(period.to);
  if (!from || !to) return { problem: tr('lib', 'period.chooseBoth') };
  if (from > to) return { problem: tr('lib', 'period.swapped') };
  return { from: from.toISOString(), to: new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1).toISOString() };
}
