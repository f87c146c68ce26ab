// Journal fixtures for bench/scale-journal.ts: a batch of N items, each driven through the very journal calls the
// engine makes for a photo it sends and saves (encode, submit, accept, poll, complete, placement, save with its done
// ledger entry, the execution row, the outcome), one write per transaction.
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { BatchSpec } from '../shared/engine/model';
import type { WorkflowDetail } from '../shared/service/model';
import type { Journal } from '../main/core/journal';
import type { BatchRecord, NewItem } from '../main/core/journal/types';
import { claimKeyOf } from '../main/core/journal/claims';
import { doneKeyOf, savedEntry } from '../main/core/journal/done-ledger';

export interface SeedBatch {
  batch: BatchRecord;
  items: NewItem[];
}

export interface SeedSource {
  path: string;
  contentHash: string;
}

/** A live service's result link is signed (≈ 200 characters); the sandbox's are shorter. */
const resultUrlOf = (executionId: string): string =>
  `https://results.example-service.net/v1/results/${executionId}/1.jpg?X-Expires=1796428800&X-Key-Id=k1&X-Signature=${createHash('sha256').update(executionId).digest('hex')}`;

/**
 * A batch of `count` items as the planner journals it: photos in folders of 100 under `inputRoot`; `source(i)` gives
 * a real file's path and hash where the run needs one (else a path and a hash of its own).
 */
export function plannedBatch(spec: BatchSpec, workflow: WorkflowDetail, accountId: string, count: number, inputRoot: string,
  source: (index: number) => SeedSource | null = () => null): SeedBatch {
  const at = new Date().toISOString();
  const field = Object.keys(spec.inputs.mappings[0] ?? {})[0] ?? imageFieldOf(workflow);
  const batch: BatchRecord = {
    id: randomUUID(), spec, workflow, creditCost: workflow.creditCost, state: 'running', pausedReason: null, pauseCode: null,
    createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: spec.output.outputFolder,
  };
  const items: NewItem[] = [];
  for (let i = 0; i < count; i++) {
    const real = source(i);
    const relDir = `shoot-${String(Math.floor(i / 100)).padStart(4, '0')}`;
    const name = `IMG_${String(i).padStart(6, '0')}.jpg`;
    const contentHash = real?.contentHash ?? createHash('sha256').update(`seed photo ${i}`).digest('hex');
    items.push({
      id: randomUUID(), position: i, displayName: real ? real.path.split('/').pop()! : name,
      sources: { [field]: real?.path ?? join(inputRoot, relDir, name) }, relDir: real ? '' : relDir, contentHash, state: 'pending', reason: null,
      claimKey: claimKeyOf(doneKeyOf(spec, contentHash), accountId), payAgainOver: null,
    });
  }
  return { batch, items };
}

function imageFieldOf(workflow: WorkflowDetail): string {
  return workflow.inputSchema.imageFields[0]?.id ?? 'photo';
}

/** One journal write of the sequence: what it is, and whether the engine makes it durable (fsynced). */
export interface SeqStep {
  name: string;
  durable: boolean;
  run: () => void;
}

/**
 * The engine's writes for one photo it sends, polls, downloads and saves (engine/*.ts), in order. `inTransaction`:
 * for seeding inside one transaction, where SQLite refuses the fsynced writes' `synchronous = FULL`: the same rows
 * without it, and the accept as its item update only — its execution row is written by `addExecutionRows` after.
 */
export function saveSequence(journal: Journal, batch: BatchRecord, item: NewItem, now: () => string, inTransaction = false): SeqStep[] {
  const durably = { durable: !inTransaction };
  const executionId = randomUUID();
  const output = join(batch.outputFolder, item.relDir, item.displayName.replace(/\.jpg$/, '_color-grade.jpg'));
  const source = Object.values(item.sources)[0]!;
  const step = (name: string, run: () => void, durable = false): SeqStep => ({ name, durable, run });
  return [
    step('encode', () => journal.updateItem(item.id, { event: 'encode', reason: 'reading the photo' })),
    step('encoded', () => journal.updateItem(item.id, { reason: 'ready to send' })),
    step('submit', () => journal.updateItem(item.id, { event: 'submit', attempts: 1, reason: null }, durably), true),
    step('accept', () => (inTransaction
      ? journal.updateItem(item.id, { event: 'accept', executionId, creditsCharged: batch.creditCost, progress: 0, submittedAt: now(), reason: null })
      : journal.recordAccepted(item.id, executionId, batch.creditCost, now())), true),
    step('progress', () => journal.updateItem(item.id, { event: 'progress', progress: 40 })),
    step('complete', () => {
      journal.updateExecution(executionId, { status: 'completed', completedAt: now() });
      journal.updateItem(item.id, { event: 'complete', progress: 100, resultUrls: [resultUrlOf(executionId)], resultLabels: [null], completedAt: now() });
    }),
    step('temp', () => journal.updateItem(item.id, { pendingTemp: `${output}.batchroom-${executionId.slice(0, 8)}.tmp`, pendingFinal: null })),
    step('final-name', () => journal.updateItem(item.id, { pendingFinal: output }, durably), true),
    step('placed', () => journal.updateItem(item.id, { outputs: [output], pendingTemp: null, pendingFinal: null })),
    step('save', () => journal.updateItem(item.id, { event: 'save', reason: null, completedAt: now() }, {
      ledger: savedEntry(batch.spec, { id: item.id, contentHash: item.contentHash!, sourcePath: source, outputs: [output], executionId }, now()),
    })),
  ];
}

/**
 * The execution rows (and the batch's spend) that `recordAccepted` would have written for the items seeded with
 * `saveSequence(…, inTransaction)`: one statement over the seeded items, through the journal file's own connection.
 */
export function addExecutionRows(db: { exec(sql: string): unknown; prepare(sql: string): { run(...args: unknown[]): unknown } }, batchId: string): void {
  db.prepare(`INSERT INTO executions (id, item_id, batch_id, created_at, status, credits, error, completed_at)
    SELECT execution_id, id, batch_id, submitted_at, 'completed', credits_charged, NULL, completed_at FROM items
    WHERE batch_id = ? AND execution_id IS NOT NULL AND execution_id NOT IN (SELECT id FROM executions)`).run(batchId);
  db.prepare(`UPDATE batches SET credits_spent = (SELECT COALESCE(SUM(credits), 0) FROM executions WHERE batch_id = ?) WHERE id = ?`).run(batchId, batchId);
}
