// Issue 34 items 3 and 4, the journal's side: what a batch summary (counts per state, progress, paid elsewhere) and
// the Queue's filtered window ("Failed": a page and how many) cost on a real SQLite journal of N items, and what a
// state change write costs with the per-state counters' triggers (migration 15) against the same journal without
// them, alternating in one run. Used by bench/scale-journal.ts (part `counts`).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { BatchSpecSchema } from '../shared/engine/model';
import { openJournal, type BatchRecord, type NewItem } from '../main/core/journal';
import { readItemWindow } from '../main/core/journal/item-window';
import { toBatchSummary } from '../main/core/engine/projection';

/** The fixture's states: 2 % failed (as bench/scale-ui.ts's batch), half saved, the rest pending. */
const stateAt = (n: number): NewItem['state'] => (n % 50 === 7 ? 'failed' : n % 2 === 0 ? 'saved' : 'pending');

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
function timed(run: () => unknown, times = 7): number {
  const ms: number[] = [];
  for (let k = 0; k < times; k++) {
    const start = performance.now();
    run();
    ms.push(performance.now() - start);
  }
  return median(ms);
}

export interface CountsFigures {
  items: number;
  failed: number;
  /** Medians of 7 (ms). */
  countByStateMs: number;
  summaryMs: number;
  failedFirstPageMs: number;
  failedLastPageMs: number;
  savedLastPageMs: number;
  /** A state change write (encode / requeue of a pending item), p50 and p95, with the counters' triggers and without. */
  write: { withTriggers: { p50: number; p95: number } | null; without: { p50: number; p95: number }; writes: number };
  /** Names of the triggers on items in this build (none before migration 15). */
  triggers: string[];
}

/** The summary and filter reads, and the write cost with and without triggers, on a journal of `count` items. */
export async function countsBench(count: number): Promise<CountsFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'batchroom-scale-counts-'));
  try {
    const journal = openJournal(dir);
    const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
    const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
    const at = new Date().toISOString();
    const batch: BatchRecord = { id: 'scale-counts', spec, workflow, creditCost: 1, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
    const items: NewItem[] = Array.from({ length: count }, (_, n) => ({
      id: `c${n}`, position: n, displayName: `IMG_${String(n).padStart(6, '0')}.jpg`, sources: { photo: `/in/IMG_${n}.jpg` }, relDir: '', contentHash: `h${n}`,
      state: stateAt(n), reason: null, claimKey: `k${n}`,
    }));
    journal.createBatch(batch, items);
    const failed = readItemWindow(journal, { batchId: batch.id, filter: 'failed', offset: 0, limit: 200 }).total;
    const saved = journal.countByState(batch.id).saved ?? 0;
    const record = journal.getBatch(batch.id)!;
    const figures = {
      countByStateMs: timed(() => journal.countByState(batch.id)),
      summaryMs: timed(() => toBatchSummary(journal, record, { itemMs: 1000, concurrency: 8 })),
      failedFirstPageMs: timed(() => readItemWindow(journal, { batchId: batch.id, filter: 'failed', offset: 0, limit: 200 })),
      failedLastPageMs: timed(() => readItemWindow(journal, { batchId: batch.id, filter: 'failed', offset: Math.max(0, failed - 200), limit: 200 })),
      savedLastPageMs: timed(() => readItemWindow(journal, { batchId: batch.id, filter: 'saved', offset: Math.max(0, saved - 200), limit: 200 })),
    };
    // Writes: pending items moved to encoding and back, one transaction each, alternating blocks with the triggers
    // there and dropped (through a second connection, as DDL; the journal's statements are prepared again).
    const raw = new Database(join(dir, 'journal.db'));
    const triggers = (raw.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'items'`).all() as { name: string; sql: string }[]);
    const pending = items.filter((i) => i.state === 'pending').slice(0, 4000).map((i) => i.id);
    const withTriggers: number[] = [];
    const without: number[] = [];
    const block = (ids: string[], into: number[]) => {
      for (const id of ids) {
        for (const change of [{ event: 'encode' as const }, { event: 'requeue' as const }]) {
          const t0 = performance.now();
          journal.updateItem(id, change);
          into.push(performance.now() - t0);
        }
      }
    };
    const rounds = 4;
    const per = Math.floor(pending.length / (rounds * 2));
    for (let r = 0; r < rounds; r++) {
      const ids = pending.slice(r * 2 * per, (r * 2 + 2) * per);
      if (triggers.length > 0) block(ids.slice(0, per), withTriggers);
      for (const t of triggers) raw.exec(`DROP TRIGGER ${t.name}`);
      block(ids.slice(per), without);
      for (const t of triggers) raw.exec(t.sql);
    }
    raw.close();
    // Still right after the writes (each item went out and came back).
    const counts = journal.countByState(batch.id);
    if ((counts.failed ?? 0) !== failed || (counts.encoding ?? 0) !== 0) throw new Error(`counts drifted: ${JSON.stringify(counts)}`);
    journal.close();
    const p = (values: number[]) => ({ p50: pct(values, 50), p95: pct(values, 95) });
    return {
      items: count, failed, ...figures, triggers: triggers.map((t) => t.name),
      write: { withTriggers: withTriggers.length > 0 ? p(withTriggers) : null, without: p(without), writes: withTriggers.length + without.length },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
