import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FixedImage, Recipe } from '../../../shared/recipes/recipe';
import { sha256OfFile } from './recipe-files';

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
  /** The hash of the file found (status `changed`). */
  actual?: string;
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
    const actual = await sha256OfFile(path);
    if (actual === expected) return { ...base, status: 'ok' };
    return {
      ...base, status: 'changed', actual,
      message: `${where}: ${path} is not the image the recipe was saved with (its content differs: sha256 ${actual.slice(0, 12)}…, expected ${expected.slice(0, 12)}…)`,
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
  return { path: absolute, sha256: await sha256OfFile(absolute) };
}
