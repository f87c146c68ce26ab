import { safeRelDir } from '../naming';
import type { BatchSpec, OutputOptions } from './model';

// One paid result, N files: a batch's deliverables are its output (deliverable 0) and spec.deliverables (1…N-1).
// An item's journalled outputs list every file in "slot" order — result 0's deliverables 0…N-1, then result 1's —
// so how far a save got is one number (outputs.length) whatever the crash, and recovery finishes the next slot.

/** What one deliverable makes of each result, with the batch-wide parts (output folder, collision policy) filled in. */
export type ResolvedDeliverable = Omit<OutputOptions, 'sidecars'> & { sidecars: boolean };

/** The batch's deliverables, first its own output. */
export function deliverablesOf(spec: Pick<BatchSpec, 'output'> & { deliverables?: BatchSpec['deliverables'] }): ResolvedDeliverable[] {
  const { outputFolder, collisionPolicy } = spec.output;
  return [spec.output, ...(spec.deliverables ?? []).map((d) => ({ ...d, outputFolder, collisionPolicy, sidecars: false }))];
}

/** How many files each result becomes. */
export const deliverableCount = (spec: Pick<BatchSpec, 'output'> & { deliverables?: BatchSpec['deliverables'] }): number =>
  1 + (spec.deliverables?.length ?? 0);

/** Which result and which deliverable slot `k` of an item's outputs is. */
export const slotOf = (k: number, count: number): { result: number; deliverable: number } =>
  ({ result: Math.floor(k / count), deliverable: k % count });

/** The outputs of one deliverable, in result order. */
export const outputsOfDeliverable = <T>(outputs: readonly T[], deliverable: number, count: number): T[] =>
  outputs.filter((_, k) => k % count === deliverable);

/** A token's value as one folder name: no separators (safeRelDir makes the rest safe), never `.` or `..`. */
function folderValue(value: string | undefined, missing: string): string {
  const clean = (value ?? '').replace(/[\\/]/g, '-').trim().replace(/^\.+|\.+$/g, '');
  return clean === '' ? missing : clean;
}

/**
 * A deliverable's folder with its tokens filled in ({job}, {client}: the batch's; {capture_date}: the photo's), as a
 * safe relative path ('' = the output folder itself). A value the batch or photo lacks becomes "no-job",
 * "no-client", "no-date", so those files stay together and visible; `captureDate` left out keeps `{capture_date}`
 * as it is (the estimate's list: it differs photo by photo).
 */
export function resolveDeliverableFolder(folder: string, values: { job?: string | undefined; client?: string | undefined; captureDate?: string | null }): string {
  let filled = folder.replace(/\{job\}/g, folderValue(values.job, 'no-job')).replace(/\{client\}/g, folderValue(values.client, 'no-client'));
  if (values.captureDate !== undefined) filled = filled.replace(/\{capture_date\}/g, folderValue(values.captureDate ?? undefined, 'no-date'));
  return safeRelDir(filled);
}

/** Where a deliverable's file of an item goes under the output folder: its folder, then the item's own sub-folder. */
export function deliverableRelPath(folder: string, values: Parameters<typeof resolveDeliverableFolder>[1], itemRelDir: string): string {
  return [resolveDeliverableFolder(folder, values), safeRelDir(itemRelDir)].filter((part) => part !== '').join('/');
}

export const folderUsesCapture = (folder: string): boolean => folder.includes('{capture_date}');

/** A deliverable as the estimate lists it (BatchEstimate.deliverables). */
export interface DeliverableSummary {
  folder: string;
  format: OutputOptions['format'];
  size: OutputOptions['size'];
  watermark: boolean;
}

/** The estimate's list of deliverables: empty for a batch that makes one file per result (nothing to say). */
export function summariseDeliverables(spec: Pick<BatchSpec, 'output' | 'deliverables' | 'job' | 'client'>): DeliverableSummary[] {
  const all = deliverablesOf(spec);
  if (all.length < 2) return [];
  return all.map((d) => ({
    // {capture_date} stays a token: it differs photo by photo.
    folder: resolveDeliverableFolder(d.folder, { job: spec.job, client: spec.client }),
    format: d.format, size: d.size, watermark: d.watermark !== undefined,
  }));
}

const FORMAT_WORDS: Record<OutputOptions['format'], string> = { source: 'format of the original', jpeg: 'JPEG', png: 'PNG', tiff: 'TIFF', webp: 'WebP' };

const SIZE_WORDS = (size: OutputOptions['size']): string | null =>
  size.fit === 'original' ? null : size.fit === 'long-edge' ? `long edge ${size.longEdge} px` : `${size.width}×${size.height} ${size.fit === 'cover' ? 'cropped' : 'fitted'}`;

/** One line per deliverable, e.g. "web/J1: PNG, long edge 2048 px, watermarked" (the CLI and the app's review). */
export function describeDeliverables(list: readonly DeliverableSummary[]): string[] {
  return list.map((d) => [
    `${d.folder === '' ? '(output folder)' : `${d.folder}/`}:`,
    [FORMAT_WORDS[d.format], SIZE_WORDS(d.size), d.watermark ? 'watermarked' : null]
      .filter((part) => part !== null).join(', '),
  ].join(' '));
}
