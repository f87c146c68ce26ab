import { deliverableRelPath, deliverablesOf, folderUsesCapture } from '../../../shared/engine/deliverables';
import type { BatchSpec } from '../../../shared/engine/model';
import { namingSourceOf } from '../../../shared/naming';
import { captureTokens, type CaptureInfo } from '../images/capture';
import type { ItemRecord } from '../journal/types';

/** Reads a source's capture info (the engine's ExifTool, cached per file). */
export type CaptureReader = (source: string) => Promise<CaptureInfo | null>;

/**
 * Where deliverable `d` of an item goes, relative to the batch's output folder: the deliverable's folder (tokens
 * filled in; the photo's capture date read only when the folder asks for it) and then the item's own sub-folder.
 */
export async function deliverableRelDir(
  spec: Pick<BatchSpec, 'output' | 'deliverables' | 'job' | 'client'>, d: number, item: Pick<ItemRecord, 'sources' | 'relDir'>,
  fieldOrder: readonly string[], capture?: CaptureReader,
): Promise<string> {
  const folder = deliverablesOf(spec)[d]?.folder ?? '';
  let captureDate: string | null = null;
  if (folderUsesCapture(folder) && capture) {
    captureDate = captureTokens(await capture(namingSourceOf(item.sources, fieldOrder)).catch(() => null)).capture_date ?? null;
  }
  return deliverableRelPath(folder, { job: spec.job, client: spec.client, captureDate }, item.relDir);
}
