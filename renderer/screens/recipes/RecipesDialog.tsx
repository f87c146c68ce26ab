import { useEffect, useId, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { downloadText } from '../../lib/download';
import type { UiError } from '../../lib/errors';
import { useActions, useApp } from '../../store/context';
import { NameDialog } from './NameDialog';
import type { TFunction } from '../../../shared/i18n';
import { useT } from '../../i18n';

type Mode = { kind: 'list' } | { kind: 'duplicate' | 'rename' | 'delete'; name: string };

/** What a list row says of a recipe: its workflow and what it makes. */
function describe(recipe: { workflowId: string; deliverables: { format: string; folder: string }[]; fixedImages: Record<string, unknown> }, t: TFunction<'recipes'>): string {
  const files = recipe.deliverables.map((d) => {
    const format = d.format === 'source' ? t('List.asThePhoto') : d.format.toUpperCase();
    return d.folder ? t('List.formatIn', { format, folder: d.folder }) : format;
  });
  const fixed = Object.keys(recipe.fixedImages).length;
  const line = t('List.describe', { workflow: recipe.workflowId, count: files.length, files: files.join(', ') });
  return fixed ? `${line} · ${t('List.fixedImages', { count: fixed })}` : line;
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
  const t = useT('recipes');
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
        title={duplicate ? t('List.duplicateTitle', { name: mode.name }) : t('List.renameTitle', { name: mode.name })}
        label={duplicate ? t('List.copyName') : t('List.newName')}
        initial={duplicate ? t('List.copyOf', { name: mode.name }) : mode.name}
        confirmLabel={duplicate ? t('List.duplicate') : t('List.rename')}
        onClose={() => setMode({ kind: 'list' })}
        onSubmit={(to) => (duplicate ? duplicateRecipe(mode.name, to) : renameRecipe(mode.name, to))}
      />
    );
  }
  if (mode.kind === 'delete') {
    return (
      <ConfirmDialog
        title={t('List.deleteTitle', { name: mode.name })}
        confirmLabel={t('List.deleteRecipe')}
        cancelLabel={t('List.keepIt')}
        danger
        onClose={() => setMode({ kind: 'list' })}
        onConfirm={() => void deleteRecipe(mode.name).then(setError)}
      >
        <p>{t('List.deleteBody')}</p>
      </ConfirmDialog>
    );
  }
  return (
    <Dialog title={t('List.title')} onClose={onClose} wide footer={<button type="button" className="btn" onClick={onClose}>{t('close')}</button>}>
      {loadError && <ErrorMessage error={loadError} />}
      {error && <ErrorMessage error={error} />}
      {recipes.length === 0 && !loadError && <p className="muted">{t('List.empty')}</p>}
      <ul className="recipe-list" aria-label={t('List.saved')}>
        {recipes.map((r) => (
          <li key={r.name} aria-label={r.name}>
            <div>
              <strong>{r.name}</strong>
              <p className="muted">{describe(r, t)}</p>
            </div>
            <div className="button-row">
              <button type="button" className="btn btn-primary" onClick={() => void use(r.name)}>{t('List.use')}</button>
              <button type="button" className="btn" title={t('List.editHint')} onClick={() => void use(r.name)}>{t('List.edit')}</button>
              <button type="button" className="btn" onClick={() => setMode({ kind: 'duplicate', name: r.name })}>{t('List.duplicate')}</button>
              <button type="button" className="btn" onClick={() => setMode({ kind: 'rename', name: r.name })}>{t('List.rename')}</button>
              <button type="button" className="btn" onClick={() => void share(r.name)}>{t('List.share')}</button>
              <button type="button" className="btn btn-danger" onClick={() => setMode({ kind: 'delete', name: r.name })}>{t('List.delete')}</button>
            </div>
          </li>
        ))}
      </ul>
      {problems.length > 0 && (
        <div className="callout callout-warning" role="status">
          <p>{t('List.problems')}</p>
          <ul>{problems.map((p) => <li key={p.file}>{p.message}</li>)}</ul>
        </div>
      )}
      <div className="field">
        <label className="field-label" htmlFor={importId}>{t('List.import')}</label>
        <input id={importId} ref={fileRef} type="file" accept=".json,application/json" className="input" onChange={(e) => void importFile(e.target.files?.[0])} />
        <p className="field-hint">{t('List.importHint')}</p>
      </div>
    </Dialog>
  );
}
