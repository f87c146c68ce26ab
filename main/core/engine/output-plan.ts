import { extname, join } from 'node:path';
import type { BatchSpec } from '../../../shared/engine/model';
import { statesOf } from '../../../shared/engine/item-states';
import {
  expectedExtension, nameKey, namingSourceOf, planOutputNames, safeRelDir, sourceExtension, usesCaptureTokens,
  type NamingItem, type NamingOutput, type PlannedOutput,
} from '../../../shared/naming';
import { captureTokens, type CaptureInfo } from '../images/capture';
import type { WorkflowDetail } from '../../../shared/service/model';
import { existingNames, relativeInside } from '../images/output-names';
import type { Journal } from '../journal/journal';
import type { BatchRecord, ItemRecord, NewItem } from '../journal/types';
import type { NamePlanCache } from './name-plan-cache';

// The engine's two uses of the namer: the estimate's preview (before anything runs) and the saver's final name
// (when a result is in hand). Both plan every item of the batch the same way, so the preview is what gets written.

/** Items that will (or may still) be saved take part in naming; skipped and cancelled ones never write a file. */
const NAMED_STATES = statesOf('named');

export const imageFieldOrder = (workflow: WorkflowDetail): string[] => workflow.inputSchema.imageFields.map((f) => f.id);

function namingItemOf(
  item: Pick<ItemRecord, 'id' | 'sources' | 'relDir' | 'position'>, fieldOrder: readonly string[], outputs: NamingOutput[],
  execution?: string | null, capture: Record<string, string | undefined> = {},
): NamingItem {
  return {
    key: item.id, sourcePath: namingSourceOf(item.sources, fieldOrder), relDir: item.relDir, index: item.position + 1, outputs,
    tokens: { ...capture, ...(execution ? { execution } : {}) },
  };
}

/** Reads a source's capture info (the engine's ExifTool, cached per file). */
export type CaptureReader = (source: string) => Promise<CaptureInfo | null>;

/**
 * Each item's {capture_date} {capture_time} {camera}, read once per source and only when the template uses them
 * (an ExifTool call per photo the first time).
 */
export async function captureTokensOf(
  template: string, items: readonly Pick<ItemRecord, 'id' | 'sources'>[], fieldOrder: readonly string[], capture: CaptureReader | undefined,
): Promise<Map<string, Record<string, string | undefined>>> {
  const out = new Map<string, Record<string, string | undefined>>();
  if (!capture || !usesCaptureTokens(template)) return out;
  await Promise.all(items.map(async (item) => out.set(item.id, captureTokens(await capture(namingSourceOf(item.sources, fieldOrder)).catch(() => null)))));
  return out;
}

const predicted = (item: Pick<ItemRecord, 'sources'>, fieldOrder: readonly string[], format: string, count = 1): NamingOutput[] =>
  Array.from({ length: Math.max(1, count) }, () => ({ ext: expectedExtension(namingSourceOf(item.sources, fieldOrder), format) }));

export interface NamingPreview {
  entries: { source: string; output: string; note?: string }[];
  /** Items the preview does not list. */
  more: number;
}

/** The names the batch's first `count` items will be written under (collision suffixes included), and how many more. */
export async function previewOutputNames(
  spec: BatchSpec, workflow: WorkflowDetail, items: readonly NewItem[], at: Date, count = 5, capture?: CaptureReader,
): Promise<NamingPreview> {
  const fieldOrder = imageFieldOrder(workflow);
  const runnable = items.filter((i) => i.state === 'pending').sort((a, b) => a.position - b.position);
  const captured = await captureTokensOf(spec.output.namingTemplate, runnable, fieldOrder, capture);
  const namingItems = runnable.map((item) => namingItemOf(item, fieldOrder, predicted(item, fieldOrder, spec.output.format), null, captured.get(item.id)));
  const out = spec.output.outputFolder;
  const existing = await existingNames(out, runnable.map((i) => i.relDir));
  const protectedNames = relativeInside(out, items.flatMap((i) => Object.values(i.sources)));
  const plan = planOutputNames(namingItems.slice(), {
    template: spec.output.namingTemplate, workflow: workflow.id, total: runnable.length, at, policy: spec.output.collisionPolicy, protectedNames,
  }, existing);
  const entries = plan.slice(0, count).map((planned, i) => {
    const output = planned.outputs[0]!;
    const note = output.action === 'skip' ? 'exists already: not saved (collision policy "skip")'
      : output.action === 'overwrite' ? 'replaces the existing file (collision policy "overwrite")' : undefined;
    return { source: namingItems[i]!.sourcePath, output: join(out, ...output.relPath.split('/')), ...(note ? { note } : {}) };
  });
  return { entries, more: Math.max(0, runnable.length - entries.length) };
}

