import type { SkippedInput } from './model';

/** Where a skip reason is shown: each names its own way to include sub-folders. */
export type SkipSurface = 'cli' | 'app' | 'hot-folder';

const SUBFOLDER_HINT: Record<SkipSurface, string> = {
  cli: 'add --recursive',
  app: 'turn on "Include photos in subfolders"',
  'hot-folder': 'turn on "Watch subfolders too"',
};

/** A skip reason as a user reads it there ("12 photos in 3 subfolders not included: add --recursive"). */
export function describeSkip(skip: SkippedInput, surface: SkipSurface): string {
  return skip.subfolders ? `${skip.reason}: ${SUBFOLDER_HINT[surface]}` : skip.reason;
}
