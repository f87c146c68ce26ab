import type { HotFolderEngine } from './ports';
import { access, link, mkdir, rename, unlink } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { subfolderOf } from '../media/inside-root';

/**
 * Moves a processed original into `<root>/<Done|Failed>/<same sub-path>`. A name already taken there gets a
 * ` (2)`, ` (3)`… suffix: a second `IMG_0001.jpg` from another card must never overwrite the first.
 * Returns the new path.
 */
export async function moveOriginal(root: string, path: string, subfolder: string, fromSorted?: string): Promise<string> {
  // An original already sorted into `fromSorted`/ (Failed/, then saved by a retry) keeps its sub-path from there.
  const base = fromSorted ? join(root, fromSorted) : root;
  const rel = subfolderOf(base, path);
  const targetDir = join(root, subfolder, ...rel.split('/'));
  await mkdir(targetDir, { recursive: true });
  const ext = extname(path);
  const stem = basename(path, ext);
  for (let n = 1; n < 10_000; n++) {
    const candidate = join(targetDir, n === 1 ? `${stem}${ext}` : `${stem} (${n})${ext}`);
    if (await claim(path, candidate)) return candidate;
  }
  throw new Error(`no free name for ${basename(path)} in ${targetDir}`);
}

/**
 * link() + unlink() instead of rename(): link fails with EEXIST when the name is taken, so two moves racing for the
 * same name can never overwrite each other (rename would silently replace). Falls back to rename where hard links
 * are unsupported (some network and FAT volumes), after checking the name is free.
 */
async function claim(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EXDEV' || code === 'EINVAL') return renameIfFree(from, to);
    throw error;
  }
  await unlink(from);
  return true;
}

async function renameIfFree(from: string, to: string): Promise<boolean> {
  try {
    await access(to);
    return false;
  } catch {
    await rename(from, to);
    return true;
  }
}

/**
 * Moves an original and says so in the folder's activity; where it went, or null when it could not (already gone,
 * or a failure the activity reports). A failed item may be retried: the engine is told where its original now is.
 */
export async function moveOriginalReported(
  folder: { config: { path: string }; activity(kind: 'moved' | 'failed', path: string, message: string): void },
  engine: Pick<HotFolderEngine, 'sourceMoved'>,
  move: { path: string; subfolder: string; itemId: string | null; fromSorted?: string | undefined },
): Promise<string | null> {
  try {
    const target = await moveOriginal(folder.config.path, move.path, move.subfolder, move.fromSorted);
    folder.activity('moved', move.path, target);
    if (move.itemId) engine.sourceMoved?.(move.itemId, move.path, target);
    return target;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    folder.activity('failed', move.path, `could not move the original to ${move.subfolder}/: ${(error as Error).message}`);
    return null;
  }
}
