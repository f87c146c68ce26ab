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

/** What a badge says, without the words: the renderer writes them from its catalogs, batchBadge in English. */
export interface BadgeFacts {
  kind: 'running' | 'paused' | 'cancelled' | 'cancelled-partly' | 'failed' | 'problems' | 'finished';
  tone: BadgeTone;
  fill: number;
  saved: number;
  /** Photos that could run (the total less the skipped ones). */
  runnable: number;
  failed: number;
  /** Unknown or charged without a result. */
  uncertain: number;
  cancelled: number;
}

export function badgeFacts(batch: Pick<BatchSummary, 'state' | 'counts' | 'total' | 'progress'>): BadgeFacts {
  const { counts } = batch;
  const runnable = Math.max(0, batch.total - n(counts, 'skipped'));
  const saved = n(counts, 'saved');
  const failed = n(counts, 'failed');
  const uncertain = n(counts, 'unknown', 'charged-no-result');
  const cancelled = n(counts, 'cancelled');
  const facts = { saved, runnable, failed, uncertain, cancelled };
  const share = runnable === 0 ? 1 : saved / runnable;
  if (batch.state === 'running') return { kind: 'running', tone: 'active', fill: batch.progress, ...facts };
  if (batch.state === 'paused') return { kind: 'paused', tone: 'warning', fill: batch.progress, ...facts };
  if (batch.state === 'cancelled') return { kind: saved > 0 ? 'cancelled-partly' : 'cancelled', tone: 'neutral', fill: share, ...facts };
  if (runnable > 0 && saved === 0 && failed + uncertain + cancelled > 0) return { kind: 'failed', tone: 'danger', fill: 0, ...facts };
  if (saved < runnable) return { kind: 'problems', tone: 'warning', fill: share, ...facts };
  return { kind: 'finished', tone: 'ok', fill: 1, ...facts };
}

const LABELS: Record<BadgeFacts['kind'], string> = {
  running: 'Running', paused: 'Paused', cancelled: 'Cancelled', 'cancelled-partly': 'Cancelled (partly saved)', failed: 'Failed',
  problems: 'Finished with problems', finished: 'Finished',
};

export function batchBadge(batch: Pick<BatchSummary, 'state' | 'counts' | 'total' | 'progress'>): BatchBadge {
  const f = badgeFacts(batch);
  const problems = [f.failed > 0 ? `${f.failed.toLocaleString('en-US')} failed` : '', f.uncertain > 0 ? `${f.uncertain.toLocaleString('en-US')} without a result` : '',
    f.cancelled > 0 ? `${f.cancelled.toLocaleString('en-US')} cancelled` : ''].filter(Boolean);
  const detail = [`${f.saved.toLocaleString('en-US')} of ${photos(f.runnable)} saved`, ...problems].join(' · ');
  return { label: LABELS[f.kind], tone: f.tone, fill: f.fill, detail };
}
