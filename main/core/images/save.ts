import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { CollisionPolicy } from '../../../shared/engine/model';
import { cutToBytes } from '../../../shared/naming/component';
import { outputFs as fs, writeAll } from './output-fs';

// Safe saving: a result is streamed into a temp file beside its destination, checked to decode, fsynced, and only
// then given its final name in one atomic step. A crash at any moment leaves either no file or a complete one (plus
// at worst a `.batchroom-*.part` temp that recovery removes). Originals are never written into or over.

export const TEMP_PREFIX = '.batchroom-';
export const TEMP_SUFFIX = '.part';

/** The longest second file a temp gets (see DERIVED_TEMP_SUFFIXES): ExifTool's `<temp>_exiftool_tmp`. */
const LONGEST_DERIVED = '_exiftool_tmp';

/**
 * A temp beside the destination. Its name never depends on the source's: the id part is cut (UTF-8 aware) so the
 * temp and every second file made from it fit 255 bytes whatever the caller passes.
 */
export function tempPathFor(folder: string, itemId: string): string {
  const random = randomBytes(4).toString('hex');
  const room = 255 - Buffer.byteLength(`${TEMP_PREFIX}-${random}${TEMP_SUFFIX}${LONGEST_DERIVED}`);
  return join(folder, `${TEMP_PREFIX}${cutToBytes(itemId, room)}-${random}${TEMP_SUFFIX}`);
}

/**
 * A temp is rewritten in place through a second file, renamed over it: the format/colour step's `<temp>.finish`
 * (finish-result.ts) and ExifTool's `<temp>_exiftool_tmp` (the metadata write). A kill between write and rename
 * leaves that second file, which is ours to sweep like the temp itself. An XMP sidecar is written by ExifTool to
 * `.batchroom-<random>.xmp` (it picks the format from the extension) and renamed: ours too.
 */
const DERIVED_TEMP_SUFFIXES = [...['', '.finish', '_exiftool_tmp'].map((derived) => `${TEMP_SUFFIX}${derived}`), '.xmp'];

export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && DERIVED_TEMP_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/** The second files a temp may have (see DERIVED_TEMP_SUFFIXES): removed with it when a save fails. */
export function derivedTempsOf(tempPath: string): string[] {
  return [`${tempPath}.finish`, `${tempPath}_exiftool_tmp`];
}

export class SaveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SaveError';
  }
}

export function describeWriteError(error: unknown, folder: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `cannot write to ${folder} (read-only or permission denied)`;
  if (code === 'ENOSPC') return `disk full while writing to ${folder}`;
  if (code === 'ENOTDIR' || code === 'EEXIST') return `cannot create output folder ${folder}: a file is in the way`;
  if (code === 'ENAMETOOLONG') return 'output path too long';
  return `cannot save into ${folder} (${error instanceof Error ? error.message : String(error)})`;
}

/**
 * Streams `body` into `tempPath` (created exclusively), then fsyncs it. On any failure — the disk filling half way
 * (ENOSPC on a write or on the fsync), the body breaking off, an abort — the temp is removed before the error is
 * rethrown: a failed write never leaves a file behind.
 */
export async function writeTemp(tempPath: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<number> {
  await fs.mkdir(dirname(tempPath), { recursive: true });
  // Owner-only while it is written: the result's own mode is given before it gets its final name (result-mode.ts).
  const handle = await fs.open(tempPath, 'wx', 0o600);
  let bytes = 0;
  try {
    try {
      for await (const chunk of body) {
        await writeAll(handle, chunk);
        bytes += chunk.byteLength;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fs.unlink(tempPath).catch(() => undefined);
    throw error;
  }
  return bytes;
}

/**
 * fsync of a temp rewritten after writeTemp synced it: ExifTool's -overwrite_original renames a NEW inode over it,
 * whose data nothing synced — linked to its final name as it is, a power cut could leave that name empty or torn
 * while the journal and the done ledger say saved. fsync (not fdatasync) also carries the capture-time utimes.
 */
export async function syncRewrittenTemp(tempPath: string): Promise<void> {
  // r+: Windows' FlushFileBuffers needs write access.
  const handle = await fs.open(tempPath, 'r+');
  try { await handle.sync(); } finally { await handle.close(); }
}

/** Decodes the whole file (a truncated download fails here, not in the user's viewer); returns its format. */
export async function verifyImage(path: string): Promise<{ format: string; width: number; height: number }> {
  const image = sharp(path, { failOn: 'warning', limitInputPixels: 200_000_000 });
  const meta = await image.metadata();
  await image.resize(32, 32, { fit: 'inside' }).raw().toBuffer();
  return { format: meta.format ?? 'unknown', width: meta.width ?? 0, height: meta.height ?? 0 };
}

const exists = async (path: string) => access(path, constants.F_OK).then(() => true, () => false);

/**
 * Gives the verified temp file its final name. `overwrite` renames over; otherwise a hard link claims the name
 * atomically (EEXIST if someone took it meanwhile → 'taken'), then the temp is unlinked. File systems without hard
 * links fall back to check-then-rename.
 */
export async function placeFile(tempPath: string, finalPath: string, policy: CollisionPolicy): Promise<'placed' | 'taken'> {
  if (policy === 'overwrite') {
    await fs.rename(tempPath, finalPath);
  } else {
    try {
      await fs.link(tempPath, finalPath);
      // The result is in place from here on: a disk that turns read-only now refuses the temp's unlink, which must
      // not make a placed result look unsaved (it would be saved again as "name (2)"). The caller removes it later.
      await fs.unlink(tempPath).catch(() => undefined);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return 'taken';
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
      if (await exists(finalPath)) return 'taken';
      await fs.rename(tempPath, finalPath);
    }
  }
  await syncFolder(dirname(finalPath));
  return 'placed';
}

/** Completes a placement interrupted by a crash: the final name was chosen and recorded, the temp may remain. */
export async function finishPlacement(tempPath: string, finalPath: string): Promise<'placed' | 'missing'> {
  const [temp, final] = await Promise.all([fs.stat(tempPath).catch(() => null), fs.stat(finalPath).catch(() => null)]);
  if (temp && final && temp.ino === final.ino && temp.dev === final.dev) {
    // Placed (the link was made): a temp the disk will not let go of now is swept later.
    await fs.unlink(tempPath).catch(() => undefined);
    return 'placed';
  }
  if (temp) {
    await fs.rename(tempPath, finalPath);
    await syncFolder(dirname(finalPath));
    return 'placed';
  }
  return final ? 'placed' : 'missing';
}

/** fsync of the folder makes the rename itself durable (POSIX); Windows cannot open folders and does not need it. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await fs.open(folder, 'r');
    try { await handle.sync(); } finally { await handle.close(); }
  } catch {
    // not supported here (Windows, some network file systems): the rename is still atomic, only its durability is not forced
  }
}

/** Small JSON written atomically the same way as results (temp, fsync, rename); no temp is left when it fails. */
export async function writeJsonAtomic(path: string, value: unknown, options: { mode?: number } = {}): Promise<void> {
  const temp = `${dirname(path)}/${TEMP_PREFIX}${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`;
  await writeTemp(temp, [Buffer.from(`${JSON.stringify(value, null, 2)}\n`)]);
  try {
    if (options.mode !== undefined) await fs.chmod(temp, options.mode); // given before it has its name
    await fs.rename(temp, path);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}
