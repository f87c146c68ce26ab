// The period of a report as a person types it (`--from 2026-11-01 --to 2026-11-30`, or a date-time) turned into the
// instants the journal compares: local time unless the text carries an offset or Z, and a bare `--to` date means the
// whole of that day (the period ends at the next local midnight). The period is [from, to).

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Why `text` is no report date, or the instant it names; `end`: a bare date names the end of that day. */
export function parseReportInstant(text: string, end: boolean): { at: string } | { problem: string } {
  const value = text.trim();
  const date = DATE.exec(value);
  const local = date ? null : LOCAL_DATE_TIME.exec(value);
  let at: Date;
  if (date || local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = (date ?? local)!;
    at = new Date(Number(y), Number(mo) - 1, Number(d) + (date && end ? 1 : 0), Number(h), Number(mi), Number(s), Number(ms.padEnd(3, '0')));
    // new Date rolls 2026-02-31 over to March: refuse a day the calendar does not have.
    const check = new Date(Number(y), Number(mo) - 1, Number(d));
    if (check.getMonth() !== Number(mo) - 1 || check.getDate() !== Number(d)) return { problem: `${value} is not a day of the calendar` };
  } else if (WITH_OFFSET.test(value)) {
    at = new Date(value);
  } else {
    return { problem: `${value} is not a date (YYYY-MM-DD) or a date-time (YYYY-MM-DDTHH:MM, local time unless it ends in Z or an offset)` };
  }
  if (Number.isNaN(at.getTime())) return { problem: `${value} is not a date or a date-time` };
  return { at: at.toISOString() };
}

/** The period from the texts of --from and --to (either may be absent); a problem when one is no date or to ≤ from. */
export function parseReportPeriod(from: string | undefined, to: string | undefined):
  { from: string | null; to: string | null } | { problem: string } {
  const start = from === undefined ? null : parseReportInstant(from, false);
  if (start && 'problem' in start) return { problem: `--from: ${start.problem}` };
  const end = to === undefined ? null : parseReportInstant(to, true);
  if (end && 'problem' in end) return { problem: `--to: ${end.problem}` };
  if (start && end && end.at <= start.at) return { problem: `--to (${to}) must be after --from (${from})` };
  return { from: start?.at ?? null, to: end?.at ?? null };
}
