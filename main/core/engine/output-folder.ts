import { mkdir, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { BatchSpecSchema, type BatchInputs, type BatchSpec, type BatchSpecInput } from '../../../shared/engine/model';
import { AppError } from '../../../shared/errors';
import { tempPathFor, writeTemp } from '../images/save';
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

/** The spec checked, with its output folder made absolute (or chosen next to the photos when it names none). */
export async function specWithOutputFolder(input: BatchSpecInput): Promise<BatchSpec> {
  const parsed = BatchSpecSchema.safeParse(input);
  if (!parsed.success) throw new AppError('bad_request', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const named = parsed.data.output.outputFolder.trim();
  const outputFolder = named !== '' ? resolve(named) : await defaultOutputFolder(parsed.data.inputs);
  if (!outputFolder) throw new AppError('validation', 'choose an output folder: the inputs are all URLs, so there is no folder to save next to', { field: 'output.outputFolder' });
  return { ...parsed.data, output: { ...parsed.data.output, outputFolder } };
}

/**
 * A batch whose output folder cannot be written fails up front, not item by item. Returns the first folder it had to
 * create (undefined when the folder existed), so a batch that then does not start can take it away again.
 */
export async function checkOutputFolder(folder: string): Promise<string | undefined> {
  try {
    const created = await mkdir(folder, { recursive: true });
    const probe = tempPathFor(folder, 'probe');
    await writeTemp(probe, [Buffer.from('probe')]);
    await unlink(probe);
    return created;
  } catch (error) {
    throw new AppError('validation', `cannot write to the output folder ${folder} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { field: 'output.outputFolder' });
  }
}

/**
 * Takes away the folders checkOutputFolder created (`folder` up to `created`), as long as nothing was written into
 * them: rmdir refuses a folder that is not empty, and that one is kept.
 */
export async function removeIfEmpty(folder: string, created: string | undefined): Promise<void> {
  if (!created) return;
  for (let dir = folder; ; dir = dirname(dir)) {
    if (!(await rmdir(dir).then(() => true, () => false))) return;
    if (dir === created || dirname(dir) === dir) return;
  }
}
