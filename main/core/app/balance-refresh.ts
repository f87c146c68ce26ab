import type { BatchProgressEvent } from '../../../shared/engine/model';
import type { Balance } from '../../../shared/service/model';
import type { Engine } from '../engine/engine';
import type { Logger } from '../log';
import type { ServiceClient } from '../service/types';
import type { EventBus } from './event-bus';

/**
 * How the app reads the balance (the header's refresh, `balance:get`): through the running engine when there is one
 * (engine.readBalance → credit-guard.ts), so its budget checks see the new balance and balance evidence gets the read
 * as a possible anchor; straight from the service otherwise (no engine, no evidence to feed). Before, these reads
 * went around the engine: 2 of the 4 balance reads anchored nothing.
 */
export function balanceReader(client: Pick<ServiceClient, 'getBalance'>, engine: () => Engine | null): () => Promise<Balance> {
  return () => engine()?.readBalance() ?? client.getBalance();
}

/**
 * Re-reads the balance when a batch's spending changed and emits `balance:changed`, so every window shows what is
 * left without polling. Reads are batched: at most one per `minGapMs`, however busy the engine.
 */
export function startBalanceRefresh(bus: EventBus, readBalance: () => Promise<Balance>, logger: Logger, minGapMs = 2000): () => void {
  const spentByBatch = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const refresh = () => {
    timer = undefined;
    readBalance().then(
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
