import { extname, join } from 'node:path';
import type { BatchSpec, ItemState } from '../../../shared/engine/model';
import {
  expectedExtension, nameKey, namingSourceOf, planOutputNames, safeRelDir, type NamingItem, type NamingOutput, type PlannedOutput,
} from '../../../shared/naming';
import type { WorkflowDetail } from '../../../shared/service/model';
import { existingNames, relativeInside } from '../images/output-names';
import type { Journal } from '../journal/journal';
import type { BatchRecord, ItemRecord, NewItem } from '../journal/types';

// The engine's two uses of the namer: the estimate's preview (before anything runs) and the saver's final name
// (when a result is in hand). Both plan every item of the batch the same way, so the preview is what gets written.

/** Items that will (or may still) be saved take part in naming; skipped and cancelled ones never write a file. */
const NAMED_STATES: readonly ItemState[] = ['pending', 'encoding', 'submitting', 'submitted', 'running', 'downloading', 'saved', 'failed', 'unknown'];

export const imageFieldOrder = (workflow: WorkflowDetail): string[] => workflow.inputSchema.imageFields.map((f) => f.id);

function namingItemOf(item: Pick<ItemRecord, 'id' | 'sources' | 'relDir' | 'position'>, fieldOrder: readonly string[], outputs: NamingOutput[], execution?: string | null): NamingItem {
  return {
    key: item.id, sourcePath: namingSourceOf(item.sources, fieldOrder), relDir: item.relDir, index: item.position + 1, outputs,
    ...(execution ? { tokens: { execution } } : {}),
  };
}

const predicted = (item: Pick<ItemRecord, 'sources'>, fieldOrder: readonly string[], count = 1): NamingOutput[] =>
  Array.from({ length: Math.max(1, count) }, () => ({ ext: expectedExtension(namingSourceOf(item.sources, fieldOrder)) }));

export interface NamingPreview {
  entries: { source: string; output: string; note?: string }[];
  /** Items the preview does not list. */
  more: number;
}

/** The names the batch's first `count` items will be written under (collision suffixes included), and how many more. */
export async function previewOutputNames(spec: BatchSpec, workflow: WorkflowDetail, items: readonly NewItem[], at: Date, count = 5): Promise<NamingPreview> {
  const fieldOrder = imageFieldOrder(workflow);
  const runnable = items.filter((i) => i.state === 'pending').sort((a, b) => a.position - b.position);
  const namingItems = runnable.map((item) => namingItemOf(item, fieldOrder, predicted(item, fieldOrder)));
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
 * predicted extension, so who gets the plain name does not depend on which download finished first.
 */
export async function planResultName(
  journal: Journal, batch: BatchRecord, item: ItemRecord, n: number, ext: string, total: number, options: { originals: Iterable<string>; takenMeanwhile: readonly string[] },
): Promise<PlannedOutput> {
  const fieldOrder = imageFieldOrder(batch.workflow);
  const out = batch.outputFolder;
  const relDir = safeRelDir(item.relDir);
  const siblings = journal.itemsInStates(batch.id, NAMED_STATES).filter((s) => s.id !== item.id && safeRelDir(s.relDir) === relDir);
  const ownOutputs = new Set(relativeInside(out, [...siblings.flatMap((s) => s.outputs), ...item.outputs]).map(nameKey));
  const savedSiblings = siblings.filter((s) => s.outputs.length > 0);
  const protectedNames = [...relativeInside(out, options.originals), ...relativeInside(out, savedSiblings.flatMap((s) => s.outputs))];
  const existing = (await existingNames(out, [relDir])).filter((name) => !ownOutputs.has(nameKey(name))).concat(options.takenMeanwhile);
  const outputs = item.resultUrls.map((_, i): NamingOutput => ({ ext: i < item.outputs.length ? extname(item.outputs[i]!).toLowerCase() : ext }));
  const namingItems = [
    namingItemOf(item, fieldOrder, outputs, item.executionId),
    ...siblings.filter((s) => s.outputs.length === 0).map((s) => namingItemOf(s, fieldOrder, predicted(s, fieldOrder, s.resultUrls.length), s.executionId)),
  ];
  const plan = planOutputNames(namingItems, {
    template: batch.spec.output.namingTemplate, workflow: batch.workflow.id, total, at: new Date(batch.createdAt),
    policy: batch.spec.output.collisionPolicy, protectedNames,
  }, existing);
  return plan[0]!.outputs[n]!;
}
