import { basename } from 'node:path';
import { ACCEPTED_IMAGE_EXTENSIONS, classifyInputName, skippedFolderReason, type InputClassification } from '../../../shared/media/input-policy';

// The input policy itself lives in shared/media/input-policy.ts (one place for every way in); these take paths.

export type { InputClassification };
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(ACCEPTED_IMAGE_EXTENSIONS);

export function classifyInputFile(path: string): InputClassification {
  return classifyInputName(basename(path));
}

/** Folders a scan never descends into. */
export function isSkippedFolder(name: string): boolean {
  return skippedFolderReason(name) !== null;
}
