import type { EventChannelName, EventPayload } from '../../shared/ipc/contract';
import type { BatchSummary } from '../../shared/engine/model';
import type { HotFolderState } from '../../shared/hotfolders/model';
import { createFormatters, translatorFor, type Translator } from '../../shared/i18n';
import { attentionText } from '../../shared/notify/attention-words';

export type ProgressMode = 'none' | 'normal' | 'paused' | 'error';

export interface AttentionOptions {
  /** Dock / taskbar progress: fraction 0–1, or -1 to remove the bar. */
  setProgress(fraction: number, mode: ProgressMode): void;
  notify(title: string, body: string): void;
  /** A notification whose click opens Review on that batch (null: the queue). */
  notifyOpening(title: string, body: string, batchId: string | null): void;
  /** A plain "done" is not worth a notification while the user is looking at the app; a failure or a pause is. */
  isWindowFocused(): boolean;
  /** The low-balance threshold from settings (0: never warn). */
  lowBalanceThreshold(): number;
  /** The app's language for the notifications said here (`native` catalog); English when not given. */
  translator?(): Translator;
}

export interface Attention {
  handle<K extends EventChannelName>(channel: K, payload: EventPayload<K>): void;
}

/**
 * Turns core events into the native signals a desktop user expects: the running batches' combined progress on the
 * Dock/taskbar icon, and a notification for a low balance or a hot folder gone unavailable or awaiting review. A batch
 * or hot-folder run that ends or pauses is the core's `app:attention` (shown by app-main.ts), said once for every host.
 */
export function createAttention(options: AttentionOptions): Attention {
  const batches = new Map<string, BatchSummary>();
  const folders = new Map<string, HotFolderState>();
  let lastBalance: number | null = null;
  const translator = () => options.translator?.() ?? translatorFor('en');
  const t: Translator['t'] = (ns, key, values) => translator().t(ns, key, values);

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
    batches.set(next.id, next);
  };

  const onFolders = (states: HotFolderState[]) => {
    for (const next of states) {
      const previous = folders.get(next.config.id);
      folders.set(next.config.id, next);
      if (!previous) continue;
      const name = next.config.path;
      if (previous.status.state !== next.status.state) {
        if (next.status.state === 'unavailable') {
          options.notify(t('native', 'notify.folderUnavailable'), t('native', 'notify.folderUnreadable', { name, reason: next.status.reason ?? t('native', 'notify.cannotRead') }));
        } else if (next.status.state === 'awaiting-review') {
          options.notify(t('native', 'notify.folderReview'), t('native', 'notify.folderUnreadable', { name, reason: next.status.reason ?? t('native', 'notify.reviewFiles') }));
        }
      }
    }
  };

  const onBalance = (credits: number) => {
    const threshold = options.lowBalanceThreshold();
    const wasLow = lastBalance !== null && lastBalance < threshold;
    lastBalance = credits;
    if (threshold > 0 && credits < threshold && !wasLow) {
      const format = createFormatters(translator());
      options.notify(t('native', 'notify.lowBalance'), t('native', 'notify.lowBalanceBody', { credits: format.number(credits, 2), threshold: format.number(threshold, 2) }));
    }
  };

  return {
    handle(channel, payload) {
      if (channel === 'batches:progress') {
        for (const batch of (payload as EventPayload<'batches:progress'>).batches) onBatch(batch);
        updateProgress();
      } else if (channel === 'hotFolders:changed') {
        onFolders(payload as EventPayload<'hotFolders:changed'>);
      } else if (channel === 'app:attention') {
        const said = payload as EventPayload<'app:attention'>;
        if (said.needsAction || !options.isWindowFocused()) {
          // The core's words, said in the app's language (the English sentence when the core sent no keys).
          const { title, body } = attentionText(said, translator());
          options.notifyOpening(title, body, said.batchId);
        }
      } else if (channel === 'balance:changed') {
        onBalance((payload as EventPayload<'balance:changed'>).apiCredits);
      }
    },
  };
}
