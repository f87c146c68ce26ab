import type {    WorkflowDetail, WorkflowSummary } from '../../shared/service/model';
import { asUiError, unwrap } from '../lib/errors';
import { initialForm, toggleOption, type FormState } from '../lib/form-model';
import type { CatalogSlice, AppState, SliceCreator } from './state';

export const createCatalogSlice: SliceCreator<CatalogSlice> = (set, get, bridge) => {
  // An edit answers an error main pinned on a field: the mark goes, the next estimate checks again.
  const patchForm = (fn: (form: FormState) => FormState) =>
    set((s) => (s.form ? { form: fn(s.form), ...(s.draftError?.field ? { draftError: null } : {}) } : {}));

  return {
    workflows: [],
    workflowsLoaded: false,
    workflowsError: null,
    workflowsWarning: null,
    tagFilter: null,
    search: '',
    details: {},
    selectedWorkflowId: null,
    detailError: null,
    form: null,

    async loadWorkflows() {
      try {
        const { workflows, warning } = await unwrap(bridge.workflows.list({}));
        set({ workflows, workflowsLoaded: true, workflowsError: null, workflowsWarning: warning ?? null });
      } catch (error) {
        set({ workflowsLoaded: true, workflowsError: asUiError(error) });
      }
    },
    setTagFilter: (tag) => set({ tagFilter: tag }),
    setSearch: (search) => set({ search }),

    async selectWorkflow(id) {
      if (id === null) {
        set({ selectedWorkflowId: null, form: null, detailError: null });
        return;
      }
      set({ selectedWorkflowId: id, detailError: null });
      try {
        const detail = get().details[id] ?? (await unwrap(bridge.workflows.get({ id })));
        if (get().selectedWorkflowId !== id) return; // the user moved on while it loaded
        set((s) => ({ details: { ...s.details, [id]: detail }, form: s.form?.workflowId === id ? s.form : initialForm(detail) }));
        get().resetEstimate();
      } catch (error) {
        set({ detailError: asUiError(error), form: null });
      }
    },

    setText: (fieldId, value) => patchForm((f) => ({ ...f, texts: { ...f.texts, [fieldId]: value } })),
    toggleSwitch: (field, optionId) =>
      patchForm((f) => ({ ...f, switches: { ...f.switches, [field.id]: toggleOption(field, f.switches[field.id] ?? [], optionId) } })),
    setAspectRatio: (aspectRatio) => patchForm((f) => ({ ...f, aspectRatio })),
    setImageSize: (imageSize) => patchForm((f) => ({ ...f, imageSize })),
    setBatchField: (fieldId) =>
      patchForm((f) => {
        const fixedImages = { ...f.fixedImages };
        delete fixedImages[fieldId];
        return { ...f, batchField: fieldId, fixedImages };
      }),
    setFixedImage: (fieldId, path) =>
      patchForm((f) => {
        const fixedImages = { ...f.fixedImages };
        if (path) fixedImages[fieldId] = path;
        else delete fixedImages[fieldId];
        return { ...f, fixedImages };
      }),
    revealFormErrors: () => patchForm((f) => ({ ...f, showErrors: true })),
    replaceForm: (form) => set({ form }),
    borrowForm: () => {
      const { selectedWorkflowId, form, detailError } = get();
      return () => set({ selectedWorkflowId, form, detailError });
    },
  };
};

export function selectAllTags(s: Pick<AppState, 'workflows'>): string[] {
  return [...new Set(s.workflows.flatMap((w) => w.tags))].sort();
}

export function filterWorkflows(workflows: WorkflowSummary[], tag: string | null, search: string): WorkflowSummary[] {
  const needle = search.trim().toLowerCase();
  return workflows.filter(
    (w) =>
      (tag === null || w.tags.includes(tag)) &&
      (needle === '' || `${w.name} ${w.description} ${w.tags.join(' ')}`.toLowerCase().includes(needle)),
  );
}

export function selectCurrentDetail(s: Pick<AppState, 'details' | 'selectedWorkflowId'>): WorkflowDetail | null {
  return s.selectedWorkflowId ? s.details[s.selectedWorkflowId] ?? null : null;
}
