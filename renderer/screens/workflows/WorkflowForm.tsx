import { useMemo } from 'react';
import type { WorkflowDetail } from '../../../shared/service/model';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formKeyOf, validateForm } from '../../lib/form-model';
import { formatCredits } from '../../lib/format';
import { useActions, useApp } from '../../store/context';
import { OutputOverrides, SwitchChips, TextFieldInput } from './FormFields';
import { ImageSlots } from './ImageSlots';
import { PhotosPanel } from './PhotosPanel';

/** The form generated from a workflow's input schema, plus the photos and output of the batch. */
export function WorkflowForm({ detail }: { detail: WorkflowDetail }) {
  const form = useApp((s) => s.form);
  const count = useApp((s) => s.draft.paths.length);
  const estimating = useApp((s) => s.estimating);
  const draftError = useApp((s) => s.draftError);
  const { requestEstimate } = useActions();
  const errors = useMemo(() => (form ? validateForm(detail, form) : {}), [detail, form]);
  // An error main or the service pinned on a field (`texts.style`) is shown on that field as well.
  const pinned = draftError?.field ? formKeyOf(draftError.field) : null;
  const shown = { ...(pinned && draftError ? { [pinned]: draftError.title } : {}), ...(form?.showErrors ? errors : {}) };
  const { imageFields, textFields, switchFields } = detail.inputSchema;

  if (!form) return null;
  return (
    <form
      className="workflow-form"
      aria-label={`${detail.name} settings`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void requestEstimate();
      }}
    >
      <header className="form-header">
        <div>
          <h2>{detail.name}</h2>
          <p className="muted">{detail.description}</p>
        </div>
        <span className="cost-pill cost-pill-large">{formatCredits(detail.creditCost)} / photo</span>
      </header>

      <section className="panel" aria-label="Workflow inputs">
        <ImageSlots fields={imageFields} errors={shown} />
        {textFields.map((f) => <TextFieldInput key={f.id} field={f} error={shown[`text:${f.id}`]} />)}
        {switchFields.map((f) => <SwitchChips key={f.id} field={f} error={shown[`switch:${f.id}`]} />)}
        <OutputOverrides />
      </section>

      <PhotosPanel />

      {draftError && <ErrorMessage error={draftError} />}
      <div className="form-actions">
        <span className="muted">
          {count > 0 ? `${count} ${count === 1 ? 'item' : 'items'} · about ${formatCredits(count * detail.creditCost)} before scanning folders` : 'Nothing is spent until you confirm the summary.'}
        </span>
        <button type="submit" className="btn btn-primary" disabled={estimating}>
          {estimating ? 'Checking…' : 'Review batch…'}
        </button>
      </div>
    </form>
  );
}
