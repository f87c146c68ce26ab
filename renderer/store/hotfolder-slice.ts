import {
  HotFolderConfigSchema, type HotFolderState,
} from '../../shared/hotfolders/model';
import { asUiError, unwrap, type UiError } from '../lib/errors';
import type { HotFolderSlice, SliceCreator } from './state';

const MAX_ACTIVITY = 200;

/** Fields the hot-folder editor shows an error beside. */
const EDITOR_FIELDS = new Set(['path', 'workflowId', 'outputFolder']);

export const createHotFolderSlice: SliceCreator<HotFolderSlice> = (set, get, bridge) => {
  const replaceOne = (state: HotFolderState) =>
    set((s) => {
      const exists = s.hotFolders.some((h) => h.config.id === state.config.id);
      return {
        hotFolders: exists ? s.hotFolders.map((h) => (h.config.id === state.config.id ? state : h)) : [...s.hotFolders, state],
      };
    });
  const report = (error: unknown): UiError => {
    const ui = asUiError(error);
    get().notifyError(ui);
    return ui;
  };

  return {
    hotFolders: [],
    hotFoldersLoaded: false,
    hotFoldersError: null,
    activity: [],
    dryRuns: {},
    pendingFolderPath: null,
    setPendingFolderPath: (pendingFolderPath) => set({ pendingFolderPath }),

    async loadHotFolders() {
      try {
        set({ hotFolders: await unwrap(bridge.hotFolders.list({})), hotFoldersLoaded: true, hotFoldersError: null });
      } catch (error) {
        // Shown on the Hot folders screen, not as a notice: most people never open it.
        set({ hotFoldersLoaded: true, hotFoldersError: asUiError(error) });
      }
    },

    async saveHotFolder(config) {
      const parsed = HotFolderConfigSchema.safeParse(config);
      if (!parsed.success) {
        const errors: Record<string, string> = {};
        for (const issue of parsed.error.issues) {
          const key = String(issue.path[0] ?? 'form');
          errors[EDITOR_FIELDS.has(key) ? key : 'form'] ??= EDITOR_FIELDS.has(key) ? issue.message : `${key}: ${issue.message}`;
        }
        return errors;
      }
      try {
        replaceOne(await unwrap(bridge.hotFolders.save(parsed.data)));
        return null;
      } catch (error) {
        // A field main named (`outputFolder`) is marked in the editor; anything else is said above the form.
        const ui = asUiError(error);
        const key = ui.field?.split('.').pop();
        if (key && EDITOR_FIELDS.has(key)) return { [key]: ui.title };
        return { form: report(error).title };
      }
    },

    async removeHotFolder(id) {
      try {
        await unwrap(bridge.hotFolders.remove({ id }));
        set((s) => ({ hotFolders: s.hotFolders.filter((h) => h.config.id !== id) }));
      } catch (error) {
        report(error);
      }
    },

    async setArmed(id, armed) {
      try {
        replaceOne(await unwrap(bridge.hotFolders.setArmed({ id, armed })));
      } catch (error) {
        report(error);
      }
    },

    async dryRun(id) {
      try {
        const result = await unwrap(bridge.hotFolders.dryRun({ id }));
        set((s) => ({ dryRuns: { ...s.dryRuns, [id]: result } }));
      } catch (error) {
        report(error);
      }
    },

    async reprocess(id) {
      try {
        replaceOne(await unwrap(bridge.hotFolders.reprocess({ id })));
      } catch (error) {
        report(error);
      }
    },

    applyHotFolders: (hotFolders) => set({ hotFolders, hotFoldersLoaded: true, hotFoldersError: null }),
    applyActivity: (entry) => set((s) => ({ activity: [entry, ...s.activity].slice(0, MAX_ACTIVITY) })),
  };
};
