import type { EventChannelName, EventPayload } from '../../shared/ipc/contract';
import { PAUSED_BY_USER, type BatchSummary } from '../../shared/engine/model';
import type { HotFolderState } from '../../shared/hotfolders/model';

export type ProgressMode = 'none' | 'normal' | 'paused' | 'error';

export interface AttentionOptions {
  /** Dock / taskbar progress: fraction 0–1, or -1 to remove the bar. */
  setProgress(fraction: number, mode: ProgressMode): void;
  notify(title: string, body: string): void;
  /** The low-balance threshold from settings (0: never warn). */
  lowBalanceThreshold(): number;
  /** A finished batch is not worth a notification while the user is looking at the app. */
  isWindowFocused(): boolean;
}

export interface Attention {
  handle<K extends EventChannelName>(channel: K, payload: EventPayload<K>): void;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Turns core events into the native signals a desktop user expects: the running batches' combined progress on the
 * Dock/taskbar icon, and a notification when a batch or a hot-folder run finishes or needs attention (paused for
 * credits, results that may have been charged without arriving, a low balance, a folder gone unavailable).
 */
export function createAttention(options: AttentionOptions): Attention {
  const batches = new Map<string, BatchSummary>();
  const folders = new Map<string, HotFolderState>();
  /** processed/failed counters when a folder's current run began (its queue went from empty to busy). */
  const runStart = new Map<string, { processed: number; failed: number }>();
  let lastBalance: number | null = null;

  const updateProgress = () => {
    const active = [...batches.values()].filter((b) => b.state === 'running' || b.state === 'paused');
    if (active.length === 0) {
      options.setProgress(-1, 'none');
      return;
    }
    const total = active.reduce((sum, b) => sum + Math.max(1, b.total), 0);
    const done = active.reduce((sum, b) => sum + b.progress * Math.max(1, b.total), 0);
    const mode: ProgressMode = active.some((b) => b.state === 'running') ? 'normal' : 'paused';
    options.setProgress(Math.min(1, done / total), mode);
  };

  const onBatch = (next: BatchSummary) => {
    const previous = batches.get(next.id);
    batches.set(next.id, next);
    if (!previous || previous.state === next.state) return;
    if (next.state === 'completed') {
      const saved = next.counts.saved ?? 0;
      const failed = next.counts.failed ?? 0;
      const unknown = next.counts.unknown ?? 0;
      const parts = [`${plural(saved, 'result')} saved`];
      if (failed > 0) parts.push(`${failed} failed`);
      if (unknown > 0) {
        options.notify(
          'Batch finished: needs your attention',
          `${next.workflowName}: ${parts.join(', ')}. ${plural(unknown, 'item')} may have been charged without a result; review before resubmitting.`,
        );
      } else if (failed > 0 || !options.isWindowFocused()) {
        options.notify('Batch finished', `${next.workflowName}: ${parts.join(', ')}.`);
      }
    } else if (next.state === 'paused' && next.pausedReason && next.pausedReason !== PAUSED_BY_USER) {
      options.notify('Batch paused', `${next.workflowName}: ${next.pausedReason}`);
    }
  };

  const onFolders = (states: HotFolderState[]) => {
    for (const next of states) {
      const previous = folders.get(next.config.id);
      folders.set(next.config.id, next);
      const id = next.config.id;
      if (next.status.queued > 0 && !runStart.has(id)) {
        const base = previous?.status ?? next.status;
        runStart.set(id, { processed: base.processed, failed: base.failed });
      }
      if (!previous) continue;
      const name = next.config.path;
      const start = runStart.get(id);
      if (start && next.status.queued === 0) {
        runStart.delete(id);
        const processed = next.status.processed - start.processed;
        const failed = next.status.failed - start.failed;
        if (processed > 0 || failed > 0) {
          const body = `${name}: ${plural(Math.max(0, processed), 'photo')} processed${failed > 0 ? `, ${failed} failed` : ''}.`;
          options.notify(failed > 0 ? 'Hot folder run needs attention' : 'Hot folder run finished', body);
        }
      }
      if (previous.status.state !== next.status.state) {
        if (next.status.state === 'unavailable') {
          options.notify('Hot folder unavailable', `${name}: ${next.status.reason ?? 'the folder cannot be read'}.`);
        } else if (next.status.state === 'awaiting-review') {
          options.notify('Hot folder needs review', `${name}: ${next.status.reason ?? 'review the files found before they are processed'}.`);
        }
      }
    }
  };

  const onBalance = (credits: number) => {
    const threshold = options.lowBalanceThreshold();
    const wasLow = lastBalance !== null && lastBalance < threshold;
    lastBalance = credits;
    if (threshold > 0 && credits < threshold && !wasLow) {
      options.notify('Low balance', `${credits} API credits left (warning below ${threshold}).`);
    }
  };

  return {
    handle(channel, payload) {
      if (channel === 'batches:progress') {
        for (const batch of (payload as EventPayload<'batches:progress'>).batches) onBatch(batch);
        updateProgress();
      } else if (channel === 'hotFolders:changed') {
        onFolders(payload as EventPayload<'hotFolders:changed'>);
      } else if (channel === 'balance:changed') {
        onBalance((payload as EventPayload<'balance:changed'>).apiCredits);
      }
    },
  };
}
