import { useId, useState, type ReactNode } from 'react';
import { recipeNameProblem } from '../../../shared/recipes/recipe';
import { Dialog } from '../../components/Dialog';
import type { UiError } from '../../lib/errors';
import { useT } from '../../i18n';

/**
 * Asks for a recipe name (save as, duplicate, rename): the name's own rules are checked as it is typed, main's
 * answer (a name taken…) is shown under the field, and the dialog closes only when main said yes.
 */
export function NameDialog({ title, label, initial = '', confirmLabel, onSubmit, onClose, children }: {
  title: string;
  label: string;
  initial?: string;
  confirmLabel: string;
  onSubmit: (name: string) => Promise<UiError | null>;
  onClose: () => void;
  children?: ReactNode;
}) {
  const t = useT('recipes');
  const id = useId();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const problem = name === '' ? null : recipeNameProblem(name);
  const submit = async () => {
    if (name.trim() === '' || problem) return setError(problem ?? t('NameDialog.empty'));
    setBusy(true);
    const failed = await onSubmit(name);
    setBusy(false);
    if (failed) setError(failed.title);
    else onClose();
  };
  const shown = error ?? problem;
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>{t('cancel')}</button>
          <button type="submit" form={`${id}-form`} className="btn btn-primary" disabled={busy}>{confirmLabel}</button>
        </>
      }
    >
      <form id={`${id}-form`} noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <div className="field">
          <label className="field-label" htmlFor={id}>{label}</label>
          <input
            id={id}
            className="input"
            data-autofocus
            value={name}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${id}-error` : undefined}
            onChange={(e) => { setName(e.target.value); setError(null); }}
          />
          {shown && <p id={`${id}-error`} className="field-error" role="alert">{shown}</p>}
        </div>
        {children}
      </form>
    </Dialog>
  );
}
