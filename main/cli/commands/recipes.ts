import type { Command } from 'commander';
import { AppError } from '../../../shared/errors';
import type { Deliverable, Recipe } from '../../../shared/recipes/recipe';
import type { RecipeImageCheck, RecipeStore } from '../../core/recipes/recipe-store';
import { resolveStateDir } from '../../core/settings/state-dir';
import { UsageError } from '../errors';
import { credits, table } from '../format';
import { createOutput, globalOptions, type Output } from '../session';

const LIST_HINT = '`batchroom recipes list` shows the saved recipes.';

/**
 * The store of the state folder the other commands use (--state-dir, BATCHROOM_STATE_DIR, else the per-user folder):
 * no core, no service, no sandbox — a recipe is a file. Loaded on use, so `batchroom --help` does not load zod.
 */
async function openRecipes(command: Command): Promise<{ store: RecipeStore; out: Output }> {
  const options = globalOptions(command);
  const { createRecipeStore } = await import('../../core/recipes/recipe-store');
  return { store: createRecipeStore(resolveStateDir({ stateDir: options.stateDir })), out: createOutput(options) };
}

/** The store's refusals are the caller's to fix (a name, a file, a flag): exit 2, with the flag that fixes it. */
function asUsage(error: unknown, hints: { conflict?: string } = {}): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.code === 'not_found') return new UsageError(error.message, error.field === 'name' ? LIST_HINT : undefined);
  if (error.code === 'conflict') return new UsageError(error.message, hints.conflict);
  if (error.code === 'validation') return new UsageError(error.message, 'Nothing was saved. docs/recipes.md describes the recipe file.');
  return error;
}

function action<A extends unknown[]>(body: (command: Command, ...args: A) => Promise<void>, hints: { conflict?: string } = {}) {
  return async (...args: [...A, unknown, Command]) => {
    const command = args[args.length - 1] as Command;
    try {
      await body(command, ...(args.slice(0, -2) as A));
    } catch (error) {
      throw asUsage(error, hints);
    }
  };
}

function sizeText(size: Deliverable['size']): string {
  if (size.fit === 'original') return 'as the result came';
  if (size.fit === 'long-edge') return `${size.longEdge} px on the long edge`;
  return `${size.width}×${size.height} px (${size.fit === 'cover' ? 'filled and cropped' : 'fitted inside'})`;
}

function imageLine(check: RecipeImageCheck): string {
  const state = check.status === 'ok' ? 'found, same content' : check.status === 'missing' ? 'MISSING on this computer' : check.status === 'changed' ? 'CHANGED: its content differs' : 'UNREADABLE';
  return `  ${check.where}  ${check.path}  (${state})`;
}

/** The recipe in words: what it sends, what it saves. */
export function describeRecipe(recipe: Recipe, images: RecipeImageCheck[], parametersHash: string): string {
  const { texts = {}, switchSelections = {}, globalOverrides = {} } = recipe.parameters;
  const lines = [`${recipe.name} — workflow ${recipe.workflowId}`];
  if (Object.keys(texts).length) lines.push('Texts:', ...Object.entries(texts).map(([id, value]) => `  ${id} = ${JSON.stringify(value)}`));
  if (Object.keys(switchSelections).length) lines.push('Switches:', ...Object.entries(switchSelections).map(([id, values]) => `  ${id}: ${values.join(', ')}`));
  const overrides = [globalOverrides.aspectRatio && `aspect ratio ${globalOverrides.aspectRatio}`, globalOverrides.imageSize && `size ${globalOverrides.imageSize}`].filter(Boolean);
  if (overrides.length) lines.push(`Overrides: ${overrides.join(', ')}`);
  if (images.length) lines.push('Images:', ...images.map(imageLine));
  lines.push(`Budget per photo: ${recipe.budgetPerPhoto === null ? 'none' : credits(recipe.budgetPerPhoto)}`);
  for (const [i, d] of recipe.deliverables.entries()) {
    lines.push(recipe.deliverables.length > 1 ? `Deliverable ${i + 1}:` : 'Deliverable:');
    lines.push(`  folder:   ${d.folder ? d.folder : '(the output folder)'}`);
    lines.push(`  names:    ${d.namingTemplate}`);
    lines.push(`  format:   ${d.format}${d.format === 'jpeg' || d.format === 'webp' || d.format === 'source' ? `, quality ${d.quality}` : ''}`);
    lines.push(`  size:     ${sizeText(d.size)}`);
    lines.push(`  colour:   ${d.colour}; metadata: ${d.metadata}; sidecar: ${d.sidecar}`);
    if (d.watermark) lines.push(`  watermark: ${d.watermark.path} (${d.watermark.position}, ${Math.round(d.watermark.scale * 100)}% wide, opacity ${d.watermark.opacity})`);
  }
  lines.push(`Parameters hash: ${parametersHash}`);
  return lines.join('\n');
}

function warnAboutImages(out: Output, images: RecipeImageCheck[]): void {
  const bad = images.filter((i) => i.status !== 'ok');
  for (const image of bad) out.notice(`batchroom: warning: ${image.message}`);
  if (bad.length) out.notice('  hint: put the image there (the same file), or save the recipe again with the image this computer has.');
}

