import { useId, useState } from 'react';
import { selectCurrentDetail } from '../../store/catalog-slice';
import { useActions, useApp } from '../../store/context';
import { DeliverablesEditor } from './DeliverablesEditor';
import { NameDialog } from './NameDialog';
import { RecipesDialog } from './RecipesDialog';
import { useT } from '../../i18n';

/**
 * Recipes on the Workflows screen: pick one (the form is filled from it), save the form as one, open the list, and
 * while a recipe is in the form, its deliverables and "Save recipe" (edit = load into the form, save again).
 */
export function RecipeBar() {
  const recipes = useApp((s) => s.recipes);
  const active = useApp((s) => s.activeRecipe);
  const detail = useApp(selectCurrentDetail);
  const hasForm = useApp((s) => s.form !== null);
  const { pickRecipe, saveRecipe, clearRecipe, notifyError } = useActions();
  const [open, setOpen] = useState<'save' | 'list' | 'deliverables' | null>(null);
  const pickId = useId();
  const t = useT('recipes');
  // A recipe shown as the form's only while the form is of its workflow (the catalog may have moved on).
  const current = active && detail?.id === active.workflowId ? active : null;

  const pick = async (name: string) => {
    if (!name) return clearRecipe();
    const failed = await pickRecipe(name);
    if (failed) notifyError(failed);
  };
  return (
    <section className="panel recipe-bar" aria-label={t('Bar.recipe')}>
      <div className="button-row">
        <div className="field">
          <label className="field-label" htmlFor={pickId}>{t('Bar.recipe')}</label>
          <select id={pickId} className="input" value={current?.name ?? ''} onChange={(e) => void pick(e.target.value)}>
            <option value="">{t('Bar.none')}</option>
            {recipes.map((r) => <option key={r.name} value={r.name}>{r.name}</option>)}
          </select>
        </div>
        {current && (
          <>
            <button type="button" className="btn" onClick={() => setOpen('deliverables')}>
              {t('Bar.deliverables', { count: current.deliverables.length })}
            </button>
            <button type="button" className="btn" onClick={() => void saveRecipe(current.name, { replace: true }).then((e) => e && notifyError(e))}>
              {t('saveRecipe')}
            </button>
          </>
        )}
        <button type="button" className="btn" disabled={!hasForm} onClick={() => setOpen('save')}>{t('Bar.saveAs')}</button>
        <button type="button" className="btn" onClick={() => setOpen('list')}>{t('Bar.recipes')}</button>
      </div>
      {current && current.warnings.length > 0 && (
        <div className="callout callout-warning" role="status" aria-label={t('Bar.warnings')}>
          <p>{t('Bar.mismatch', { name: current.name })}</p>
          <ul>{current.warnings.map((w) => <li key={w}>{w}</li>)}</ul>
          <p>{t('Bar.leftOut')}</p>
        </div>
      )}
      {open === 'save' && (
        <NameDialog title={t('Bar.saveAsTitle')} label={t('Bar.name')} initial={current?.name ?? ''} confirmLabel={t('saveRecipe')} onClose={() => setOpen(null)} onSubmit={(name) => saveRecipe(name)}>
          <p className="field-hint">{t('Bar.saveHint')}</p>
        </NameDialog>
      )}
      {open === 'list' && <RecipesDialog onClose={() => setOpen(null)} />}
      {open === 'deliverables' && current && <DeliverablesEditor recipe={current} onClose={() => setOpen(null)} />}
    </section>
  );
}
