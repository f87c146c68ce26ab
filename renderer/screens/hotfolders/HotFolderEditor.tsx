import { useEffect, useId, useMemo, useState } from 'react';
import { SelectField } from '../../components/SelectField';
import {
  COLLISION_POLICIES, METADATA_POLICIES, OUTPUT_FORMATS, RAW_PAIR_MODES, SIDECAR_KINDS, type CollisionPolicy, type MetadataPolicy, type OutputFormat, type RawPairs,
  type SidecarKind,
} from '../../../shared/engine/model';
import type { ExistingFilesPolicy, HotFolderConfig } from '../../../shared/hotfolders/model';
import { Dialog } from '../../components/Dialog';
import { FolderPickButton } from '../../components/FolderPickButton';
import { JobClientFields } from '../../components/JobClientFields';
import { PriorityField } from './PriorityField';
import { formFromParameters, toParameters, validateForm } from '../../lib/form-model';
import { baseName } from '../../lib/format';
import { catalogLabels } from '../../i18n/labels';
import { useFormat, useT } from '../../i18n';
import { selectCurrentDetail } from '../../store/catalog-slice';
import { useActions, useApp } from '../../store/context';
import { OutputOverrides, SwitchChips, TextFieldInput } from '../workflows/FormFields';
import { COLLISION_LABELS } from '../workflows/PhotosPanel';
import { FORMAT_LABELS, METADATA_LABELS, RAW_PAIR_LABELS, SIDECAR_LABELS } from '../../lib/metadata-labels';

const EXISTING_LABELS = catalogLabels('hotfolders', {
  'dry-run': 'Existing.dryRun',
  process: 'Existing.process',
  skip: 'Existing.skip',
});

/** The namer's tokens, the same in every language. */
const DEFAULT_NAMING = '{name}_{workflow}{ext}';

