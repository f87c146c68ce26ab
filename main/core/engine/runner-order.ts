import type { BatchRecord } from '../journal/types';
import type { ReadyPayload } from './runner-core';

// The submit order across batches (issue 32 #5): running batches come from the journal already in queue order
// (priority desc, queue order: journal/batch-order.ts), items of a batch by position. These helpers apply that order
// to what the runner holds in memory — encoded payloads waiting for a slot, which became ready in encode order.

/** Each running batch's place in the queue (0 first). */
export type QueueRanks = ReadonlyMap<string, number>;

export const queueRanks = (running: readonly BatchRecord[]): QueueRanks => new Map(running.map((batch, index) => [batch.id, index]));

/** A batch that is not running (paused with payloads still encoded) ranks after every running one. */
export const rankOf = (ranks: QueueRanks, batchId: string): number => ranks.get(batchId) ?? Number.POSITIVE_INFINITY;

/** Ready payloads in submit order: their batch's rank, then the order they became ready (a stable sort). */
export function readyInQueueOrder(ready: ReadonlyMap<string, ReadyPayload>, ranks: QueueRanks): [string, ReadyPayload][] {
  return [...ready].sort(([, a], [, b]) => rankOf(ranks, a.batchId) - rankOf(ranks, b.batchId) || 0);
}

/**
 * The ready payload to give back when a photo of a batch ranked `before` needs its place in the bounded prefetch: the
 * last-ready payload of the lowest-ranked batch behind it, or null when every payload is at least as far ahead.
 */
export function payloadBehind(ready: ReadonlyMap<string, ReadyPayload>, ranks: QueueRanks, before: number): string | null {
  let worst: string | null = null;
  let worstRank = before;
  for (const [itemId, payload] of ready) {
    const rank = rankOf(ranks, payload.batchId);
    if (rank >= worstRank && rank > before) { worst = itemId; worstRank = rank; }
  }
  return worst;
}
