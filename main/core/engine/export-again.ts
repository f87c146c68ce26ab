import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ExportRequestSchema, type ExportRequest, type NotExportable } from '../../../shared/engine/export-request';
import type { BatchSpec } from '../../../shared/engine/model';
import { AppError } from '../../../shared/errors';
import type { Journal } from '../journal/journal';
import { itemsOfBatch } from '../journal/item-pages';
import type { BatchRecord, ItemRecord, NewItem } from '../journal/types';
import { checkOutputFolder, specWithOutputFolder } from './output-folder';

// "Export again without paying": results already paid for become new deliverables (another format, size, folder,
// watermark) without a new execution. An export is a batch of its own (its items, names and progress are the
// engine's usual ones) whose items start from the paid results — the result cache's bytes, else the result URL
// (refreshed from the execution, which is free) — and which never sends anything: exportOf marks it, and the
// submit path refuses such a batch (submit-item.ts). One export batch per source batch, so each keeps its workflow
// and parameters for names ({workflow}) and provenance.

export { ExportRequestSchema, type ExportRequest, type NotExportable } from '../../../shared/engine/export-request';

export interface ExportPlan {
  /** Per source batch: its exportable items. */
  sources: { batch: BatchRecord; items: ItemRecord[] }[];
  notExportable: NotExportable[];
}

/** Why a paid result of `item` cannot be made again (null: it can). */
export function notExportableReason(item: ItemRecord): string | null {
  if (item.state === 'charged-no-result') return 'charged, but the service lost its result: nothing to export';
  if (!item.executionId || item.resultUrls.length === 0) {
    if (item.state === 'skipped' || item.state === 'cancelled') return null; // not a photo of this batch's own
    return 'never paid for in this batch: nothing to export (run it to pay for it)';
  }
  return null;
}

/** The paid results the request names, and what of it cannot be exported (and why). */
export function planExport(journal: Journal, from: z.infer<typeof ExportRequestSchema>['from']): ExportPlan {
  let batches: BatchRecord[];
  let since: number | null = null;
  if ('batchId' in from) {
    let batch = journal.getBatch(from.batchId);
    if (!batch && from.batchId.length >= 8) {
      const matches = journal.listBatches().filter((b) => b.id.startsWith(from.batchId));
      if (matches.length > 1) throw new AppError('validation', `${from.batchId} names ${matches.length} batches: give more of the id`, { field: 'batchId' });
      batch = matches[0] ?? null;
    }
    if (!batch) throw new AppError('not_found', `no batch ${from.batchId} in this state folder (give its id, or at least its first 8 characters)`);
    batches = [batch];
  } else {
    since = Date.parse(from.since);
    if (Number.isNaN(since)) throw new AppError('validation', `--since ${from.since}: not a date (use 2026-11-01 or 2026-11-01T09:00)`, { field: 'since' });
    batches = journal.listBatches().filter((b) => Date.parse(b.updatedAt) >= since!);
  }
  const seen = new Set<string>();
  const sources: ExportPlan['sources'] = [];
  const notExportable: NotExportable[] = [];
  for (const batch of batches) {
    if (batch.spec.exportOf) continue; // an export of an export is the same paid result again: its source is listed
    const items: ItemRecord[] = [];
    for (const item of itemsOfBatch(journal, batch.id)) {
      if (since !== null && (!item.completedAt || Date.parse(item.completedAt) < since)) continue;
      const reason = notExportableReason(item);
      if (reason) notExportable.push({ batchId: batch.id, displayName: item.displayName, reason });
      else if (item.executionId && item.resultUrls.length > 0 && !seen.has(item.executionId)) {
        seen.add(item.executionId); // one paid result exported once, whichever batches took it
        items.push(item);
      }
    }
    if (items.length > 0) sources.push({ batch, items });
  }
  return { sources, notExportable };
}

export interface ExportDeps {
  journal: Journal;
  now: () => Date;
  /** Starts saving an item that is `downloading` (the engine's downloader). */
  enqueueDownload(itemId: string): void;
  markBatch(batchId: string): void;
  checkBatchDone(batchId: string): void;
}

/** Journals one export batch per source batch, its items already holding their paid results; their ids. */
export async function createExports(deps: ExportDeps, input: ExportRequest): Promise<{ batchIds: string[]; notExportable: NotExportable[] }> {
  const request = ExportRequestSchema.parse(input);
  const plan = planExport(deps.journal, request.from);
  const batchIds: string[] = [];
  // Only what the request says replaces the source batch's output settings (the schema's defaults would otherwise
  // undo a source's `strip` metadata or its names): the keys given, read back parsed.
  const given = Object.fromEntries(Object.keys(input.output).map((key) => [key, (request.output as Record<string, unknown>)[key]]));
  for (const { batch: source, items } of plan.sources) {
    const output = { ...source.spec.output, folder: '', ...given };
    // An export never writes over a file (the source's own paid results may be in that folder): suffix, or skip.
    if (output.collisionPolicy === 'overwrite') output.collisionPolicy = 'suffix';
    const spec: BatchSpec = await specWithOutputFolder({
      ...source.spec, inputs: { paths: [], mappings: [] }, output,
      deliverables: request.deliverables, job: request.job ?? source.spec.job, client: request.client ?? source.spec.client,
      exportOf: { batchId: source.id }, rerun: false, tryFirst: null, trialRest: null, budget: 0, source: { kind: source.spec.source.kind },
    });
    await checkOutputFolder(spec.output.outputFolder);
    const at = deps.now().toISOString();
    const batch: BatchRecord = {
      id: randomUUID(), spec, workflow: source.workflow, creditCost: 0, state: 'running', pausedReason: null, pauseCode: null,
      createdAt: at, updatedAt: at, creditsSpent: 0, budget: 0, outputFolder: spec.output.outputFolder,
    };
    const newItems: NewItem[] = items.map((item, position) => ({
      id: randomUUID(), position, displayName: item.displayName, sources: item.sources, relDir: item.relDir,
      contentHash: item.contentHash, state: 'pending', reason: null,
    }));
    // Each item takes its paid result in the same transaction as it is created: nothing of an export is ever pending
    // for the encoder (and should one be, submit-item.ts refuses to send it).
    deps.journal.createBatch(batch, newItems, () => newItems.forEach((created, i) => {
      const paid = items[i]!;
      deps.journal.updateItem(created.id, {
        event: 'export-result', executionId: paid.executionId, resultUrls: paid.resultUrls, resultLabels: paid.resultLabels,
        creditsCharged: 0, outputs: [], reason: null, submittedAt: paid.submittedAt, completedAt: null,
      });
    }));
    for (const created of newItems) deps.enqueueDownload(created.id);
    deps.markBatch(batch.id);
    deps.checkBatchDone(batch.id);
    batchIds.push(batch.id);
  }
  return { batchIds, notExportable: plan.notExportable };
}
