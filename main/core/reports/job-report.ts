import { CREDIT_TOLERANCE } from '../../../shared/engine/money';
import {
  groupLabel, type BalanceComparison, type JobReport, type JobReportFigures, type JobReportGroup, type ReportGrouping,
} from '../../../shared/reports/job-report';
import type { BatchPeriodFacts, ReportRange, ReportReads } from '../journal/report-reads';
import type { BalanceReadingRecord } from './balance-readings';

// The job/client report (issue 32 #4) as pure functions over what the journal (or the studio ledger) says of a
// period: `batchroom report --by`, the app's History screen and the studio report all come through here.

export interface JobReportRequest {
  by: ReportGrouping;
  /** Instants (ISO); null: open. The period is [from, to). */
  from: string | null;
  to: string | null;
}

const zero = (): JobReportFigures => ({ batches: 0, saved: 0, failed: 0, credits: 0, chargedNoResult: { count: 0, credits: 0 } });

// Credits are sums of decimal prices in binary floating point: rounded to a millionth so 0.1 × 3 reads 0.3.
const round = (credits: number): number => Math.round(credits * 1e6) / 1e6;

function add(into: JobReportFigures, facts: BatchPeriodFacts): void {
  into.batches += facts.batches ?? 1;
  into.saved += facts.saved;
  into.failed += facts.failed;
  into.credits = round(into.credits + facts.credits);
  into.chargedNoResult.count += facts.chargedNoResult;
  into.chargedNoResult.credits = round(into.chargedNoResult.credits + facts.chargedNoResultCredits);
}

/** Groups per-batch facts by job or client: most credits first, then by name; batches naming none last. */
export function groupFacts(by: ReportGrouping, facts: readonly BatchPeriodFacts[]): { groups: JobReportGroup[]; totals: JobReportFigures } {
  const groups = new Map<string | null, JobReportFigures>();
  const totals = zero();
  for (const batch of facts) {
    const key = by === 'job' ? batch.job : batch.client;
    let figures = groups.get(key);
    if (!figures) groups.set(key, (figures = zero()));
    add(figures, batch);
    add(totals, batch);
  }
  const list = [...groups].map(([key, figures]) => ({ key, label: groupLabel(by, key), ...figures }));
  list.sort((a, b) => (a.key === null ? 1 : 0) - (b.key === null ? 1 : 0) || b.credits - a.credits || a.label.localeCompare(b.label));
  return { groups: list, totals };
}

export const BALANCE_NOTES = [
  'Another client or machine using the same key spends from the same balance (in studio mode: the other instances, which the studio report includes).',
  'Buying credits, or the provider adding or refunding some, raises the balance without a batch.',
  'A charge is counted when the service accepted the execution; a balance read a moment before or after it may not show it yet.',
];

/**
 * The two balance readings to compare over `range`: of one account (`account`, else the one read last), the last at
 * or before `from` (else the first after it) and the last within the period. Null when there are not two.
 */
export function pickReadings(readings: readonly BalanceReadingRecord[], range: ReportRange, account: string | null):
  { account: string; first: BalanceReadingRecord; last: BalanceReadingRecord } | null {
  const sorted = [...readings].sort((a, b) => a.at.localeCompare(b.at));
  const which = account ?? sorted.at(-1)?.account;
  const mine = sorted.filter((r) => r.account === which);
  const before = range.from === null ? [] : mine.filter((r) => r.at <= range.from!);
  const inside = mine.filter((r) => (range.from === null || r.at > range.from) && (range.to === null || r.at <= range.to));
  const first = before.at(-1) ?? inside[0];
  const last = inside.at(-1);
  if (!which || !first || !last || last.at <= first.at) return null;
  return { account: which, first, last };
}

/** The part of the period the two readings bracket: its charges are the ones the balance change can be held against. */
export function bracketed(range: ReportRange, first: BalanceReadingRecord, last: BalanceReadingRecord): ReportRange {
  return { from: range.from !== null && range.from > first.at ? range.from : first.at, to: range.to !== null && range.to < last.at ? range.to : last.at };
}

/**
 * The balance change between two readings beside Batchroom's charges between them (`batchroomCredits`);
 * `bracketedCredits`: the period's charges that fall between the readings — all of them (`periodCredits`) or not.
 */
export function balanceComparison(picked: { account: string; first: BalanceReadingRecord; last: BalanceReadingRecord },
  batchroomCredits: number, bracketedCredits: number, periodCredits: number): BalanceComparison {
  const { account, first, last } = picked;
  const change = round(last.credits - first.credits);
  const ours = round(batchroomCredits);
  return {
    account,
    first: { at: first.at, credits: first.credits },
    last: { at: last.at, credits: last.credits },
    change,
    batchroomCredits: ours,
    unexplained: round(-change - ours),
    coversPeriod: Math.abs(bracketedCredits - periodCredits) <= CREDIT_TOLERANCE,
    notes: BALANCE_NOTES,
  };
}

/** The service balance over the period beside Batchroom's charges between the same two readings (sync sources). */
export function compareBalance(readings: readonly BalanceReadingRecord[], range: ReportRange, account: string | null,
  creditsBetween: (range: ReportRange) => number, periodCredits: number): BalanceComparison | null {
  const picked = pickReadings(readings, range, account);
  if (!picked) return null;
  return balanceComparison(picked, creditsBetween({ from: picked.first.at, to: picked.last.at }),
    creditsBetween(bracketed(range, picked.first, picked.last)), periodCredits);
}

export interface JobReportOptions {
  /** Balance readings (balance-readings.ts); none: no balance comparison. */
  readings?: readonly BalanceReadingRecord[];
  /** The service account whose balance to compare (the current one); null: the one read last. */
  account?: string | null;
  source?: JobReport['source'];
}

/** The report of `request` over `journal` (or any ReportReads: the studio ledger provides one too). */
export function buildJobReport(journal: ReportReads, request: JobReportRequest, options: JobReportOptions = {}): JobReport {
  const range = { from: request.from, to: request.to };
  const { groups, totals } = groupFacts(request.by, journal.batchFacts(range));
  const balance = options.readings && options.readings.length > 1
    ? compareBalance(options.readings, range, options.account ?? null, (r) => journal.creditsCharged(r), totals.credits)
    : null;
  return { by: request.by, from: request.from, to: request.to, source: options.source ?? 'journal', groups, totals, balance };
}
