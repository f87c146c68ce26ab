import type { BatchSpecInput } from '../../shared/engine/model';
import { asUiError, toUiError, unwrap, type UiError } from '../lib/errors';
import { fieldPathOf, toParameters, validateForm } from '../lib/form-model';
import { selectCurrentDetail } from './catalog-slice';
import { formOutput } from './recipe-form';
import type { BatchEstimate } from '../../shared/engine/model';
import { MAX_CHECKED_PATHS } from '../../shared/ipc/channels/files';
import type { BatchDraft, BatchSlice, SliceCreator } from './state';
import { activeFormat, tr } from '../i18n';

/** How long the draft must stay unchanged before it is priced (typing a path, ticking options). */
export const DRAFT_PRICE_DELAY_MS = 250;
/** The summary reuses the draft price's estimate this long (main reuses the balance it read as long: recent-reads.ts). */
const SUMMARY_REUSE_MS = 10_000;

const EMPTY_DRAFT: BatchDraft = { paths: [], recursive: true, outputFolder: null, namingTemplate: null, collisionPolicy: null, metadataPolicy: null, outputFormat: null, budget: null, job: '', client: '', rerun: false };

export const createBatchSlice: SliceCreator<BatchSlice> = (set, get, bridge) => {
  /** The spec for the current form and draft, or an error in plain words saying what is missing. */
  const buildFormSpec = ({ quiet = false } = {}): { spec: BatchSpecInput } | { error: UiError } => {
    const state = get();
    const detail = selectCurrentDetail(state);
    const form = state.form;
    if (!detail || !form) return { error: toUiError('bad_request', tr('queue', 'store.chooseWorkflow')) };
    const formErrors = validateForm(detail, form);
    const invalid = Object.entries(formErrors);
    if (invalid.length > 0) {
      if (!quiet) state.revealFormErrors();
      // The first field in the form's order, by name: the form scrolls to it and focuses it (`field`).
      const [[key, message]] = invalid as [[string, string]];
      const more = invalid.length - 1;
      const title = more === 0 ? message : tr('queue', 'store.moreFields', { message, count: more });
      return { error: { code: 'bad_request', title, detail: invalid.map(([, m]) => m).join(' '), field: fieldPathOf(key) } };
    }
    const { draft, settings } = state;
    if (draft.paths.length === 0) return { error: { code: 'bad_request', title: tr('queue', 'store.addPhotos'), detail: 'no input paths', field: 'inputs.paths' } };
    // Empty: main saves to a `Batchroom` folder next to the photos and says where in the estimate.
    const outputFolder = draft.outputFolder ?? settings?.outputFolder ?? '';
    const fixed = Object.entries(form.fixedImages);
    const batchField = form.batchField ?? undefined;
    const inputs = fixed.length > 0 && batchField
      ? { paths: [], recursive: draft.recursive, mappings: draft.paths.map((p) => ({ [batchField]: p, ...form.fixedImages })) }
      : { paths: draft.paths, recursive: draft.recursive, imageField: batchField, rawPairs: settings?.rawPairs ?? 'jpeg' };
    return {
      spec: {
        workflowId: detail.id,
        parameters: toParameters(detail, form),
        inputs,
        output: formOutput(draft, settings, outputFolder),
        encode: { uploadSizePolicy: settings?.uploadSizePolicy ?? 'fit', stripMetadata: settings?.stripMetadata ?? true },
        budget: draft.budget,
        rerun: draft.rerun,
        source: { kind: 'manual' },
        // Blank means none: the spec takes a job or client of at least one character, or no key at all.
        ...(draft.job.trim() ? { job: draft.job.trim() } : {}),
        ...(draft.client.trim() ? { client: draft.client.trim() } : {}),
      },
    };
  };

  // A recipe picked in the form decides the deliverables (recipe-slice.ts): deliverable 1 is the output, the others go beside it.
  const buildSpec = (options?: { quiet?: boolean }): { spec: BatchSpecInput } | { error: UiError } => {
    const built = buildFormSpec(options);
    return 'spec' in built ? { spec: get().applyRecipeOutput(built.spec) } : built;
  };

  // One estimate per distinct draft: the draft price's, which "Review batch…" reuses when the draft is the same and
  // the answer recent (a folder's photos or the balance may have changed since: the summary must say what Start does).
  let priceTimer: ReturnType<typeof setTimeout> | undefined;
  let asked: { key: string; answer: Promise<BatchEstimate>; at: number } | undefined;
  /** The draft whose estimate main is working on now: only its progress is shown. */
  let inFlight: string | undefined;
  /** Cancels pressed so far: an estimate asked before the latest one is nobody's answer. */
  let cancels = 0;
  const estimateOf = (spec: BatchSpecInput, maxAgeMs = Number.POSITIVE_INFINITY): { key: string; answer: Promise<BatchEstimate> } => {
    const key = JSON.stringify(spec);
    if (asked?.key !== key || Date.now() - asked.at > maxAgeMs) {
      const answer = unwrap(bridge.batches.estimate(spec));
      asked = { key, answer, at: Date.now() };
      inFlight = key;
      const settled = () => { if (inFlight === key) inFlight = undefined; };
      answer.then(settled, settled);
      // The draft price follows whichever asked first; a newer draft's answer wins.
      answer.then(
        (estimate) => { if (asked?.key === key) set({ draftPrice: { state: 'priced', key, estimate }, estimateProgress: null }); },
        () => {
          if (asked?.key !== key) return;
          set({ estimateProgress: null });
          asked = undefined; // asked again next time (the service may answer then)
          set({ draftPrice: { state: 'failed', key } });
        },
      );
    }
    return asked;
  };

  /**
   * Asks main what each new path is, so the list marks a typed path that does not exist or is not a photo at once
   * (before, it became a chip like any folder and only the summary said otherwise). A host without the channel answers
   * nothing: the paths stay unmarked and the estimate still judges them.
   */
  const checkPaths = async (paths: string[]) => {
    for (let at = 0; at < paths.length; at += MAX_CHECKED_PATHS) {
      const answered = await bridge.files.checkPaths({ paths: paths.slice(at, at + MAX_CHECKED_PATHS) });
      if (!answered.ok) return;
      set((s) => ({ pathKinds: { ...s.pathKinds, ...Object.fromEntries(answered.data.map((a) => [a.path, a.kind])) } }));
    }
  };

  return {
    draft: EMPTY_DRAFT,
    pathKinds: {},
    draftPrice: { state: 'none' },
    estimate: null,
    estimating: false,
    estimateProgress: null,
    starting: false,
    draftError: null,

    addPaths: (paths) => {
      const seen = new Set(get().draft.paths);
      const fresh = paths.filter((p) => p.trim() !== '' && !seen.has(p) && seen.add(p));
      set((s) => ({ draft: { ...s.draft, paths: [...s.draft.paths, ...fresh], rerun: false }, estimate: null, draftError: null }));
      // Asked again on every add: a folder created or a file renamed since is judged as it is now.
      if (fresh.length > 0) void checkPaths(fresh);
    },
    removePath: (path) => set((s) => ({ draft: { ...s.draft, paths: s.draft.paths.filter((p) => p !== path), rerun: false }, estimate: null })),
    clearPaths: () => set((s) => ({ draft: { ...s.draft, paths: [], rerun: false }, estimate: null, pathKinds: {} })),
    setDraft: (patch) => set((s) => ({ draft: { ...s.draft, ...patch }, estimate: null, ...(s.draftError?.field ? { draftError: null } : {}) })),

    async requestEstimate() {
      const built = buildSpec();
      if ('error' in built) {
        set({ draftError: built.error, estimate: null });
        return;
      }
      set({ estimating: true, draftError: null });
      clearTimeout(priceTimer);
      const cancelsBefore = cancels;
      try {
        const answer = await estimateOf(built.spec, SUMMARY_REUSE_MS).answer;
        // Main may answer though Cancel was pressed (it came past planning's last cancel point): the user stopped
        // this estimate, so its summary is not opened.
        if (cancels === cancelsBefore) set({ estimate: answer });
      } catch (error) {
        const uiError = asUiError(error);
        // Cancelled by the user: nothing to explain.
        if (uiError.code !== 'cancelled') set({ draftError: uiError });
      } finally {
        set({ estimating: false });
      }
    },
    applyEstimateProgress(progress) {
      if (inFlight) set({ estimateProgress: progress }); // one that ended before its word arrived is not shown again
    },
    async cancelEstimate() {
      cancels++;
      clearTimeout(priceTimer);
      asked = undefined; // its answer (a 'cancelled' refusal) is nobody's price; the next change asks again
      inFlight = undefined;
      set({ estimateProgress: null, draftPrice: { state: 'none' } });
      await bridge.batches.cancelEstimate({});
    },
    scheduleDraftPrice() {
      clearTimeout(priceTimer);
      if (get().draft.paths.length === 0) { set({ draftPrice: { state: 'none' } }); return; }
      const built = buildSpec({ quiet: true });
      if ('error' in built) { set({ draftPrice: { state: 'incomplete' } }); return; }
      const key = JSON.stringify(built.spec);
      const current = get().draftPrice;
      if (asked?.key === key && current.state !== 'none' && current.state !== 'incomplete' && current.key === key) return;
      set({ draftPrice: { state: 'estimating', key } });
      priceTimer = setTimeout(() => { estimateOf(built.spec).answer.catch(() => undefined); }, DRAFT_PRICE_DELAY_MS);
    },
    resetEstimate: () => set((s) => ({ estimate: null, draftError: null, draft: { ...s.draft, rerun: false } })),

    async setRerun(rerun) {
      set((s) => ({ draft: { ...s.draft, rerun } }));
      await get().requestEstimate();
    },

    async startBatch(options = {}) {
      const built = buildSpec();
      if ('error' in built) {
        set({ draftError: built.error });
        return false;
      }
      set({ starting: true, draftError: null });
      try {
        // From a recipe: its name and the fingerprint main computes of what is sent, checked against its budget per photo.
        const spec = await get().stampRecipe(built.spec, get().estimate?.costPerItem ?? null);
        const summary = await unwrap(bridge.batches.create(options.tryFirst ? { ...spec, tryFirst: options.tryFirst } : spec));
        if (options.tryFirst) get().noteTrial(summary.id, spec);
        // What this batch now holds changes every estimate of the same photos ("already running in another batch: 0
        // credits"): the draft's answer from before Start must not be reused by the next "Review batch…".
        asked = undefined;
        set((s) => ({ estimate: null, draftPrice: { state: 'none' }, draft: { ...s.draft, paths: [], rerun: false }, pathKinds: {} }));
        get().noteJobClient(built.spec);
        get().upsertBatches([summary]);
        get().selectBatch(summary.id);
        get().setView('queue');
        get().notify('info', summary.trialRest
          ? tr('queue', 'store.trying', { workflow: summary.workflowName, photos: activeFormat().photos(summary.total), rest: summary.trialRest })
          : tr('queue', 'store.started', { workflow: summary.workflowName, photos: activeFormat().photos(summary.total) }));
        return true;
      } catch (error) {
        set({ draftError: asUiError(error) });
        return false;
      } finally {
        set({ starting: false });
      }
    },
  };
};
