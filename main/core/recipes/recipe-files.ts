import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, closeSync, fsyncSync, linkSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AppError } from '../../../shared/errors';

/**
 * Writes `text` to `path` so a reader never sees half a file: a temp file in the same folder, flushed, then moved in.
 * `exclusive` creates only: the temp file is hard-linked to the name, which fails if the name exists — so two
 * processes saving the same new recipe cannot both win, and the loser's content is never half-written over the
 * winner's. Otherwise the temp file is renamed over whatever is there.
 */
export function writeFileAtomic(path: string, text: string, options: { mode?: number; exclusive?: boolean } = {}): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', options.mode ?? 0o666);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (options.exclusive) {
      linkSync(temp, path);
      unlinkSync(temp);
    } else {
      renameSync(temp, path);
    }
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw error;
  }
}

/** SHA-256 of a file's bytes (hex), read as a stream: a fixed image may be a 100 MB TIFF. */
export function sha256OfFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** A recipe file is a few KB; anything far larger is not one (and is not read into memory to find out). */
export const MAX_RECIPE_FILE_BYTES = 1024 * 1024;

/** The size of a file to import, or a readable error (missing, a folder, too large). */
export function checkImportable(path: string): void {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new AppError('validation', `${path}: not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new AppError(code === 'ENOENT' ? 'not_found' : 'validation', `${path}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? 'error'})`}`);
  }
  if (size > MAX_RECIPE_FILE_BYTES) throw new AppError('validation', `${path}: not a recipe file (${size} bytes; a recipe is a few KB)`);
}
