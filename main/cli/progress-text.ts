import { basename } from 'node:path';
import type { BatchSummary } from '../../shared/engine/model';
import { statesOf } from '../../shared/engine/item-states';
import type { CreditKind } from '../../shared/service/credit-kind';
import { credits, duration, elide } from './format';

// The words of every progress line, fitted to the terminal's width (or 80 columns without one): cli-progress cuts a
// longer bar line at the edge (its ETA and credits were the part cut), and a log line longer than a CI viewer wraps.

const TERMINAL = statesOf('terminal');
const IN_FLIGHT = statesOf('inFlight');
const MIN_BAR = 10;
const MAX_BAR = 40;

export interface BatchTotals {
  total: number;
  finished: number;
  inFlight: number;
  /** 0–1 over all items, weighted by each batch's size. */
  progress: number;
  spent: number;
  paused: BatchSummary | undefined;
}

export function totalsOf(batches: readonly BatchSummary[]): BatchTotals {
  const total = batches.reduce((s, b) => s + b.total, 0);
  const sum = (states: readonly string[]) => batches.reduce((s, b) => s + states.reduce((n, st) => n + (b.counts[st as keyof typeof b.counts] ?? 0), 0), 0);
  return {
    total,
    finished: sum(TERMINAL),
    inFlight: sum(IN_FLIGHT),
    progress: total === 0 ? 1 : batches.reduce((s, b) => s + b.progress * b.total, 0) / total,
    spent: Math.round(batches.reduce((s, b) => s + b.creditsSpent, 0) * 1e6) / 1e6,
    paused: batches.find((b) => b.state === 'paused'),
  };
}

/** "3/8 done · ETA 12s · 3 free test credits" — the ETA left out until there is one. */
export function statusText(totals: BatchTotals, etaMs: number | null, kind: CreditKind): string {
  const parts = [`${totals.finished}/${totals.total} done`];
  if (totals.paused) parts.push('paused');
  else if (etaMs !== null && totals.finished < totals.total) parts.push(`ETA ${duration(etaMs)}`);
  parts.push(credits(totals.spent, kind));
  return parts.join(' · ');
}

/** The plain (no terminal) progress line, printed on a timer: "progress  3/8 done, 5 in flight · ETA 12s · …". */
export function progressLine(totals: BatchTotals, etaMs: number | null, kind: CreditKind): string {
  const head = `${totals.finished}/${totals.total} done${totals.inFlight > 0 ? `, ${totals.inFlight} in flight` : ''}`;
  const rest = statusText(totals, etaMs, kind).split(' · ').slice(1);
  return ['progress  ' + head, ...rest].join(' · ');
}

/** A bar's name column: a file's name, elided in the middle to fit. */
export function barLabel(name: string, width: number): string {
  return elide(basename(name), width).padEnd(width);
}

/** How wide the name column of the bars is at this terminal width (24 on a wide one, 15 at 80 columns). */
export function labelWidth(width: number): number {
  return Math.min(24, Math.max(8, Math.floor((width - 1) / 5)));
}

/**
 * One bar line of at most `width - 1` columns (the last column is left free: writing into it makes some terminals
 * wrap): the label, a bar as wide as the room left (10–40), the percentage and the status; with no room for a bar,
 * the status is shortened in the middle. `statusRoom` keeps the bar's length steady while the status grows ("ETA 4s"
 * appearing must not shrink the bar under the reader's eyes).
 */
export function barLine(label: string, progress: number, status: string, width: number, statusRoom = status.length): string {
  const max = Math.max(20, width - 1);
  const share = Math.min(1, Math.max(0, progress));
  const pct = `${Math.round(share * 100)}%`.padStart(4);
  const fixed = label.length + pct.length + 3;
  const fits = max - fixed - status.length;
  if (fits >= MIN_BAR) {
    const size = Math.min(MAX_BAR, fits, Math.max(MIN_BAR, max - fixed - Math.max(status.length, statusRoom)));
    const full = Math.round(share * size);
    return `${label} ${'█'.repeat(full)}${'░'.repeat(size - full)} ${pct} ${status}`;
  }
  const head = `${label} ${pct} `;
  return head + elide(status, Math.max(1, max - head.length));
}

/** The estimate's progress line: "Reading photos  12,345 / 100,000 (12%) · 8s" (or the walk of the folders before). */
export function estimateProgressText(progress: { phase: 'scanning' | 'reading'; done: number; total: number; elapsedMs: number }): string {
  const elapsed = duration(progress.elapsedMs);
  if (progress.phase === 'scanning') return `Looking through the folders… · ${elapsed}`;
  const share = progress.total === 0 ? 1 : progress.done / progress.total;
  return `Reading photos  ${progress.done.toLocaleString('en-US')} / ${progress.total.toLocaleString('en-US')} (${Math.floor(share * 100)}%) · ${elapsed} · Ctrl-C cancels`;
}
