import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError } from '../../../shared/errors';
import {
  RECIPE_FILE_SUFFIX, parseRecipe, recipeNameKey, recipeNameProblem, serializeRecipe, type Recipe,
} from '../../../shared/recipes/recipe';
import { OWNER_ONLY_FILE_MODE, ensureStateDir } from '../settings/state-dir';
import { checkImportable, writeFileAtomic } from './recipe-files';
import { checkRecipeImages, type RecipeImageCheck } from './recipe-images';

export type { RecipeImageCheck } from './recipe-images';

/** Recipes live in the state folder, one `<name in lower case>.json` each, next to settings and the journal. */
export const RECIPES_DIR_NAME = 'recipes';

/** A file in the recipes folder that is not a readable recipe: listed as such, never silently dropped. */
export interface RecipeFileProblem {
  file: string;
  message: string;
}

export interface RecipeListing {
  recipes: Recipe[];
  problems: RecipeFileProblem[];
}

export interface RecipeImport {
  recipe: Recipe;
  /** A saved recipe of the same name was replaced. */
  replaced: boolean;
  /** Its images as found on this computer (missing, changed…). */
  images: RecipeImageCheck[];
}

export interface RecipeStore {
  readonly dir: string;
  list(): RecipeListing;
  /** The recipe of that name (any case); not_found when there is none. */
  get(name: string): Recipe;
  /** Saves a recipe: a new name, or (`replace`) over the recipe of the same name. */
  save(recipe: Recipe, options?: { replace?: boolean }): Recipe;
  rename(from: string, to: string): Recipe;
  duplicate(from: string, to: string): Recipe;
  delete(name: string): void;
  /** Writes `<name>.batchroom-recipe.json` (in `folder`, default the working folder) or `file`; returns its path. */
  exportTo(name: string, target?: { file?: string; folder?: string }): string;
  /** Reads a recipe file, checks it, and saves it (as `name` when given); nothing is written for a bad file. */
  importFrom(file: string, options?: { name?: string; replace?: boolean }): Promise<RecipeImport>;
}

/** The file name a recipe is stored under (names are unique whatever their case, so the key names the file). */
export const recipeFileName = (name: string): string => `${recipeNameKey(name)}.json`;

function checkedName(name: string): string {
  const problem = recipeNameProblem(name);
  if (problem) throw new AppError('validation', `recipe name "${name}": ${problem}`, { field: 'name' });
  return name;
}

const notFound = (name: string) => new AppError('not_found', `no recipe named "${name}"`, { field: 'name' });
const taken = (name: string) => new AppError('conflict', `a recipe named "${name}" already exists`, { field: 'name' });

function readRecipeFile(path: string, label: string): Recipe {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw error;
    throw new AppError('validation', `${label}: not a recipe file: not valid JSON (${(error as Error).message})`);
  }
  const outcome = parseRecipe(data);
  if (!outcome.ok) throw new AppError('validation', `${label}: ${outcome.message}`);
  return outcome.value;
}

export function createRecipeStore(stateDir: string, options: { cwd?: string } = {}): RecipeStore {
  const dir = join(stateDir, RECIPES_DIR_NAME);
  // Every name is checked before it becomes a path: `../x` (from a renderer, a script) never leaves the folder.
  const pathOf = (name: string) => join(dir, recipeFileName(checkedName(name)));
  const ensureDir = () => {
    ensureStateDir(stateDir);
    ensureStateDir(dir); // owner-only, like the state folder: prompts can name a client's work
  };

  function read(name: string): Recipe {
    try {
      return readRecipeFile(pathOf(name), `recipe "${name}"`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(name);
      throw error;
    }
  }

  function write(recipe: Recipe, replace: boolean): Recipe {
    checkedName(recipe.name);
    ensureDir();
    try {
      writeFileAtomic(pathOf(recipe.name), serializeRecipe(recipe), { mode: OWNER_ONLY_FILE_MODE, exclusive: !replace });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw taken(recipe.name);
      throw error;
    }
    return recipe;
  }

  function revalidated(recipe: Recipe): Recipe {
    const outcome = parseRecipe(recipe);
    if (!outcome.ok) throw new AppError('validation', outcome.message);
    return outcome.value;
  }

  const store: RecipeStore = {
    dir,
    list() {
      let files: string[];
      try {
        files = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { recipes: [], problems: [] };
        throw error;
      }
      const recipes: Recipe[] = [];
      const problems: RecipeFileProblem[] = [];
      for (const file of files.sort()) {
        try {
          const recipe = readRecipeFile(join(dir, file), file);
          // (NFC: HFS+ lists names decomposed.) A file renamed by hand would make its recipe unreachable by name (get reads the name's own file).
          if (recipeFileName(recipe.name) !== file.normalize('NFC')) problems.push({ file, message: `${file}: holds the recipe "${recipe.name}", whose file is ${recipeFileName(recipe.name)}` });
          else recipes.push(recipe);
        } catch (error) {
          problems.push({ file, message: (error as Error).message });
        }
      }
      recipes.sort((a, b) => a.name.localeCompare(b.name));
      return { recipes, problems };
    },
    get: (name) => read(name),
    save: (recipe, saveOptions = {}) => write(revalidated(recipe), saveOptions.replace === true),
    rename(from, to) {
      const recipe = read(from);
      checkedName(to);
      const renamed = { ...recipe, name: to };
      // Only the case changes: the same file, rewritten (a second file would be the first one on macOS and Windows).
      if (recipeNameKey(from) === recipeNameKey(to)) return write(renamed, true);
      write(renamed, false);
      unlinkSync(pathOf(from));
      return renamed;
    },
    duplicate(from, to) {
      const recipe = read(from);
      return write({ ...recipe, name: checkedName(to) }, false);
    },
    delete(name) {
      try {
        unlinkSync(pathOf(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(name);
        throw error;
      }
    },
    exportTo(name, target = {}) {
      const recipe = read(name);
      const path = resolve(options.cwd ?? process.cwd(), target.file ?? join(target.folder ?? '.', `${recipe.name}${RECIPE_FILE_SUFFIX}`));
      // A file meant to be handed on: the ordinary mode (the umask decides), not the state folder's owner-only one.
      writeFileAtomic(path, serializeRecipe(recipe));
      return path;
    },
    async importFrom(file, importOptions = {}) {
      const path = resolve(options.cwd ?? process.cwd(), file);
      checkImportable(path);
      const read = readRecipeFile(path, file);
      const recipe = importOptions.name === undefined ? read : { ...read, name: checkedName(importOptions.name) };
      const replace = importOptions.replace === true;
      let replaced = false;
      if (replace) {
        try {
          store.get(recipe.name);
          replaced = true;
        } catch (error) {
          if (!(error instanceof AppError && error.code === 'not_found')) replaced = true; // a damaged file of that name
        }
      }
      write(recipe, replace);
      return { recipe, replaced, images: await checkRecipeImages(recipe) };
    },
  };
  return store;
}
