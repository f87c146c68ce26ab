import type { BatchSummary } from '../../../shared/engine/model';
import type { HotFolderState } from '../../../shared/hotfolders/model';
import type { EventPayload } from '../../../shared/ipc/contract';
import { batchAttention, hotFolderRunAttention, type Attention } from '../../../shared/notify/attention';
import type { EventBus } from './event-bus';

export interface AttentionDeps {
  bus: Pick<EventBus, 'emit' | 'onEvent'>;
  /** The setting `notifyWhenDone`, read at each event (a change applies at once). */
  enabled(): boolean;
  /** The hot folder a batch was made by (null: a batch of its own); a lookup in the journal. */
  hotFolderOf(batchId: string): Promise<string | null>;
  credits?(): 'test' | 'real';
}

/**
 * Watches the core's own events and emits `app:attention` once per batch ending, per pause that needs the user and
 * per hot-folder run that drained its queue: the hosts only show it (native notification, Web Notification). What is
 * said and what is worth saying is shared/notify/attention.ts; this keeps what was seen before, to tell a change.
 */
export function startAttention(deps: AttentionDeps): () => void {
  const batches = new Map<string, BatchSummary>();
  const folderOf = new Map<string, Promise<string | null>>();
  const lastBatchOf = new Map<string, string>();
  const folders = new Map<string, HotFolderState>();
  /** A folder's counters when its current run began (its queue went from empty to busy). */
  const runStart = new Map<string, { processed: number; failed: number; creditsSpent: number }>();
  /** An outage pauses every running batch, each in its own progress event: said once until none is paused by it. */
  let outageSaid = false;

  const say = (attention: Attention | null) => {
    if (attention && deps.enabled()) deps.bus.emit('app:attention', attention);
  };
  const credits = () => (deps.credits ? { credits: deps.credits() } : {});

  const lookUp = (id: string): Promise<string | null> => {
    let found = folderOf.get(id);
    if (!found) {
      found = deps.hotFolderOf(id).catch(() => null);
      void found.then((folder) => { if (folder) lastBatchOf.set(folder, id); });
      folderOf.set(id, found);
    }
    return found;
  };

  const onProgress = (event: EventPayload<'batches:progress'>) => {
    const pausesSaid = new Set<string>();
    for (const next of event.batches) {
      const previous = batches.get(next.id);
      batches.set(next.id, next);
      const folder = lookUp(next.id);
      const ended = previous && previous.state !== next.state && (next.state === 'completed' || next.state === 'cancelled');
      if (ended) {
        // Decided when the batch's hot folder is known (at once: the lookup began when the batch was first seen).
        void folder.then((hotFolder) => say(batchAttention(previous, next, { hotFolder: hotFolder !== null, ...credits() })));
        // Forgotten once said (a long watch makes a batch per photo): a batch run again is seen anew, and says its end.
        batches.delete(next.id);
        folderOf.delete(next.id);
        continue;
      }
      const paused = batchAttention(previous, next, credits());
      if (!paused || pausesSaid.has(next.pauseCode ?? '')) continue;
      if (next.pauseCode === 'service-unreachable') {
        if (outageSaid) continue;
        outageSaid = true;
      }
      pausesSaid.add(next.pauseCode ?? '');
      say(paused);
    }
    if (![...batches.values()].some((b) => b.state === 'paused' && b.pauseCode === 'service-unreachable')) outageSaid = false;
  };

  const onFolders = (states: EventPayload<'hotFolders:changed'>) => {
    for (const next of states) {
      const id = next.config.id;
      const previous = folders.get(id);
      folders.set(id, next);
      if (next.status.queued > 0 && !runStart.has(id)) {
        const base = previous?.status ?? next.status;
        runStart.set(id, { processed: base.processed, failed: base.failed, creditsSpent: base.creditsSpent });
      }
      const start = runStart.get(id);
      if (!previous || !start || next.status.queued > 0) continue;
      runStart.delete(id);
      say(hotFolderRunAttention({
        path: next.config.path,
        processed: next.status.processed - start.processed,
        failed: next.status.failed - start.failed,
        creditsSpent: next.status.creditsSpent - start.creditsSpent,
        lastBatchId: lastBatchOf.get(id) ?? null,
      }, credits()));
    }
  };

  return deps.bus.onEvent((channel, payload) => {
    if (channel === 'batches:progress') onProgress(payload as EventPayload<'batches:progress'>);
    else if (channel === 'hotFolders:changed') onFolders(payload as EventPayload<'hotFolders:changed'>);
  });
}
