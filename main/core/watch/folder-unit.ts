import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { BatchSpecSchema, type BatchSpec } from '../../../shared/engine/model';
import type { HotFolderConfig } from '../../../shared/hotfolders/model';
import { safeRelDir } from '../../../shared/naming';
import type { FolderFixedImages, FolderRecipe } from '../recipes/recipe-plan';

// A hot folder whose recipe has fixed images sends each photo as a mapping: the photo in its field, each fixed image
// in its own. What is paid is then the photo *and* those images (a different reference is a different edit), so the
// folder's done-ledger key must cover them too — exactly as the engine's planner keys a mapping: the SHA-256 of the
// `field=hash` lines sorted by field (engine/planner.ts). The fixed images' hashes are the recipe's, checked against
// the files before each batch (recipe-plan.ts), so no image is read here.

/** The content hash of a photo sent with the folder's fixed images (none: the photo's): the engine's item hash for it. */
export function unitHash(photoHash: string, fixed: Pick<FolderFixedImages, 'photoField' | 'hashes'> | null | undefined): string {
  if (!fixed) return photoHash;
  const lines = Object.entries({ ...fixed.hashes, [fixed.photoField]: photoHash })
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([field, hash]) => `${field}=${hash}`);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** One mapping per photo: the photo in its field, the fixed images in theirs. */
export function fixedMappings(paths: readonly string[], fixed: Pick<FolderFixedImages, 'photoField' | 'paths'>): Record<string, string>[] {
  return paths.map((path) => ({ ...fixed.paths, [fixed.photoField]: path }));
}

/** The batch a folder sends for files of one sub-folder (`rel`, '/'-separated, '' for the folder itself): results mirror the folder's layout. */
export function folderBatchSpec(config: HotFolderConfig, paths: string[], rel: string, payAgain: string[] = [], recipe?: FolderRecipe): BatchSpec {
  return BatchSpecSchema.parse({
    workflowId: config.workflowId,
    parameters: config.parameters,
    // A recipe's fixed images go with each photo (folder-unit.ts): one mapping per photo, the photo in its field.
    inputs: recipe?.fixed
      ? { paths: [], mappings: fixedMappings(paths, recipe.fixed), recursive: false, imageField: recipe.fixed.photoField, rawPairs: config.rawPairs }
      : { paths, recursive: false, imageField: config.imageField, rawPairs: config.rawPairs, ...(payAgain.length > 0 ? { payAgain } : {}) },
    output: {
      // A recipe's first deliverable: its folder, size and watermark (the folder's own fields below are its format,
      // naming… as the folder was saved from it, or as `watch --recipe --format …` replaced them).
      ...(recipe ? recipe.output : {}),
      outputFolder: rel ? join(config.outputFolder, ...safeRelDir(rel).split('/')) : config.outputFolder,
      ...(config.namingTemplate ? { namingTemplate: config.namingTemplate } : {}),
      collisionPolicy: config.collisionPolicy,
      metadata: config.metadataPolicy,
      format: config.outputFormat,
      quality: config.jpegQuality,
      colour: config.colourPolicy,
      sidecar: config.sidecar,
    },
    budget: null,
    // The folder already asked the done ledger (and honours its own reprocess): the engine runs what it sends.
    rerun: true,
    source: { kind: 'hotFolder', hotFolderId: config.id },
    ...(config.job ? { job: config.job } : {}),
    ...(config.client ? { client: config.client } : {}),
    ...(config.priority ? { priority: config.priority } : {}),
    ...(recipe ? { deliverables: recipe.deliverables, recipe: recipe.recipe } : {}),
  });
}
