import { badgeFacts, type BadgeFacts, type BadgeTone } from '../../../shared/engine/batch-badge';
import type { BatchSummary } from '../../../shared/engine/model';
import type { KeyOf, TFunction } from '../../../shared/i18n';

const LABEL_KEYS: Record<BadgeFacts['kind'], KeyOf<'queue'>> = {
  running: 'Badge.running',
  paused: 'Badge.paused',
  cancelled: 'Badge.cancelled',
  'cancelled-partly': 'Badge.cancelledPartly',
  failed: 'Badge.failed',
  problems: 'Badge.problems',
  finished: 'Badge.finished',
};

/**
 * A batch's badge and the line under its bar in the page's language. What it says is decided once, in
 * shared/engine/batch-badge.ts (a batch whose items all failed is not a green "Finished"); only the words are here.
 */
export function badgeWords(batch: Pick<BatchSummary, 'state' | 'counts' | 'total' | 'progress'>, t: TFunction<'queue'>): {
  label: string;
  tone: BadgeTone;
  fill: number;
  detail: string;
} {
  const f = badgeFacts(batch);
  const parts = [
    t('Badge.detailSaved', { saved: f.saved, total: f.runnable }),
    f.failed > 0 ? t('Badge.detailFailed', { count: f.failed }) : '',
    f.uncertain > 0 ? t('Badge.detailNoResult', { count: f.uncertain }) : '',
    f.cancelled > 0 ? t('Badge.detailCancelled', { count: f.cancelled }) : '',
  ].filter(Boolean);
  return { label: t(LABEL_KEYS[f.kind]), tone: f.tone, fill: f.fill, detail: parts.join(' · ') };
}
