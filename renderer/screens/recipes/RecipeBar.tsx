import { useId, useState } from 'react';
import { selectCurrentDetail } from '../../store/catalog-slice';
import { useActions, useApp } from '../../store/context';
import { DeliverablesEditor } from './DeliverablesEditor';
import { NameDialog } from './NameDialog';
import { RecipesDialog } from './RecipesDialog';

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
  // A recipe shown as the form's only while the form is of its workflow (the catalog may have moved on).
  const current = active && detail?.id === active.workflowId ? active : null;

  const pick = async (name: string) => {
    if (!name) return clearRecipe();
    const failed = await pickRecipe(name);
    if (failed) notifyError(failed);
  };
  return (
    <section className="panel recipe-bar" aria-label="Recipe">
      <div className="button-row">
        <div className="field">
          <label className="field-label" htmlFor={pickId}>Recipe</label>
          <select id={pickId} className="input" value={current?.name ?? ''} onChange={(e) => void pick(e.target.value)}>
            <option value="">None</option>
            {recipes.map((r) => <option key={r.name} value={r.name}>{r.name}</option>)}
          </select>
        </div>
        {current && (
          <>
            <button type="button" className="btn" onClick={() => setOpen('deliverables')}>
              Deliverables ({current.deliverables.length})…
            </button>
            <button type="button" className="btn" onClick={() => void saveRecipe(current.name, { replace: true }).then((e) => e && notifyError(e))}>
              Save recipe
            </button>
          </>
        )}
        <button type="button" className="btn" disabled={!hasForm} onClick={() => setOpen('save')}>Save as recipe…</button>
        <button type="button" className="btn" onClick={() => setOpen('list')}>Recipes…</button>
      </div>
      {current && current.warnings.length > 0 && (
        <div className="callout callout-warning" role="status" aria-label="Recipe warnings">
          <p>Recipe “{current.name}” does not match the workflow as the service describes it now, or its images:</p>
          <ul>{current.warnings.map((w) => <li key={w}>{w}</li>)}</ul>
          <p>Values the workflow no longer accepts were left out of the form: nothing it refuses is sent. The cost in the summary is today’s.</p>
        </div>
      )}
      {open === 'save' && (
        <NameDialog title="Save as recipe" label="Recipe name" initial={current?.name ?? ''} confirmLabel="Save recipe" onClose={() => setOpen(null)} onSubmit={(name) => saveRecipe(name)}>
          <p className="field-hint">Saves this workflow, its texts, switches, size, fixed images and the output options. Photos are not part of a recipe.</p>
        </NameDialog>
      )}
      {open === 'list' && <RecipesDialog onClose={() => setOpen(null)} />}
      {open === 'deliverables' && current && <DeliverablesEditor recipe={current} onClose={() => setOpen(null)} />}
    </section>
  );
}
