import type { SkippedInput } from './model';

/** Where a skip reason is shown: each names its own way to include sub-folders. */
export type SkipSurface = 'cli' | 'app' | 'hot-folder';

const SUBFOLDER_HINT: Record<SkipSurface, string> = {
  cli: 'add --recursive',
  app: 'turn on "Include photos in subfolders"',
  'hot-folder': 'turn on "Watch subfolders too"',
};

/** How a photo skipped as maybe charged is paid for again there: the CLI's way is a flag, not "run again" alone. */
const PAY_AGAIN_HINT: Record<SkipSurface, string> = {
  cli: 'run again with --rerun to pay for it again',
  app: 'run again to pay for it again',
  'hot-folder': 'run again to pay for it again',
};

/** A skip reason as a user reads it there ("12 photos in 3 subfolders not included: add --recursive"). */
export function describeSkip(skip: SkippedInput, surface: SkipSurface): string {
  if (skip.subfolders) return `${skip.reason}: ${SUBFOLDER_HINT[surface]}`;
  return skip.payAgain ? `${skip.reason}, or ${PAY_AGAIN_HINT[surface]}` : skip.reason;
}

/**
 * The estimate's one line about RAW+JPEG pairs ("12 RAW+JPEG pairs counted once"), or null when there are none: the
 * pairs' other halves are listed among the skipped files, but a shoot of 400 pairs needs the count, not 400 lines.
 */
export function describeRawPairs(skipped: readonly SkippedInput[]): string | null {
  const pairs = skipped.filter((s) => s.rawPair).length;
  if (pairs === 0) return null;
  return `${pairs} RAW+JPEG ${pairs === 1 ? 'pair' : 'pairs'} counted once`;
}
