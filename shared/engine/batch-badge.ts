import type { BatchSummary } from './model';

// What a batch's badge and bar say, from its counts, in one place for the queue list, the batch panel and the CLI:
// a batch whose items all failed is not a green "Finished"; a cancelled one is not "Done 80 %".

export type BadgeTone = 'ok' | 'danger' | 'warning' | 'neutral' | 'active';

export interface BatchBadge {
  label: string;
  tone: BadgeTone;
  /** The bar's fill, 0–1: progress while open; once ended, the share of photos that got their result. */
  fill: number;
  /** One line under the bar: "12 of 15 photos saved · 3 failed". */
  detail: string;
}

type Counts = BatchSummary['counts'];
const n = (counts: Counts, ...states: (keyof Counts)[]) => states.reduce((sum, s) => sum + (counts[s] ?? 0), 0);

/** "1 photo", "2 photos". */
export function photos(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'photo' : 'photos'}`;
}

export function batchBadge(batch: Pick<BatchSummary, 'state' | 'counts' | 'total' | 'progress'>): BatchBadge {
  const { counts } = batch;
  const runnable = Math.max(0, batch.total - n(counts, 'skipped'));
  const saved = n(counts, 'saved');
  const failed = n(counts, 'failed');
  const uncertain = n(counts, 'unknown', 'charged-no-result');
  const cancelled = n(counts, 'cancelled');
  const problems = [failed > 0 ? `${failed.toLocaleString('en-US')} failed` : '', uncertain > 0 ? `${uncertain.toLocaleString('en-US')} without a result` : '',
    cancelled > 0 ? `${cancelled.toLocaleString('en-US')} cancelled` : ''].filter(Boolean);
  const detail = [`${saved.toLocaleString('en-US')} of ${photos(runnable)} saved`, ...problems].join(' · ');
  const share = runnable === 0 ? 1 : saved / runnable;
  if (batch.state === 'running') return { label: 'Running', tone: 'active', fill: batch.progress, detail };
  if (batch.state === 'paused') return { label: 'Paused', tone: 'warning', fill: batch.progress, detail };
  if (batch.state === 'cancelled') return { label: saved > 0 ? 'Cancelled (partly saved)' : 'Cancelled', tone: 'neutral', fill: share, detail };
  if (runnable > 0 && saved === 0 && problems.length > 0) return { label: 'Failed', tone: 'danger', fill: 0, detail };
  if (saved < runnable) return { label: 'Finished with problems', tone: 'warning', fill: share, detail };
  return { label: 'Finished', tone: 'ok', fill: 1, detail };
}
