import { asUiError, BridgeError, toUiError, unwrap, type UiError } from '../lib/errors';
import { selectCurrentDetail } from './catalog-slice';
import { deliverableOptions, describePaidChanges, firstDeliverable, formFromRecipe, sentParameters } from './recipe-form';
import type { RecipePaidParts } from '../../shared/recipes/fingerprint';
import type { WorkflowParameters } from '../../shared/service/model';
import type { RecipeSlice, TrialRecord } from './recipe-state';
import type { SliceCreator } from './state';
import { activeFormat, tr } from '../i18n';

/** Runs a recipes:* call; its failure is answered (a dialog shows it beside its field), never thrown at the UI. */
async function attempt(fn: () => Promise<unknown>): Promise<UiError | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    // Main's recipe messages name the recipe and the field ("a recipe named “X” already exists"): shown as they are.
    return error instanceof BridgeError ? { ...error.ui, title: error.message } : asUiError(error);
  }
}

export const createRecipeSlice: SliceCreator<RecipeSlice> = (set, get, bridge) => {
  const reload = () => get().loadRecipes();

  /** The workflow's schema as the service describes it now (the catalog's cache, else asked). */
  /** The parts of each fingerprint stamped on a spec this session, so a trial can later say which part changed. */
  const stamped = new Map<string, RecipePaidParts>();
  const detailOf = async (workflowId: string) => get().details[workflowId] ?? unwrap(bridge.workflows.get({ id: workflowId }));

  return {
    recipes: [],
    recipeProblems: [],
    recipesLoaded: false,
    recipesError: null,
    activeRecipe: null,
    trials: {},

    async loadRecipes() {
      try {
        const { recipes, problems } = await unwrap(bridge.recipes.list({}));
        set({ recipes, recipeProblems: problems, recipesLoaded: true, recipesError: null });
      } catch (error) {
        set({ recipesLoaded: true, recipesError: asUiError(error) });
      }
    },

    async saveRecipe(name, options = {}) {
      const state = get();
      const detail = selectCurrentDetail(state);
      const { form, draft, settings, activeRecipe } = state;
      if (!detail || !form) return toUiError('bad_request', tr('recipes', 'store.chooseWorkflow'));
      // Deliverable 1 is the form's output; the recipe's other deliverables and budget come along when editing it.
      const kept = activeRecipe?.workflowId === detail.id ? activeRecipe : null;
      const deliverables = [firstDeliverable(kept?.deliverables[0], draft, settings), ...(kept?.deliverables.slice(1) ?? [])];
      const budgetPerPhoto = kept?.budgetPerPhoto ?? null;
      return attempt(async () => {
        const { recipe, images } = await unwrap(bridge.recipes.save({
          name, workflowId: detail.id, parameters: sentParameters(detail, form, kept), fixedImages: form.fixedImages,
          budgetPerPhoto, deliverables, replace: options.replace ?? false,
        }));
        // The saved recipe is now the form's: its deliverables as stored (hashes filled in), the draft's choices in them.
        set((s) => ({
          activeRecipe: { name: recipe.name, workflowId: recipe.workflowId, parameters: recipe.parameters, deliverables: recipe.deliverables, budgetPerPhoto: recipe.budgetPerPhoto, steps: recipe.steps, warnings: images.flatMap((i) => (i.message ? [i.message] : [])) },
          draft: { ...s.draft, namingTemplate: null, outputFormat: null, metadataPolicy: null },
        }));
        get().notify('info', tr('recipes', 'store.saved', { name: recipe.name }));
        await reload();
      });
    },

    async pickRecipe(name) {
      return attempt(async () => {
        const { recipe, images } = await unwrap(bridge.recipes.get({ name }));
        const detail = await detailOf(recipe.workflowId);
        set((s) => ({ details: { ...s.details, [detail.id]: detail } }));
        await get().selectWorkflow(recipe.workflowId);
        const { form, warnings } = formFromRecipe(detail, recipe);
        get().replaceForm(form);
        set((s) => ({
          // The recipe's deliverable 1 speaks for the output until the user changes it in the form again.
          draft: { ...s.draft, namingTemplate: null, outputFormat: null, metadataPolicy: null, rerun: false },
          activeRecipe: {
            name: recipe.name, workflowId: recipe.workflowId, parameters: recipe.parameters, deliverables: recipe.deliverables, budgetPerPhoto: recipe.budgetPerPhoto,
            steps: recipe.steps, warnings: [...warnings, ...images.flatMap((i) => (i.message ? [i.message] : []))],
          },
        }));
        get().resetEstimate();
      });
    },

    clearRecipe: () => set({ activeRecipe: null }),
    setRecipeDeliverables: (deliverables, budgetPerPhoto) =>
      set((s) => (s.activeRecipe
        // The editor is the latest word on deliverable 1: the form's own output choices give way to it.
        ? { activeRecipe: { ...s.activeRecipe, deliverables, budgetPerPhoto }, draft: { ...s.draft, namingTemplate: null, outputFormat: null, metadataPolicy: null } }
        : {})),

    duplicateRecipe: (from, to) => attempt(async () => {
      await unwrap(bridge.recipes.duplicate({ from, to }));
      await reload();
    }),
    renameRecipe: (from, to) => attempt(async () => {
      const renamed = await unwrap(bridge.recipes.rename({ from, to }));
      set((s) => (s.activeRecipe?.name === from ? { activeRecipe: { ...s.activeRecipe, name: renamed.name } } : {}));
      await reload();
    }),
    deleteRecipe: (name) => attempt(async () => {
      await unwrap(bridge.recipes.delete({ name }));
      set((s) => (s.activeRecipe?.name === name ? { activeRecipe: null } : {}));
      await reload();
    }),
    async exportRecipe(name) {
      try {
        return await unwrap(bridge.recipes.export({ name }));
      } catch (error) {
        get().notifyError(asUiError(error));
        return null;
      }
    },
    importRecipe: (text, options = {}) => attempt(async () => {
      const { recipe, images, replaced } = await unwrap(bridge.recipes.import({ text, ...options }));
      const missing = images.filter((i) => i.status !== 'ok').map((i) => i.message).filter(Boolean);
      const done = replaced ? tr('recipes', 'store.replaced', { name: recipe.name }) : tr('recipes', 'store.imported', { name: recipe.name });
      get().notify(missing.length ? 'warning' : 'info', missing.length ? `${done} ${missing.join(' ')}` : done);
      await reload();
    }),

    applyRecipeOutput(spec) {
      const { activeRecipe, draft, settings, form } = get();
      const detail = selectCurrentDetail(get());
      if (!activeRecipe || activeRecipe.workflowId !== spec.workflowId || !detail || !form) return spec;
      const [first, ...rest] = activeRecipe.deliverables;
      return {
        ...spec,
        parameters: sentParameters(detail, form, activeRecipe),
        output: { ...spec.output, ...deliverableOptions(firstDeliverable(first, draft, settings)) },
        deliverables: rest.map(deliverableOptions),
      } as typeof spec;
    },

    async stampRecipe(spec, costPerItem) {
      const { activeRecipe, form } = get();
      if (!activeRecipe || activeRecipe.workflowId !== spec.workflowId || !form) return spec;
      // A chain runs its steps one after the other as batches of their own (docs/recipes.md "Chains"): the app does not
      // start one yet, and never runs its first step alone as if it were the whole recipe.
      if (activeRecipe.steps.length > 0) {
        throw new BridgeError('bad_request', tr('recipes', 'store.chainNotHere', { name: activeRecipe.name, steps: activeRecipe.steps.length + 1 }));
      }
      if (activeRecipe.budgetPerPhoto !== null && costPerItem !== null && costPerItem > activeRecipe.budgetPerPhoto) {
        throw new BridgeError('bad_request', tr('recipes', 'store.overBudget', { cost: activeFormat().credits(costPerItem), name: activeRecipe.name, budget: activeFormat().credits(activeRecipe.budgetPerPhoto) }));
      }
      // What is sent: these parameters and these files' contents, from this account. Main hashes and names them.
      const { fingerprint, parts } = await unwrap(bridge.recipes.fingerprint({ workflowId: spec.workflowId, parameters: spec.parameters ?? {}, fixedImages: form.fixedImages }));
      stamped.set(fingerprint, parts);
      return { ...spec, recipe: { name: activeRecipe.name, fingerprint } };
    },

    noteTrial(batchId, spec) {
      const parts = spec.recipe && stamped.get(spec.recipe.fingerprint);
      if (!spec.recipe || !parts) return;
      const trial = { name: spec.recipe.name, workflowId: spec.workflowId, fingerprint: spec.recipe.fingerprint, parts };
      set((s) => ({ trials: { ...s.trials, [batchId]: trial } }));
    },

    async trialChanges(batchId) {
      // This session's trial knows its parts; one from before a restart, only what its spec keeps (name, fingerprint).
      const trial: Pick<TrialRecord, 'name' | 'fingerprint'> & { parts?: RecipePaidParts } | null = get().trials[batchId]
        ?? (await unwrap(bridge.recipes.ofBatch({ batchId })).catch(() => ({ recipe: null }))).recipe;
      if (!trial) return null;
      const changes: string[] = [];
      const against = async (label: string, workflowId: string, parameters: WorkflowParameters, fixedImages: Record<string, string>) => {
        const now = await unwrap(bridge.recipes.fingerprint({ workflowId, parameters, fixedImages }));
        if (now.fingerprint === trial.fingerprint) return;
        changes.push(`${label}: ${trial.parts ? describePaidChanges(trial.parts, now.parts).join(', ') : tr('recipes', 'store.notWhatWasTried')}`);
      };
      try {
        const { recipe } = await unwrap(bridge.recipes.get({ name: trial.name }));
        const detail = await detailOf(recipe.workflowId);
        // Through the form, as a batch from it would send it: a recipe written in another shape is not a change.
        const { form } = formFromRecipe(detail, recipe);
        await against(tr('recipes', 'store.asSavedNow', { name: recipe.name }), detail.id, sentParameters(detail, form, recipe), form.fixedImages);
      } catch (error) {
        if (asUiError(error).code !== 'not_found') changes.push(tr('recipes', 'store.unreadable', { name: trial.name, reason: asUiError(error).title }));
      }
      const { activeRecipe, form } = get();
      const detail = selectCurrentDetail(get());
      if (activeRecipe?.name === trial.name && form && detail) {
        await against(tr('recipes', 'store.theForm'), detail.id, sentParameters(detail, form, activeRecipe), form.fixedImages).catch(() => undefined);
      }
      return { name: trial.name, changes };
    },
  };
};
