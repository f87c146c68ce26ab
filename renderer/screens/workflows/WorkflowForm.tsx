import { useEffect, useMemo, useRef, useState } from 'react';
import type { WorkflowDetail } from '../../../shared/service/model';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formKeyOf, validateForm } from '../../lib/form-model';
import { activeFormat, tr, useFormat, useT } from '../../i18n';
import { useActions, useApp, useAppStore } from '../../store/context';
import type { DraftPrice } from '../../store/state';
import { OutputOverrides, SwitchChips, TextFieldInput } from './FormFields';
import { EstimateProgress } from './EstimateProgress';
import { ImageSlots } from './ImageSlots';
import { PhotosPanel } from './PhotosPanel';

/**
 * What the draft costs, as main's estimate of it says (photos in folders, duplicates, photos already done or running
 * elsewhere all counted as the summary counts them) — never a guess from file names, which priced a folder at
 * nothing and a photo already done at full price.
 */
function describeDraft(price: DraftPrice): string {
  switch (price.state) {
    case 'none': return tr('workflows', 'WorkflowForm.draftNone');
    case 'incomplete': return tr('workflows', 'WorkflowForm.draftIncomplete');
    case 'estimating': return tr('workflows', 'WorkflowForm.draftEstimating');
    case 'failed': return tr('workflows', 'WorkflowForm.draftFailed');
    case 'priced': {
      const format = activeFormat();
      return tr('workflows', 'WorkflowForm.draftPriced', { photos: format.photos(price.estimate.itemCount), credits: format.credits(price.estimate.totalCost) });
    }
  }
}

/** What a keyboard user fills in first: the first control of the form that takes Tab (radio groups by their stop). */
const FIRST_FIELD = 'input:not([type=hidden]):not([tabindex="-1"]), select, textarea, button:not([disabled]):not([tabindex="-1"])';

/** Where a field that is not one of the workflow's inputs lives in the form (`data-field` of its holder). */
const OTHER_FIELDS: Record<string, string> = { 'inputs.paths': 'paths', 'output.outputFolder': 'output' };

/**
 * Brings the field an error names into view and puts the focus in it: "Review batch…" with an empty required field
 * must show which field, wherever the user had scrolled (the message alone sat under the sticky footer).
 */
function focusField(form: HTMLFormElement, field: string): void {
  const key = formKeyOf(field) ?? OTHER_FIELDS[field] ?? `form:${field}`;
  const holder = [...form.querySelectorAll<HTMLElement>('[data-field]')].find((el) => el.dataset.field === key);
  if (!holder) return;
  const target = holder.querySelector<HTMLElement>(FIRST_FIELD) ?? holder;
  // Centred, so neither the sticky search above nor the sticky footer below covers it.
  target.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
}

/** The form generated from a workflow's input schema, plus the photos and output of the batch. */
export function WorkflowForm({ detail }: { detail: WorkflowDetail }) {
  const t = useT('workflows');
  const format = useFormat();
  const form = useApp((s) => s.form);
  const draft = useApp((s) => s.draft);
  const settings = useApp((s) => s.settings);
  const draftPrice = useApp((s) => s.draftPrice);
  const estimating = useApp((s) => s.estimating);
  const draftError = useApp((s) => s.draftError);
  const { requestEstimate, scheduleDraftPrice } = useActions();
  // Every change of what would be sent prices the draft again (after a short pause in the changes).
  useEffect(() => { scheduleDraftPrice(); }, [draft, form, settings, detail.id, scheduleDraftPrice]);
  const errors = useMemo(() => (form ? validateForm(detail, form) : {}), [detail, form]);
  // An error main or the service pinned on a field (`texts.style`) is shown on that field as well.
  const pinned = draftError?.field ? formKeyOf(draftError.field) : null;
  const shown = { ...(pinned && draftError ? { [pinned]: draftError.title } : {}), ...(form?.showErrors ? errors : {}) };
  const { imageFields, textFields, switchFields } = detail.inputSchema;
  const formRef = useRef<HTMLFormElement>(null);
  const ready = form !== null;
  const store = useAppStore();
  // The field to focus once the errors it caused are on screen (a new object per request, so the same field twice works).
  const [focusRequest, setFocusRequest] = useState<{ field: string } | null>(null);
  useEffect(() => {
    if (focusRequest && formRef.current) focusField(formRef.current, focusRequest.field);
  }, [focusRequest]);

  // Choosing a workflow in the catalog is a step towards filling it in: the focus moves to its first field (a
  // keyboard user would otherwise tab through every other card first). A form restored on load takes nothing.
  useEffect(() => {
    if (!ready || !document.activeElement?.closest('.catalog')) return;
    formRef.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
  }, [detail.id, ready]);

  if (!form) return null;
  return (
    <form
      ref={formRef}
      className="workflow-form"
      aria-label={t('WorkflowForm.settingsOf', { name: detail.name })}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void requestEstimate().then(() => {
          const field = store.getState().draftError?.field;
          if (field) setFocusRequest({ field });
        });
      }}
    >
      <header className="form-header">
        <div>
          <h2>{detail.name}</h2>
          <p className="muted">{detail.description}</p>
        </div>
        <span className="cost-pill cost-pill-large">{t('WorkflowForm.perPhoto', { credits: format.credits(detail.creditCost) })}</span>
      </header>

      <section className="panel" aria-label={t('WorkflowForm.inputs')}>
        <ImageSlots fields={imageFields} errors={shown} />
        {textFields.map((f) => <TextFieldInput key={f.id} field={f} error={shown[`text:${f.id}`]} />)}
        {switchFields.map((f) => <SwitchChips key={f.id} field={f} error={shown[`switch:${f.id}`]} />)}
        <OutputOverrides />
      </section>

      <PhotosPanel />

      {draftError && <ErrorMessage error={draftError} />}
      <div className="form-actions">
        {/*
          * What stopped "Review batch…", also on the one line beside it: the message above, with its hint and details,
          * sits under this sticky footer until the end of the form. Not a second live region: the message above is one.
          */}
        {draftError ? (
          <p className="form-actions-error">{draftError.title}</p>
        ) : (
          <span className="muted" role="status" aria-label={t('WorkflowForm.costOfBatch')}>
            {describeDraft(draftPrice)}
          </span>
        )}
        <EstimateProgress />
        <button type="submit" className="btn btn-primary" disabled={estimating}>
          {estimating ? t('WorkflowForm.checking') : t('WorkflowForm.review')}
        </button>
      </div>
    </form>
  );
}
