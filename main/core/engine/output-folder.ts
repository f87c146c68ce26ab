import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { BatchInputs } from '../../../shared/engine/model';
import { DEFAULT_OUTPUT_FOLDER_NAME } from '../../../shared/engine/model';

// Where results go when the batch names no folder: a `Batchroom` folder next to the photos, as Lightroom and
// Capture One export next to the originals by default. "Next to" the first input: inside a dropped folder, or beside
// a dropped file (and beside the first file of a multi-image mapping).

const isUrl = (s: string) => /^https?:\/\//i.test(s);

export async function defaultOutputFolder(inputs: BatchInputs): Promise<string | null> {
  const first = inputs.paths.find((p) => !isUrl(p)) ?? inputs.mappings.flatMap((m) => Object.values(m)).find((p) => !isUrl(p));
  if (!first) return null;
  const absolute = resolve(first);
  try {
    const info = await stat(absolute);
    return join(info.isDirectory() ? absolute : dirname(absolute), DEFAULT_OUTPUT_FOLDER_NAME);
  } catch {
    // A missing input is reported by the scan; its parent is still where the user meant results to go.
    return join(dirname(absolute), DEFAULT_OUTPUT_FOLDER_NAME);
  }
}
