import type { BatchProgressEvent } from '../../../shared/engine/model';
import type { Logger } from '../log';
import type { ServiceClient } from '../service/types';
import type { EventBus } from './event-bus';

/**
 * Re-reads the balance when a batch's spending changed and emits `balance:changed`, so every window shows what is
 * left without polling. Reads are batched: at most one per `minGapMs`, however busy the engine.
 */
export function startBalanceRefresh(bus: EventBus, client: ServiceClient, logger: Logger, minGapMs = 2000): () => void {
  const spentByBatch = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const refresh = () => {
    timer = undefined;
    client.getBalance().then(
      (balance) => {
        if (!stopped) bus.emit('balance:changed', balance);
      },
      (error: unknown) => logger.debug('balance refresh failed', { error: error instanceof Error ? error.message : String(error) }),
    );
  };
  const unsubscribe = bus.onEvent((channel, payload) => {
    if (channel !== 'batches:progress' || stopped) return;
    let moved = false;
    for (const batch of (payload as BatchProgressEvent).batches) {
      if ((spentByBatch.get(batch.id) ?? 0) !== batch.creditsSpent) moved = true;
      spentByBatch.set(batch.id, batch.creditsSpent);
    }
    if (moved && !timer) timer = setTimeout(refresh, minGapMs);
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