/**
 * The name for result `n` (0-based) of `item`, whose real extension is now known. Other items of the batch in the
 * same folder take part as in the preview: saved ones keep the names they have, the rest are planned with their
 * predicted extension (corrected by what the service returned for earlier results of the same kind), so who gets
 * the plain name does not depend on which download finished first. The folder's plan is reused from `cache` while
 * its assumptions hold; `takenMeanwhile` (names found taken when placing) forces a fresh look at the folder.
 */
export async function planResultName(
  journal: Journal, batch: BatchRecord, item: ItemRecord, n: number, ext: string, total: number,
  options: { originals: Iterable<string>; takenMeanwhile: readonly string[]; cache: NamePlanCache; capture?: CaptureReader },
): Promise<PlannedOutput> {
  const { cache } = options;
  const fieldOrder = imageFieldOrder(batch.workflow);
  const relDir = safeRelDir(item.relDir);
  const extsOf = (record: ItemRecord, count: number, fallback: string) =>
    Array.from({ length: Math.max(1, count) }, (_, i) => (i < record.outputs.length ? extname(record.outputs[i]!).toLowerCase() : fallback));
  const exts = extsOf(item, item.resultUrls.length, ext);
  cache.learn(batch.id, sourceExtension(namingSourceOf(item.sources, fieldOrder)), ext);
  // Only what the template uses can invalidate a plan (an execution id arriving does not, unless it is in the name).
  const template = batch.spec.output.namingTemplate;
  const executionOf = (record: ItemRecord) => (template.includes('{execution}') ? record.executionId : null);
  const positionOf = (record: ItemRecord) => (template.includes('{index}') ? record.position : 0);
  const labelsOf = (record: ItemRecord, count: number) => Array.from({ length: count }, (_, i) => record.resultLabels[i] ?? null);
  const assumed = { exts, labels: labelsOf(item, exts.length), execution: executionOf(item), position: positionOf(item) };
  if (options.takenMeanwhile.length === 0) {
    const cached = cache.lookup(batch.id, relDir, item.id, n, assumed);
    if (cached) return cached;
  }

  const out = batch.outputFolder;
  const siblings = journal.itemsInStates(batch.id, NAMED_STATES).filter((s) => s.id !== item.id && safeRelDir(s.relDir) === relDir);
  const ownOutputs = new Set(relativeInside(out, [...siblings.flatMap((s) => s.outputs), ...item.outputs]).map(nameKey));
  const unsaved = siblings.filter((s) => s.outputs.length === 0);
  const protectedNames = [...relativeInside(out, options.originals), ...relativeInside(out, siblings.filter((s) => s.outputs.length > 0).flatMap((s) => s.outputs))];
  const existing = (await existingNames(out, [relDir])).filter((name) => !ownOutputs.has(nameKey(name))).concat(options.takenMeanwhile);
  const predictedExt = (record: ItemRecord) => {
    const source = namingSourceOf(record.sources, fieldOrder);
    return cache.learnedExt(batch.id, sourceExtension(source)) ?? expectedExtension(source, batch.spec.output.format);
  };
  const planned = [{ record: item, exts }, ...unsaved.map((s) => ({ record: s, exts: extsOf(s, s.resultUrls.length, predictedExt(s)) }))];
  const outputsOf = (record: ItemRecord, e: readonly string[]) => e.map((ext, i) => ({ ext, label: record.resultLabels[i] ?? null }));
  const captured = await captureTokensOf(template, planned.map((p) => p.record), fieldOrder, options.capture);
  const plan = planOutputNames(planned.map(({ record, exts: e }) => namingItemOf(record, fieldOrder, outputsOf(record, e), record.executionId, captured.get(record.id))), {
    template, workflow: batch.workflow.id, total, at: new Date(batch.createdAt), policy: batch.spec.output.collisionPolicy, protectedNames,
  }, existing);
  cache.store(batch.id, relDir, new Map(plan.map((p, i) => [p.key, {
    outputs: p.outputs, exts: planned[i]!.exts, labels: labelsOf(planned[i]!.record, planned[i]!.exts.length), execution: executionOf(planned[i]!.record), position: positionOf(planned[i]!.record),
  }])));
  return plan[0]!.outputs[n]!;
}
