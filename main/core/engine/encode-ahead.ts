import { statSync } from 'node:fs';
import { DEFAULT_OUTPUT_SIZE, encodeForUpload, OUTPUT_LONG_EDGE, toDataUrl } from '../images/encode';
import { decodeFootprint } from '../images/decode-footprint';
import type { BatchRecord, ItemRecord } from '../journal/types';
import type { RunnerCore } from './runner-core';
import { addPhase } from './phase-times';
import { nowMs } from './clock';
import { followIfHeld } from './claim-followers';
import { liveChainResultUrl } from './chain-input';
import { payloadBehind, queueRanks, rankOf, type QueueRanks } from './runner-order';

// Encoding runs ahead of submission so an execution slot never waits for sharp, but only a little ahead: at most
// min(concurrency, 8) + encoders payloads (base64 data URLs, several MB each) are ever held in memory, never the
// whole batch. An encoded item stays `encoding` in the journal until it is submitted, so a crash sends it back to
// `pending` (nothing was sent).

/** What an `encoding` item is doing, as its row says it (its `reason` until it is sent). */
export const ENCODE_PHASES = {
  reading: 'Reading and resizing the photo for upload',
  ready: 'Ready to send: waiting for a free slot',
} as const;

/**
 * Input bytes being decoded at once beyond which no further encode starts alongside the running ones. A JPEG shrunk
 * on load counts for the pixels it really decodes (decode-footprint.ts): two 24 MP photos sent at 1K decode together
 * (one core each); one sent at 2K (libjpeg cannot shrink it: sharp decodes it whole) or at its own size decodes alone.
 */
const ENCODE_BYTE_BUDGET = 4 * 1024 * 1024;
/** Pending items turned into followers in one scheduling pass at most. */
const MAX_FOLLOWS_PER_PASS = 256;

export class EncodeAhead {
  private readonly active = new Set<string>();
  /** Encodes in progress per batch: the pump holds a later batch's payload back while an earlier one encodes. */
  private readonly activeByBatch = new Map<string, number>();
  private activeBytes = 0;

  constructor(private readonly core: RunnerCore, private readonly concurrency: number) {}

  /** Encodes in progress. */
  get size(): number {
    return this.active.size;
  }

  /** Whether a batch ranked before `rank` has an encode in progress (its photo is about to be ready: it goes first). */
  encodingAhead(ranks: QueueRanks, rank: number): boolean {
    for (const batchId of this.activeByBatch.keys()) if (rankOf(ranks, batchId) < rank) return true;
    return false;
  }

  /**
   * Starts encodes for the next pending items of the running batches (in queue order), within the concurrency and
   * memory bounds. When the prefetch is full of payloads of batches behind the next photo's (a batch moved to the
   * front, a higher priority arrived, or theirs is paused), one of those goes back to pending to make room: encoded
   * photos of a later batch never hold the places an earlier batch needs. Nothing of theirs was sent.
   */
  fill(running: BatchRecord[]): void {
    const { ready } = this.core;
    const prefetch = Math.min(this.core.o.concurrency, 8) + this.concurrency;
    const ranks = queueRanks(running);
    while (this.active.size < this.concurrency) {
      // Large photos decode one at a time: each holds tens of MB of pixels, and glibc keeps what several threads
      // freed, so parallel 12 MP decodes are what pushes peak memory up — small ones are cheap to overlap.
      if (this.active.size > 0 && this.activeBytes >= ENCODE_BYTE_BUDGET) break;
      const next = this.nextPending(running);
      if (!next) break;
      if (this.active.size + ready.size >= prefetch) {
        const behind = payloadBehind(ready, ranks, rankOf(ranks, next.batchId));
        if (!behind) break;
        ready.delete(behind);
        this.core.update(behind, { event: 'requeue' });
      }
      this.start(next);
    }
  }

