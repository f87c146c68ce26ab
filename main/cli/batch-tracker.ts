import { EXIT } from './exit-codes';
import { statesOf } from '../../shared/engine/item-states';
import { SERVICE_UNREACHABLE, type BatchProgressEvent, type BatchSummary, type ItemOutcomeEvent, type ItemView, type ServiceUnreachable } from '../../shared/engine/model';
import type { CliSession } from './session';

const IN_FLIGHT = statesOf('inFlight');

export interface TrackerListener {
  /** The service's reachability as of the event that follows (null: it answers). */
  service?(unreachable: ServiceUnreachable | null): void;
  batches?(batches: BatchSummary[]): void;
  items?(items: ItemView[]): void;
  /** Each terminal outcome of each attempt of an item of the followed batches, once, in order. */
  outcome?(outcome: ItemOutcomeEvent): void;
}

export type TrackOutcome = { kind: 'finished'; batches: BatchSummary[] } | { kind: 'interrupted' };

function inFlight(batch: BatchSummary): number {
  return IN_FLIGHT.reduce((sum, state) => sum + (batch.counts[state] ?? 0), 0);
}

/**
 * Done for the CLI: completed or cancelled, or paused (credits, budget…) with nothing left in flight. A batch paused
 * because the service is unreachable is not done: the engine resumes it by itself once the service answers. One
 * paused because the output folder cannot be written is done once only its paid results wait (`downloading`): they
 * are kept in the journal (and the result cache) for `batchroom resume`, and waiting for a disk would hang a script.
 */
export function isSettled(batch: BatchSummary): boolean {
  if (batch.state === 'completed' || batch.state === 'cancelled') return true;
  if (batch.state !== 'paused') return false;
  if (batch.pauseCode === 'service-unreachable' || (batch.pauseCode === null && batch.pausedReason === SERVICE_UNREACHABLE)) return false;
  // A photo encoded and waiting for a slot when the batch paused is not sent while it stays paused (nothing of it
  // left: `encoding` goes back to pending on resume or restart) — waiting for it hung `run` when a disk filled up.
  const encodedOnly = batch.counts.encoding ?? 0;
  const waiting = batch.pauseCode === 'output-unwritable' ? (batch.counts.downloading ?? 0) : 0;
  return inFlight(batch) - waiting - encodedOnly === 0;
}

/**
 * Follows batches until each is settled, from the engine's coalesced progress events (and reports each item's
 * outcomes from the outcome outbox's `batches:outcome`, which misses none), with a slow poll of
 * `batches:list` as a safety net (an event missed between create and subscribe must not hang the command). Resolves
 * `interrupted` as soon as `signal` aborts (Ctrl-C): nothing is cancelled, the journal keeps the state.
 */
export function trackBatches(session: CliSession, batchIds: string[], listener: TrackerListener, signal: AbortSignal): Promise<TrackOutcome> {
  const wanted = new Set(batchIds);
  const latest = new Map<string, BatchSummary>();
  return new Promise<TrackOutcome>((resolve, reject) => {
    let done = false;
    const finish = (outcome: TrackOutcome | Error) => {
      if (done) return;
      done = true;
      unsubscribe();
      stopOutcomes();
      clearInterval(timer);
      signal.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const update = (batches: BatchSummary[]) => {
      const mine = batches.filter((b) => wanted.has(b.id));
      if (mine.length === 0) return;
      for (const b of mine) latest.set(b.id, b);
      listener.batches?.(mine);
      if (latest.size === wanted.size && [...latest.values()].every(isSettled)) {
        const settled = batchIds.map((id) => latest.get(id)!);
        // The outbox relay wakes on the turn after the journal commit that the progress reports: one more turn
        // lets the last items' outcomes out before the summary.
        setImmediate(() => finish({ kind: 'finished', batches: settled }));
      }
    };
    // Outcomes before progress: a batch settles on progress, and its last items' outcomes must be out by then.
    const stopOutcomes = session.onOutcome((outcome) => {
      if (wanted.has(outcome.batchId)) listener.outcome?.(outcome);
    });
    const unsubscribe = session.core.onEvent((channel, payload) => {
      if (channel !== 'batches:progress') return;
      const event = payload as BatchProgressEvent;
      if (event.engine) listener.service?.(event.engine.unreachable ?? null);
      const items = event.items.filter((i) => wanted.has(i.batchId));
      if (items.length) listener.items?.(items);
      update(event.batches);
    });
    const poll = () => {
      session.call('batches:list', {}).then(update, (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
    };
    // Events carry the progress; the poll only catches one missed between create and subscribe (and lists every
    // batch in the journal, so it stays rare).
    const timer = setInterval(poll, 5000);
    const onAbort = () => finish({ kind: 'interrupted' });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort);
    poll();
  });
}

/** Every item of a batch, a page at a time (2,000 items): only the page is held while `visit` looks at it. */
export async function forEachItemPage(session: CliSession, batchId: string, visit: (items: ItemView[]) => void): Promise<void> {
  for (let offset = 0; ; ) {
    const page = await session.call('batches:items', { batchId, offset, limit: 2000 });
    visit(page.items);
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total) return;
  }
}

/** Every item of a batch in one list (a chain step's results, which the next step takes as its inputs). */
export async function allItems(session: CliSession, batchId: string): Promise<ItemView[]> {
  const items: ItemView[] = [];
  await forEachItemPage(session, batchId, (page) => items.push(...page));
  return items;
}

/** Ctrl-C (and SIGTERM) abort the returned signal once; a second Ctrl-C leaves at once. */
/**
 * Ctrl-C / SIGTERM stop gracefully (state kept for `resume`); a second one a moment later leaves at once. Signals
 * within 1 s of the first are ignored: the settings store's exit hook (when-exit, via conf/atomically) re-raises
 * the signal it intercepted, which would otherwise count as the impatient second Ctrl-C and skip the graceful stop.
 */
export function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  let firstAt = 0;
  const onSignal = () => {
    if (!controller.signal.aborted) {
      firstAt = Date.now();
      controller.abort();
    } else if (Date.now() - firstAt > 1_000) {
      process.exit(EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // stdout's reader already went away (main.ts stops on a closed pipe): nothing is following, so stop now.
  if (process.stdout.destroyed) onSignal();
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
