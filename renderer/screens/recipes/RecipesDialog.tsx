import { useEffect, useId, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { downloadText } from '../../lib/download';
import type { UiError } from '../../lib/errors';
import { useActions, useApp } from '../../store/context';
import { NameDialog } from './NameDialog';

type Mode = { kind: 'list' } | { kind: 'duplicate' | 'rename' | 'delete'; name: string };

/** What a list row says of a recipe: its workflow and what it makes. */
function describe(recipe: { workflowId: string; deliverables: { format: string; folder: string }[]; fixedImages: Record<string, unknown> }): string {
  const files = recipe.deliverables.map((d) => `${d.format === 'source' ? 'as the photo' : d.format.toUpperCase()}${d.folder ? ` in ${d.folder}` : ''}`);
  const fixed = Object.keys(recipe.fixedImages).length;
  return `${recipe.workflowId} · ${files.length === 1 ? '1 file' : `${files.length} files`} per photo: ${files.join(', ')}${fixed ? ` · ${fixed} fixed ${fixed === 1 ? 'image' : 'images'}` : ''}`;
}

/** The saved recipes: use, edit (into the form), duplicate, rename, delete (asked first), share (a file) and import one. */
export function RecipesDialog({ onClose }: { onClose: () => void }) {
  const recipes = useApp((s) => s.recipes);
  const problems = useApp((s) => s.recipeProblems);
  const loadError = useApp((s) => s.recipesError);
  const { loadRecipes, pickRecipe, duplicateRecipe, renameRecipe, deleteRecipe, exportRecipe, importRecipe } = useActions();
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [error, setError] = useState<UiError | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const importId = useId();
  useEffect(() => { void loadRecipes(); }, [loadRecipes]);

  const use = async (name: string) => {
    const failed = await pickRecipe(name);
    if (failed) setError(failed);
    else onClose();
  };
  const share = async (name: string) => {
    const file = await exportRecipe(name);
    if (file) downloadText(file.fileName, file.text, 'application/json');
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    setError(await importRecipe(await file.text()));
    if (fileRef.current) fileRef.current.value = ''; // the same file again is a new choice
  };

  if (mode.kind === 'duplicate' || mode.kind === 'rename') {
    const duplicate = mode.kind === 'duplicate';
    return (
      <NameDialog
        title={duplicate ? `Duplicate “${mode.name}”` : `Rename “${mode.name}”`}
        label={duplicate ? 'Name of the copy' : 'New name'}
        initial={duplicate ? `${mode.name} copy` : mode.name}
        confirmLabel={duplicate ? 'Duplicate' : 'Rename'}
        onClose={() => setMode({ kind: 'list' })}
        onSubmit={(to) => (duplicate ? duplicateRecipe(mode.name, to) : renameRecipe(mode.name, to))}
      />
    );
  }
  if (mode.kind === 'delete') {
    return (
      <ConfirmDialog
        title={`Delete recipe “${mode.name}”?`}
        confirmLabel="Delete recipe"
        cancelLabel="Keep it"
        danger
        onClose={() => setMode({ kind: 'list' })}
        onConfirm={() => void deleteRecipe(mode.name).then(setError)}
      >
        <p>The recipe goes from this computer. Results already made with it stay where they are; a file you shared stays valid.</p>
      </ConfirmDialog>
    );
  }
  return (
    <Dialog title="Recipes" onClose={onClose} wide footer={<button type="button" className="btn" onClick={onClose}>Close</button>}>
      {loadError && <ErrorMessage error={loadError} />}
      {error && <ErrorMessage error={error} />}
      {recipes.length === 0 && !loadError && <p className="muted">No recipes yet: fill in a workflow, then “Save as recipe…”.</p>}
      <ul className="recipe-list" aria-label="Saved recipes">
        {recipes.map((r) => (
          <li key={r.name} aria-label={r.name}>
            <div>
              <strong>{r.name}</strong>
              <p className="muted">{describe(r)}</p>
            </div>
            <div className="button-row">
              <button type="button" className="btn btn-primary" onClick={() => void use(r.name)}>Use</button>
              <button type="button" className="btn" title="Loads it into the form: change it there, then “Save recipe”" onClick={() => void use(r.name)}>Edit</button>
              <button type="button" className="btn" onClick={() => setMode({ kind: 'duplicate', name: r.name })}>Duplicate</button>
              <button type="button" className="btn" onClick={() => setMode({ kind: 'rename', name: r.name })}>Rename</button>
              <button type="button" className="btn" onClick={() => void share(r.name)}>Share</button>
              <button type="button" className="btn btn-danger" onClick={() => setMode({ kind: 'delete', name: r.name })}>Delete</button>
            </div>
          </li>
        ))}
      </ul>
      {problems.length > 0 && (
        <div className="callout callout-warning" role="status">
          <p>Files in the recipes folder that are not readable recipes:</p>
          <ul>{problems.map((p) => <li key={p.file}>{p.message}</li>)}</ul>
        </div>
      )}
      <div className="field">
        <label className="field-label" htmlFor={importId}>Import a recipe file</label>
        <input id={importId} ref={fileRef} type="file" accept=".json,application/json" className="input" onChange={(e) => void importFile(e.target.files?.[0])} />
        <p className="field-hint">A .batchroom-recipe.json file from “Share” or `batchroom recipes export`.</p>
      </div>
    </Dialog>
  );
}
