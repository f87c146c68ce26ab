import { extname, join } from 'node:path';
import type { BatchSpec } from '../../../shared/engine/model';
import { statesOf } from '../../../shared/engine/item-states';
import {
  expectedExtension, nameKey, namingSourceOf, planOutputNames, sourceExtension, usesCaptureTokens,
  type NamingItem, type NamingOutput, type PlannedOutput,
} from '../../../shared/naming';
import { captureTokens } from '../images/capture';
import type { WorkflowDetail } from '../../../shared/service/model';
import { existingNames, relativeInside } from '../images/output-names';
import type { Journal } from '../journal/journal';
import type { BatchRecord, ItemRecord, NewItem } from '../journal/types';
import type { NamePlanCache } from './name-plan-cache';
import { deliverableCount, deliverablesOf, outputsOfDeliverable } from '../../../shared/engine/deliverables';
import { deliverableRelDir, type CaptureReader } from './deliverable-folder';

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

export type { CaptureReader } from './deliverable-folder';

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
  // The first deliverable's folder (spec.output.folder) comes before each photo's own sub-folder.
  const relDirs = await Promise.all(runnable.map((item) => deliverableRelDir(spec, 0, item, fieldOrder, capture)));
  const namingItems = runnable.map((item, i) => namingItemOf({ ...item, relDir: relDirs[i]! }, fieldOrder, predicted(item, fieldOrder, spec.output.format), null, captured.get(item.id)));
  const out = spec.output.outputFolder;
  const existing = await existingNames(out, relDirs);
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
 * The name for result `n` (0-based) of `item` in deliverable `deliverable` (0: the batch's own output), whose real
 * extension is now known. Other items of the batch in the same folder take part as in the preview: saved ones keep
 * the names they have, the rest are planned with their predicted extension (corrected by what the service returned
 * for earlier results of the same kind), so who gets the plain name does not depend on which download finished
 * first. Each deliverable is planned on its own (its folder, template and format; its own outputs of each item).
 * The folder's plan is reused from `cache` while its assumptions hold; `takenMeanwhile` (names found taken when
 * placing) forces a fresh look at the folder.
 */
export async function planResultName(
  journal: Journal, batch: BatchRecord, item: ItemRecord, n: number, ext: string, total: number,
  options: { originals: Iterable<string>; takenMeanwhile: readonly string[]; cache: NamePlanCache; capture?: CaptureReader; deliverable?: number },
): Promise<PlannedOutput> {
  const { cache } = options;
  const d = options.deliverable ?? 0;
  const count = deliverableCount(batch.spec);
  const target = deliverablesOf(batch.spec)[d]!;
  const planKey = d === 0 ? batch.id : `${batch.id}#${d}`;
  const fieldOrder = imageFieldOrder(batch.workflow);
  const own = (record: ItemRecord) => outputsOfDeliverable(record.outputs, d, count);
  const relDirOf = (record: ItemRecord) => deliverableRelDir(batch.spec, d, record, fieldOrder, options.capture);
  const relDir = await relDirOf(item);
  const extsOf = (record: ItemRecord, resultCount: number, fallback: string) => {
    const outputs = own(record);
    return Array.from({ length: Math.max(1, resultCount) }, (_, i) => (i < outputs.length ? extname(outputs[i]!).toLowerCase() : fallback));
  };
  const exts = extsOf(item, item.resultUrls.length, ext);
  cache.learn(planKey, sourceExtension(namingSourceOf(item.sources, fieldOrder)), ext);
  // Only what the template uses can invalidate a plan (an execution id arriving does not, unless it is in the name).
  const template = target.namingTemplate;
  const executionOf = (record: ItemRecord) => (template.includes('{execution}') ? record.executionId : null);
  const positionOf = (record: ItemRecord) => (template.includes('{index}') ? record.position : 0);
  const labelsOf = (record: ItemRecord, labelCount: number) => Array.from({ length: labelCount }, (_, i) => record.resultLabels[i] ?? null);
  const assumed = { exts, labels: labelsOf(item, exts.length), execution: executionOf(item), position: positionOf(item) };
  if (options.takenMeanwhile.length === 0) {
    const cached = cache.lookup(planKey, relDir, item.id, n, assumed);
    if (cached) return cached;
  }

  const out = batch.outputFolder;
  const named = journal.itemsInStates(batch.id, NAMED_STATES).filter((s) => s.id !== item.id);
  const namedDirs = await Promise.all(named.map(relDirOf));
  const siblings = named.filter((_, i) => namedDirs[i] === relDir);
  const ownOutputs = new Set(relativeInside(out, [...siblings.flatMap(own), ...own(item)]).map(nameKey));
  const unsaved = siblings.filter((s) => own(s).length === 0);
  // The batch's files of its other deliverables are never written over, whatever the collision policy: two
  // deliverables that name the same file (same folder, template and format) get a suffix, not each other's bytes.
  const otherDeliverables = count > 1 ? [item, ...named].flatMap((r) => r.outputs.filter((_, k) => k % count !== d)) : [];
  const protectedNames = [
    ...relativeInside(out, options.originals), ...relativeInside(out, siblings.filter((s) => own(s).length > 0).flatMap(own)),
    ...relativeInside(out, otherDeliverables),
  ];
  const existing = (await existingNames(out, [relDir])).filter((name) => !ownOutputs.has(nameKey(name))).concat(options.takenMeanwhile);
  const predictedExt = (record: ItemRecord) => {
    const source = namingSourceOf(record.sources, fieldOrder);
    return cache.learnedExt(planKey, sourceExtension(source)) ?? expectedExtension(source, target.format);
  };
  const planned = [{ record: item, exts }, ...unsaved.map((s) => ({ record: s, exts: extsOf(s, s.resultUrls.length, predictedExt(s)) }))];
  const outputsOf = (record: ItemRecord, e: readonly string[]) => e.map((x, i) => ({ ext: x, label: record.resultLabels[i] ?? null }));
  const captured = await captureTokensOf(template, planned.map((p) => p.record), fieldOrder, options.capture);
  const plan = planOutputNames(planned.map(({ record, exts: e }) => namingItemOf({ ...record, relDir }, fieldOrder, outputsOf(record, e), record.executionId, captured.get(record.id))), {
    template, workflow: batch.workflow.id, total, at: new Date(batch.createdAt), policy: batch.spec.output.collisionPolicy, protectedNames,
  }, existing);
  cache.store(planKey, relDir, new Map(plan.map((p, i) => [p.key, {
    outputs: p.outputs, exts: planned[i]!.exts, labels: labelsOf(planned[i]!.record, planned[i]!.exts.length), execution: executionOf(planned[i]!.record), position: positionOf(planned[i]!.record),
  }])));
  return plan[0]!.outputs[n]!;
}
