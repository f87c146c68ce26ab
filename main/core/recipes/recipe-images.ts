import { statSync } from 'node:fs';
import sharp from 'sharp';
import { resolve } from 'node:path';
import type { FixedImage, Recipe } from '../../../shared/recipes/recipe';
import { sha256OfFile } from './recipe-files';
import { AppError } from '../../../shared/errors';
import { MAX_WATERMARK_BYTES } from '../images/watermark';

/**
 * Whether an image a recipe names by path and content hash is there as saved: `ok`, `missing` (no file at the path),
 * `changed` (a file whose content is not the one the recipe was saved with: another machine's file of the same name,
 * or an edited one) or `unreadable`. A recipe moved to another machine is checked so that this shows before any spend.
 */
export interface RecipeImageCheck {
  /** Where the recipe names it: `fixedImages.<field>` or `deliverables.<n>.watermark`. */
  where: string;
  path: string;
  expected: string;
  status: 'ok' | 'missing' | 'changed' | 'unreadable';
  /** One line for a person (every status but `ok`). */
  message?: string;
}

async function checkOne(where: string, path: string, expected: string): Promise<RecipeImageCheck> {
  const base = { where, path, expected };
  try {
    if (!statSync(path).isFile()) return { ...base, status: 'missing', message: `${where}: ${path} is not a file` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ...base, status: 'missing', message: `${where}: ${path} is missing on this computer` };
    return { ...base, status: 'unreadable', message: `${where}: ${path} cannot be read (${code ?? 'error'})` };
  }
  try {
    if (statSync(path).size > MAX_WATERMARK_BYTES) return { ...base, status: 'unreadable', message: `${where}: ${path} is larger than ${MAX_WATERMARK_BYTES / 1024 ** 2} MB: not an image a recipe sends` };
    const actual = await sha256OfFile(path);
    if (actual === expected) return { ...base, status: 'ok' };
    return {
      ...base, status: 'changed',
      message: `${where}: ${path} is not the image the recipe was saved with (its content differs from the saved sha256 ${expected.slice(0, 12)}…)`,
    };
  } catch (error) {
    return { ...base, status: 'unreadable', message: `${where}: ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}

/** Every image the recipe names (fixed extra images, watermarks), checked against its saved content hash. */
export function checkRecipeImages(recipe: Recipe): Promise<RecipeImageCheck[]> {
  const wanted = [
    ...Object.entries(recipe.fixedImages).map(([field, image]) => [`fixedImages.${field}`, image.path, image.sha256] as const),
    ...recipe.deliverables.flatMap((d, i) => (d.watermark ? [[`deliverables.${i}.watermark`, d.watermark.path, d.watermark.sha256] as const] : [])),
  ];
  return Promise.all(wanted.map(([where, path, expected]) => checkOne(where, path, expected)));
}

/** A fixed image (or watermark) as a recipe saves it: its absolute path and the hash of what is there now. */
export async function fixedImageOf(path: string): Promise<FixedImage> {
  const absolute = resolve(path);
  // Only a regular file of an image's size is hashed: a device (/dev/zero), a folder or a huge file named as an
  // image is refused at once rather than read without end.
  let size: number;
  try {
    const facts = statSync(absolute);
    if (!facts.isFile()) throw new AppError('validation', `${absolute} is not a file`);
    size = facts.size;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('validation', `${absolute} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (size > MAX_WATERMARK_BYTES) throw new AppError('validation', `${absolute} is larger than ${MAX_WATERMARK_BYTES / 1024 ** 2} MB: not an image a recipe sends`);
  // An image by its header (no pixels decoded): any other file named here is refused, and its hash never told.
  const format = await sharp(absolute).metadata().then((m) => m.format, () => null);
  if (!format) throw new AppError('validation', `${absolute} is not an image`);
  return { path: absolute, sha256: await sha256OfFile(absolute) };
}