  private nextPending(running: BatchRecord[]): ItemRecord | null {
    let followed = 0;
    for (const batch of running) {
      for (;;) {
        const [item] = this.core.o.journal.itemsInStates(batch.id, ['pending'], 1);
        if (!item) break;
        // Its unit is already at the service for another item: it follows that one (nothing encoded, nothing sent).
        if (followIfHeld(this.core, item)) {
          // A batch of 100k photos another batch holds: a few hundred a pass, the event loop free in between.
          if (++followed >= MAX_FOLLOWS_PER_PASS) { this.core.kick(); return null; }
          continue;
        }
        return item;
      }
    }
    return null;
  }

  private start(item: ItemRecord): void {
    const { core } = this;
    const batch = core.batch(item.batchId);
    this.active.add(item.id);
    this.activeByBatch.set(item.batchId, (this.activeByBatch.get(item.batchId) ?? 0) + 1);
    // The row says what is happening rather than a bare "Preparing" (issue 31 #15): reading, then waiting for a slot.
    core.update(item.id, { event: 'encode', reason: ENCODE_PHASES.reading });
    let bytes = 0;
    const fitEdge = batch.spec.encode.uploadSizePolicy === 'fit' ? OUTPUT_LONG_EDGE[batch.spec.parameters.globalOverrides?.imageSize ?? DEFAULT_OUTPUT_SIZE] : null;
    for (const source of Object.values(item.sources)) {
      try { if (!/^https?:/i.test(source)) bytes += decodeFootprint(source, statSync(source).size, fitEdge); } catch { /* the encoder reports it */ }
    }
    this.activeBytes += bytes;
    core.run(async () => {
      const startedAt = nowMs();
      try {
        const images: Record<string, string> = {};
        const chainStep = (batch.spec.chain?.step ?? 1) > 1;
        for (const [field, source] of Object.entries(item.sources)) {
          if (/^https?:\/\//i.test(source)) { images[field] = source; continue; }
          if (chainStep) {
            // The previous step's result, sent by its URL while the service still has it: nothing uploaded again.
            const url = await liveChainResultUrl(core.o.journal, core.o.client, source, item.contentHash);
            if (url) { images[field] = url; core.stats.chainUrls += 1; continue; }
            core.stats.chainUploads += 1;
          }
          const encoded = await encodeForUpload(source, {
            policy: batch.spec.encode.uploadSizePolicy, stripMetadata: batch.spec.encode.stripMetadata,
            imageSize: batch.spec.parameters.globalOverrides?.imageSize, maxInputPixels: core.o.maxInputPixels,
            exiftool: core.o.resultMetadata?.command,
          });
          core.stats.uploadBytes += encoded.data.length;
          core.stats.originalBytes += encoded.originalBytes;
          images[field] = toDataUrl(encoded);
        }
        core.stats.encoded += 1;
        addPhase(core.stats.phases, 'encode', nowMs() - startedAt);
        // Cancelled (or the engine stopping) while it encoded: the payload is dropped.
        const current = core.o.journal.getItem(item.id);
        if (current?.state === 'encoding' && !core.isStopping()) {
          core.ready.set(item.id, { batchId: item.batchId, images, readyAt: nowMs() });
          core.update(item.id, { reason: ENCODE_PHASES.ready });
        }
      } catch (error) {
        // Cancelled (or sent back to pending by a stop) while it encoded: nothing to fail.
        if (core.o.journal.getItem(item.id)?.state === 'encoding') {
          core.update(item.id, { event: 'encode-failed', reason: error instanceof Error ? error.message : String(error), completedAt: core.o.now().toISOString() });
        }
      } finally {
        this.active.delete(item.id);
        const left = (this.activeByBatch.get(item.batchId) ?? 1) - 1;
        if (left > 0) this.activeByBatch.set(item.batchId, left); else this.activeByBatch.delete(item.batchId);
        this.activeBytes -= bytes;
        core.kick();
      }
    });
  }
}
