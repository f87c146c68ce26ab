import { useEffect, useMemo, useRef } from 'react';
import type { WorkflowDetail } from '../../../shared/service/model';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formKeyOf, validateForm } from '../../lib/form-model';
import { formatCredits } from '../../lib/format';
import { hasImageExtension } from '../../../shared/media/input-policy';
import { photos } from '../../../shared/engine/batch-badge';
import { useActions, useApp } from '../../store/context';
import { OutputOverrides, SwitchChips, TextFieldInput } from './FormFields';
import { ImageSlots } from './ImageSlots';
import { PhotosPanel } from './PhotosPanel';

/**
 * What is in the draft before main scans it: a path with a photo's extension is one photo, anything else a folder
 * whose photos are counted (and priced) only by the summary — so a dropped folder never reads "1 item".
 */
function describeDraft(paths: readonly string[], creditCost: number): string {
  if (paths.length === 0) return 'Nothing is spent until you confirm the summary.';
  const photoCount = paths.filter((p) => hasImageExtension(p.split(/[\\/]/).pop() ?? '')).length;
  const folders = paths.length - photoCount;
  const parts = [photoCount > 0 && photos(photoCount), folders > 0 && `${folders} ${folders === 1 ? 'folder' : 'folders'}`].filter(Boolean).join(' and ');
  return folders > 0
    ? `${parts} · the summary counts the photos in folders and shows the cost`
    : `${parts} · ${formatCredits(photoCount * creditCost)}`;
}

/** What a keyboard user fills in first: the first control of the form that takes Tab (radio groups by their stop). */
const FIRST_FIELD = 'input:not([type=hidden]):not([tabindex="-1"]), select, textarea, button:not([disabled]):not([tabindex="-1"])';

/** The form generated from a workflow's input schema, plus the photos and output of the batch. */
export function WorkflowForm({ detail }: { detail: WorkflowDetail }) {
  const form = useApp((s) => s.form);
  const paths = useApp((s) => s.draft.paths);
  const estimating = useApp((s) => s.estimating);
  const draftError = useApp((s) => s.draftError);
  const { requestEstimate } = useActions();
  const errors = useMemo(() => (form ? validateForm(detail, form) : {}), [detail, form]);
  // An error main or the service pinned on a field (`texts.style`) is shown on that field as well.
  const pinned = draftError?.field ? formKeyOf(draftError.field) : null;
  const shown = { ...(pinned && draftError ? { [pinned]: draftError.title } : {}), ...(form?.showErrors ? errors : {}) };
  const { imageFields, textFields, switchFields } = detail.inputSchema;
  const formRef = useRef<HTMLFormElement>(null);
  const ready = form !== null;

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
          {describeDraft(paths, detail.creditCost)}
        </span>
        <button type="submit" className="btn btn-primary" disabled={estimating}>
          {estimating ? 'Checking…' : 'Review batch…'}
        </button>
      </div>
    </form>
  );
}