/** `batchroom recipes list|show|export|import|delete`: the saved recipes of this state folder, and their files. */
export function registerRecipesCommand(program: Command): void {
  const recipes = program
    .command('recipes')
    .description('list, show, export, import and delete saved recipes (workflow, parameters and output settings)')
    .addHelpText('after', '\nA recipe file (<name>.batchroom-recipe.json) carries everything but the photos; see docs/recipes.md.');

  recipes
    .command('list')
    .description('list the saved recipes')
    .action(action(async (command) => {
      const { store, out } = await openRecipes(command);
      const { recipes: saved, problems } = store.list();
      for (const problem of problems) out.notice(`batchroom: warning: ${problem.message}`);
      if (out.json) {
        out.record({ recipes: saved, problems });
        return;
      }
      if (saved.length === 0) {
        out.result(`No recipes saved yet. Import one with \`batchroom recipes import FILE\`.`);
        return;
      }
      const rows = saved.map((r) => [r.name, r.workflowId, r.budgetPerPhoto === null ? '–' : credits(r.budgetPerPhoto), String(r.deliverables.length)]);
      out.result(table(['NAME', 'WORKFLOW', 'BUDGET/PHOTO', 'DELIVERABLES'], rows));
      out.line('\nDetails: batchroom recipes show NAME');
    }));

  recipes
    .command('show')
    .description('show one recipe, and whether its images are on this computer')
    .argument('<name>', 'recipe name (any case)')
    .action(action(async (command, name: string) => {
      const { store, out } = await openRecipes(command);
      const recipe = store.get(name);
      const [{ checkRecipeImages }, { recipeParametersHash }] = await Promise.all([
        import('../../core/recipes/recipe-images'), import('../../../shared/recipes/fingerprint'),
      ]);
      const images = await checkRecipeImages(recipe);
      const parametersHash = recipeParametersHash(recipe);
      // With the service reachable: photos done with it (the ledger, this account) and what changed in its workflow.
      const use = await (await import('../recipe-catalog')).recipeUse(command, recipe);
      if (out.json) return out.record({ recipe, parametersHash, images, done: use?.done ?? null, changed: use?.changed ?? null });
      out.result(describeRecipe(recipe, images, parametersHash));
      if (use) out.line(`Photos done with it: ${use.done}${use.done > 0 ? ' (on this account; batchroom run --recipe skips them)' : ''}`);
      if (use?.changed) out.line(`Changed since it was saved: ${use.changed}`);
    }));

  recipes
    .command('export')
    .description('write a recipe to <name>.batchroom-recipe.json (for another computer, or a colleague)')
    .argument('<name>', 'recipe name (any case)')
    .option('--out <file>', 'the file to write (default: <name>.batchroom-recipe.json in the current folder)')
    .action(action(async (command, name: string) => {
      const { store, out } = await openRecipes(command);
      const flags = command.opts<{ out?: string }>();
      const path = store.exportTo(name, flags.out ? { file: flags.out } : {});
      const recipe = store.get(name);
      if (out.json) return out.record({ exported: recipe.name, path });
      out.result(`Exported "${recipe.name}" to ${path}`);
    }));

  recipes
    .command('import')
    .description('save a recipe file in this state folder (checked first; its images are looked for on this computer)')
    .argument('<file>', 'a .batchroom-recipe.json file')
    .option('--as <name>', 'save it under this name')
    .option('--replace', 'replace a saved recipe of the same name')
    .action(action(async (command, file: string) => {
      const { store, out } = await openRecipes(command);
      const flags = command.opts<{ as?: string; replace?: boolean }>();
      const result = await store.importFrom(file, { ...(flags.as !== undefined ? { name: flags.as } : {}), replace: flags.replace === true });
      warnAboutImages(out, result.images);
      // What the workflow is now (price, fields), kept so that a run can say what changed; said now if it already has.
      const seen = await (await import('../recipe-catalog')).withSeenFacts(command, result.recipe);
      if (seen?.changed) out.notice(`batchroom: ${seen.changed} (since it was saved)`);
      if (seen && seen.recipe !== result.recipe) store.save(seen.recipe, { replace: true });
      if (out.json) return out.record({ imported: result.recipe.name, replaced: result.replaced, images: result.images });
      out.result(`${result.replaced ? 'Replaced' : 'Imported'} "${result.recipe.name}" (workflow ${result.recipe.workflowId}).`);
    }, { conflict: 'Import it under another name with --as NAME, or replace the saved one with --replace.' }));

  recipes
    .command('delete')
    .description('delete a saved recipe')
    .argument('<name>', 'recipe name (any case)')
    .action(action(async (command, name: string) => {
      const { store, out } = await openRecipes(command);
      const recipe = store.get(name);
      store.delete(recipe.name);
      if (out.json) return out.record({ deleted: recipe.name });
      out.result(`Deleted recipe "${recipe.name}".`);
    }));
}