const newId = () => (globalThis.crypto?.randomUUID?.() ?? `hf-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);

export interface EditorDraft {
  id: string;
  path: string;
  recursive: boolean;
  workflowId: string;
  outputFolder: string;
  namingTemplate: string;
  collisionPolicy: CollisionPolicy;
  metadataPolicy: MetadataPolicy;
  outputFormat: OutputFormat;
  sidecar: SidecarKind;
  rawPairs: RawPairs;
  moveOriginals: boolean;
  existingFiles: ExistingFilesPolicy;
  polling: boolean;
  enabled: boolean;
  /** '' = the folder's own name in the studio ledger. */
  studioFolder: string;
  /** The job and client of every batch the folder sends ('' = none). */
  job: string;
  client: string;
  /** The recipe the folder runs ('' = none): its workflow, settings, deliverables and budget per photo. */
  recipe: string;
  /** Queue priority of the folder's batches (higher is sent first). */
  priority: number;
}

export function draftFrom(config: HotFolderConfig | null, defaults: { path?: string; outputFolder?: string | null; namingTemplate?: string }): EditorDraft {
  return config
    ? { ...config, namingTemplate: config.namingTemplate ?? '', studioFolder: config.studioFolder ?? '', job: config.job ?? '', client: config.client ?? '', recipe: config.recipe ?? '' }
    : {
      id: newId(), path: defaults.path ?? '', recursive: false, workflowId: '', outputFolder: defaults.outputFolder ?? '',
      namingTemplate: '', collisionPolicy: 'suffix', metadataPolicy: 'keep', outputFormat: 'source', sidecar: 'none', rawPairs: 'jpeg', moveOriginals: false, existingFiles: 'dry-run', polling: false, enabled: false, studioFolder: '', job: '', client: '', recipe: '', priority: 0,
    };
}

export function HotFolderEditor({ config, initialPath, onClose }: { config: HotFolderConfig | null; initialPath?: string; onClose: () => void }) {
  const settings = useApp((s) => s.settings);
  const workflows = useApp((s) => s.workflows);
  const detail = useApp(selectCurrentDetail);
  const form = useApp((s) => s.form);
  const { saveHotFolder, selectWorkflow, replaceForm, revealFormErrors, borrowForm, noteJobClient, loadRecipes } = useActions();
  const t = useT('hotfolders');
  const format = useFormat();
  const recipes = useApp((s) => s.recipes);
  const recipesLoaded = useApp((s) => s.recipesLoaded);
  // The editor uses the store's one generated form; the batch form being built on Workflows is restored on close.
  useEffect(() => borrowForm(), [borrowForm]);
  const [draft, setDraft] = useState<EditorDraft>(() => draftFrom(config, { path: initialPath, outputFolder: settings?.outputFolder }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { path: useId(), workflow: useId(), out: useId(), naming: useId(), collision: useId(), metadata: useId(), format: useId(), sidecar: useId(), rawPairs: useId(), existing: useId(), studio: useId(), recipe: useId() };
  const set = (patch: Partial<EditorDraft>) => setDraft((d) => ({ ...d, ...patch }));

  useEffect(() => {
    if (draft.workflowId) void selectWorkflow(draft.workflowId);
  }, [draft.workflowId, selectWorkflow]);
  useEffect(() => {
    // Editing: start the generated form from the folder's saved parameters, once its schema is here.
    if (config && detail?.id === config.workflowId && form?.workflowId === config.workflowId) replaceForm(formFromParameters(detail, config.parameters));
  }, [config, detail?.id]);

  useEffect(() => {
    if (!recipesLoaded) void loadRecipes();
  }, [recipesLoaded, loadRecipes]);
  const recipe = recipes.find((r) => r.name === draft.recipe) ?? null;
  useEffect(() => {
    // A recipe picked: the form shows its parameters (main sends the recipe as saved whatever the form says).
    if (recipe && detail?.id === recipe.workflowId && form?.workflowId === recipe.workflowId) replaceForm(formFromParameters(detail, recipe.parameters));
  }, [recipe?.name, detail?.id, form?.workflowId]);
  const pickRecipe = (name: string) => {
    const picked = recipes.find((r) => r.name === name);
    if (!picked) return set({ recipe: '' });
    const first = picked.deliverables[0]!;
    set({ recipe: picked.name, workflowId: picked.workflowId, namingTemplate: first.namingTemplate, outputFormat: first.format, metadataPolicy: first.metadata, sidecar: first.sidecar });
  };

  const ready = Boolean(draft.workflowId && detail?.id === draft.workflowId && form?.workflowId === draft.workflowId);
  const formErrors = useMemo(() => (ready && detail && form ? validateForm(detail, form) : {}), [ready, detail, form]);
  const shown = form?.showErrors ? formErrors : {};

  /** `arm`: save and start watching at once (a new folder is otherwise saved Off). */
  const save = async (arm = false) => {
    if (Number.isNaN(draft.priority)) return; // PriorityField says what it takes
    const imageErrors = Object.keys(formErrors).filter((k) => !k.startsWith('image:'));
    if (ready && imageErrors.length > 0) {
      revealFormErrors();
      return;
    }
    const { namingTemplate, studioFolder, job, client, recipe: recipeName, ...rest } = draft;
    const result = await saveHotFolder({
      ...rest,
      recipe: recipeName || null,
      ...(arm ? { enabled: true } : {}),
      studioFolder: studioFolder.trim() || null,
      job: job.trim() || null,
      client: client.trim() || null,
      ...(namingTemplate.trim() ? { namingTemplate } : {}),
      parameters: ready && detail && form ? toParameters(detail, form) : {},
      imageField: form?.batchField ?? undefined,
    });
    if (result) setErrors(result);
    else {
      noteJobClient({ job, client });
      onClose();
    }
  };

  return (
    <Dialog
      title={config ? t('Editor.editTitle') : t('Editor.newTitle')}
      onClose={onClose}
      wide
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>{t('cancel')}</button>
          {draft.enabled ? (
            <button type="button" className="btn btn-primary" onClick={() => void save()}>{t('Editor.save')}</button>
          ) : (
            <>
              <button type="button" className="btn" onClick={() => void save()} title={t('Editor.saveOffHint')}>{t('Editor.save')}</button>
              <button type="button" className="btn btn-primary" onClick={() => void save(true)}>{t('Editor.saveAndArm')}</button>
            </>
          )}
        </>
      }
    >
      {errors.form && <p className="callout callout-danger" role="alert">{errors.form}</p>}
      <div className="field">
        <label htmlFor={ids.path} className="field-label">{t('Editor.folder')}</label>
        <div className="path-input">
          <input id={ids.path} className="input input-mono" value={draft.path} placeholder={t('Editor.folderPlaceholder')} onChange={(e) => set({ path: e.target.value })} aria-invalid={errors.path ? true : undefined} />
          <FolderPickButton title={t('Editor.chooseFolder')} onPick={(path) => set({ path })} />
        </div>
        {errors.path && <p className="field-error" role="alert">{errors.path}</p>}
        <label className="inline-check"><input type="checkbox" checked={draft.recursive} onChange={(e) => set({ recursive: e.target.checked })} /> {t('Editor.recursive')}</label>
      </div>
      <div className="field">
        <label htmlFor={ids.recipe} className="field-label">{t('Editor.recipe')}</label>
        <select id={ids.recipe} className="input" value={draft.recipe} onChange={(e) => pickRecipe(e.target.value)}>
          <option value="">{t('Editor.noRecipe')}</option>
          {draft.recipe && !recipe && recipesLoaded && <option value={draft.recipe}>{t('Editor.recipeNotFound', { name: draft.recipe })}</option>}
          {recipes.map((r) => <option key={r.name} value={r.name}>{t('Editor.recipeOption', { name: r.name, workflow: r.workflowId, count: r.deliverables.length })}</option>)}
        </select>
        {draft.recipe && (
          <p className="field-hint">{t('Editor.recipeHint')}</p>
        )}
      </div>
      <div className="field">
        <label htmlFor={ids.workflow} className="field-label">{t('Editor.workflow')}</label>
        <select id={ids.workflow} className="input" value={draft.workflowId} disabled={recipe !== null} onChange={(e) => set({ workflowId: e.target.value })} aria-invalid={errors.workflowId ? true : undefined}>
          <option value="">{t('Editor.chooseWorkflow')}</option>
          {workflows.map((w) => <option key={w.id} value={w.id}>{w.name} ({format.credits(w.creditCost)})</option>)}
        </select>
        {errors.workflowId && <p className="field-error" role="alert">{errors.workflowId}</p>}
      </div>
      {ready && detail && (
        <div className="subpanel">
          {detail.inputSchema.textFields.map((f) => <TextFieldInput key={f.id} field={f} error={shown[`text:${f.id}`]} />)}
          {detail.inputSchema.switchFields.map((f) => <SwitchChips key={f.id} field={f} error={shown[`switch:${f.id}`]} />)}
          <OutputOverrides />
        </div>
      )}
      <div className="field">
        <label htmlFor={ids.out} className="field-label">{t('Editor.output')}</label>
        <div className="path-input">
          <input id={ids.out} className="input input-mono" value={draft.outputFolder} onChange={(e) => set({ outputFolder: e.target.value })} aria-invalid={errors.outputFolder ? true : undefined} />
          <FolderPickButton title={t('Editor.chooseOutput')} onPick={(outputFolder) => set({ outputFolder })} />
        </div>
        {errors.outputFolder && <p className="field-error" role="alert">{errors.outputFolder}</p>}
      </div>
      <div className="field-pair">
        <div className="field">
          <label htmlFor={ids.naming} className="field-label">{t('Editor.fileNames')}</label>
          <input id={ids.naming} className="input input-mono" value={draft.namingTemplate} placeholder={settings?.namingTemplate ?? DEFAULT_NAMING} onChange={(e) => set({ namingTemplate: e.target.value })} />
        </div>
        <SelectField
          label={t('Editor.ifExists')} id={ids.collision} value={draft.collisionPolicy} options={COLLISION_POLICIES} labels={COLLISION_LABELS}
          onChange={(v) => set({ collisionPolicy: v })}
        />
      </div>
      <JobClientFields value={draft} onChange={set} />
      <PriorityField value={draft.priority} onChange={(priority) => set({ priority })} />
      <SelectField
        label={t('Editor.fileFormat')} id={ids.format} value={draft.outputFormat} options={OUTPUT_FORMATS} labels={FORMAT_LABELS}
        onChange={(v) => set({ outputFormat: v })}
      />
      <SelectField
        label={t('Editor.rawPairs')} id={ids.rawPairs} value={draft.rawPairs} options={RAW_PAIR_MODES} labels={RAW_PAIR_LABELS}
        onChange={(v) => set({ rawPairs: v })}
      />
      <SelectField
        label={t('Editor.metadata')} id={ids.metadata} value={draft.metadataPolicy} options={METADATA_POLICIES} labels={METADATA_LABELS}
        onChange={(v) => set({ metadataPolicy: v })}
      />
      <SelectField
        label={t('Editor.sidecar')} id={ids.sidecar} value={draft.sidecar} options={SIDECAR_KINDS} labels={SIDECAR_LABELS}
        onChange={(v) => set({ sidecar: v })}
      />
      <div className="field">
        <label htmlFor={ids.existing} className="field-label">{t('Editor.existing')}</label>
        <select id={ids.existing} className="input" value={draft.existingFiles} onChange={(e) => set({ existingFiles: e.target.value as ExistingFilesPolicy })}>
          {(Object.keys(EXISTING_LABELS) as ExistingFilesPolicy[]).map((p) => <option key={p} value={p}>{EXISTING_LABELS[p]}</option>)}
        </select>
      </div>
      <label className="inline-check"><input type="checkbox" checked={draft.moveOriginals} onChange={(e) => set({ moveOriginals: e.target.checked })} /> {t('Editor.moveOriginals')}</label>
      {settings?.studioLedgerUrl && (
        <div className="field">
          <label htmlFor={ids.studio} className="field-label">{t('Editor.studioName')}</label>
          <input id={ids.studio} className="input input-mono" value={draft.studioFolder} placeholder={baseName(draft.path) || t('Editor.studioNamePlaceholder')} onChange={(e) => set({ studioFolder: e.target.value })} />
          <p className="field-hint">{t('Editor.studioNameHint')}</p>
        </div>
      )}
      <label className="inline-check"><input type="checkbox" checked={draft.polling} onChange={(e) => set({ polling: e.target.checked })} /> {t('Editor.polling')}</label>
    </Dialog>
  );
}
