import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { SidecarKind } from '../../../shared/engine/model';
import { DEVELOP_SETTINGS_XMP } from './metadata-copy';
import { provenanceArgs, XMP_NAMESPACE, type Provenance, type ResultMetadataWriter } from './result-metadata';
import { TEMP_PREFIX, writeJsonAtomic } from './save';
import { outputFs } from './output-fs';

// Sidecars next to a result. `json`: Batchroom's provenance as JSON (`<result>.json`). `xmp`: a standard XMP sidecar
// named after the result's stem (`IMG_2041_color-grade.xmp`, where Lightroom, Capture One and Bridge look for it):
// the result's own metadata mapped to XMP plus the provenance — the provenance even under `strip`, since the user
// asked for the sidecar. Both are written to a temp name and renamed into place.

export function xmpSidecarPath(resultPath: string): string {
  return join(dirname(resultPath), `${basename(resultPath, extname(resultPath))}.xmp`);
}

export interface SidecarContext {
  provenance: Provenance;
  submittedAt: string | null;
  completedAt: string | null;
  creatorTool: string;
}

/**
 * A sidecar carries what its result carries (the XMP one the original's EXIF and GPS): it is readable by exactly
 * whom its result is (result-mode.ts narrowed that to what the original and the folder allow), never by the umask.
 */
const modeOf = async (resultPath: string): Promise<number> => (await outputFs.stat(resultPath)).mode & 0o777;

async function writeJsonSidecar(resultPath: string, c: SidecarContext): Promise<void> {
  await writeJsonAtomic(`${resultPath}.json`, {
    generator: 'Batchroom',
    workflow: { id: c.provenance.workflowId, name: c.provenance.workflowName },
    parameters: c.provenance.parameters,
    executionId: c.provenance.executionId,
    credits: c.provenance.creditsCharged,
    submittedAt: c.submittedAt,
    completedAt: c.completedAt,
    savedAt: new Date().toISOString(),
    source: { name: c.provenance.sourceName, sha256: c.provenance.sourceSha256 },
    ...(c.provenance.recipe ? { recipe: { name: c.provenance.recipe.name, fingerprint: c.provenance.recipe.fingerprint } } : {}),
  }, { mode: await modeOf(resultPath) });
}

async function writeXmpSidecar(writer: ResultMetadataWriter, resultPath: string, c: SidecarContext): Promise<void> {
  // -n: values copied as stored, not printed and parsed back (FocalLength 4.25 mm became 4.2).
  // ExifTool picks the output format from the extension and never overwrites: a temp `.xmp`, then an atomic rename.
  const temp = join(dirname(resultPath), `${TEMP_PREFIX}${randomBytes(4).toString('hex')}.xmp`);
  try {
    await writer.command([
      '-charset', 'filename=utf8', '-E', '-n', '-o', temp, '-tagsFromFile', resultPath, '-xmp:all', '-all:all>xmp:all',
      '-XMP-exif:DateTimeOriginal<SubSecDateTimeOriginal', '-XMP-photoshop:DateCreated<SubSecDateTimeOriginal',
      // `-all:all>xmp:all` maps a maker's tags by name into any XMP namespace, Camera Raw's included (a Canon
      // ColorTemperature became crs:ColorTemperature), which Lightroom would apply as a develop setting: deleted.
      // (The source is named rather than `@`: copied from `@`, the group deletion lost to the copy.)
      ...DEVELOP_SETTINGS_XMP.map((group) => `-${group}=`),
      ...provenanceArgs(c.provenance, c.creatorTool), resultPath,
    ]);
    await outputFs.chmod(temp, await modeOf(resultPath));
    await placeXmpSidecar(temp, xmpSidecarPath(resultPath));
  } catch (error) {
    await outputFs.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Writes the batch's sidecar next to a placed result; the warning to show when it could not be written. */
export async function writeSidecar(kind: SidecarKind, writer: ResultMetadataWriter | undefined, resultPath: string, c: SidecarContext): Promise<string | null> {
  if (kind === 'none') return null;
  try {
    if (kind === 'json') await writeJsonSidecar(resultPath, c);
    else if (writer) await writeXmpSidecar(writer, resultPath, c);
    else return 'the XMP sidecar was not written: no ExifTool';
    return null;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return `the ${kind.toUpperCase()} sidecar of ${basename(resultPath)} was not written (${message})`;
  }
}

/**
 * Gives the sidecar its name. An `.xmp` already there that Batchroom did not write is someone's own — a RAW's Lightroom
 * sidecar (`IMG_1.xmp` beside `IMG_1.CR2` when a result is named `IMG_1.jpg` in that folder) holds the photographer's
 * edits — and is never replaced: the sidecar is not written and the result says why. One of ours (an earlier result
 * of that name) is replaced.
 */
async function placeXmpSidecar(temp: string, destination: string): Promise<void> {
  const existing = await readFile(destination, 'utf8').catch(() => null);
  if (existing !== null && !existing.includes(XMP_NAMESPACE)) {
    throw new Error(`${basename(destination)} is already there and was not written by Batchroom (an original's sidecar?): kept as it is`);
  }
  await outputFs.rename(temp, destination);
}
