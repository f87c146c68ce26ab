import { useId, useState } from 'react';
import { MAX_DELIVERABLES, defaultDeliverableValues } from '../../../shared/engine/output-options';
import type { DeliverableDraft } from '../../../shared/ipc/channels/recipes';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import type { UiError } from '../../lib/errors';
import { useActions } from '../../store/context';
import type { ActiveRecipe } from '../../store/recipe-state';
import { DeliverableFields } from './DeliverableFields';
import { useT } from '../../i18n';

/**
 * The recipe's deliverables — the files made from each paid result, 1 to 8, each in its own folder, name, format,
 * size and watermark — and its budget per photo. Saved with the form's workflow and settings as the recipe.
 */
export function DeliverablesEditor({ recipe, onClose }: { recipe: ActiveRecipe; onClose: () => void }) {
  const { setRecipeDeliverables, saveRecipe } = useActions();
  const t = useT('recipes');
  const [items, setItems] = useState<DeliverableDraft[]>(recipe.deliverables);
  const [budget, setBudget] = useState(recipe.budgetPerPhoto === null ? '' : String(recipe.budgetPerPhoto));
  const [error, setError] = useState<UiError | null>(null);
  const budgetId = useId();
  const budgetValue = budget.trim() === '' ? null : Number(budget);

  const save = async () => {
    setRecipeDeliverables(items, budgetValue);
    const failed = await saveRecipe(recipe.name, { replace: true });
    if (failed) setError(failed);
    else onClose();
  };
  return (
    <Dialog
      title={t('Deliverables.title', { name: recipe.name })}
      onClose={onClose}
      wide
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>{t('cancel')}</button>
          <button type="button" className="btn btn-primary" onClick={() => void save()}>{t('saveRecipe')}</button>
        </>
      }
    >
      <p className="muted">{t('Deliverables.intro', { count: items.length })}</p>
      {error && <ErrorMessage error={error} />}
      {items.map((d, n) => (
        <fieldset key={n} className="panel" aria-label={t('Deliverables.item', { n: n + 1 })}>
          <legend className="panel-title">{n === 0 ? t('Deliverables.first', { n: n + 1 }) : t('Deliverables.item', { n: n + 1 })}</legend>
          <DeliverableFields value={d} onChange={(next) => setItems(items.map((old, i) => (i === n ? next : old)))} />
          {items.length > 1 && (
            <button type="button" className="btn btn-danger" onClick={() => setItems(items.filter((_, i) => i !== n))}>{t('Deliverables.remove', { n: n + 1 })}</button>
          )}
        </fieldset>
      ))}
      <button type="button" className="btn" disabled={items.length >= MAX_DELIVERABLES} onClick={() => setItems([...items, defaultDeliverableValues()])}>
        {items.length >= MAX_DELIVERABLES ? t('Deliverables.atMost', { max: MAX_DELIVERABLES }) : t('Deliverables.add')}
      </button>
      <div className="field">
        <label className="field-label" htmlFor={budgetId}>{t('Deliverables.budget')}</label>
        <input id={budgetId} className="input" type="number" min={0} value={budget} onChange={(e) => setBudget(e.target.value)} />
        <p className="field-hint">{t('Deliverables.budgetHint')}</p>
      </div>
    </Dialog>
  );
}
