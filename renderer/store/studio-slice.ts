import { BridgeError, asUiError, unwrap, type UiError } from '../lib/errors';
import { tr } from '../i18n';
import type { SliceCreator, StudioPasswordOutcome, StudioSlice } from './state';

/**
 * Main words studio failures for people already ("studio ledger unreachable (…)", "the studio ledger refused the
 * login …"); the generic plain words would misread them (`unauthorized` there means the API key).
 */
function studioError(error: unknown): UiError {
  const ui = asUiError(error);
  return error instanceof BridgeError && error.message ? { ...ui, title: error.message } : ui;
}

function failure(error: unknown): StudioPasswordOutcome {
  const ui = studioError(error);
  return { ok: false, message: ui.hint ? `${ui.title} ${ui.hint}` : ui.title };
}

export const createStudioSlice: SliceCreator<StudioSlice> = (set, _get, bridge) => {
  // A refresh asked while one is in flight (the 5 s timer and a click) reuses it instead of opening a second connection.
  let loading: Promise<void> | null = null;
  return {
    studioStatus: null,
    studioError: null,
    studioLoading: false,
    studioReadAt: null,
    studioTest: { state: 'idle' },

    loadStudioStatus() {
      loading ??= (async () => {
        set({ studioLoading: true });
        try {
          const studioStatus = await unwrap(bridge.studio.status({}));
          set({ studioStatus, studioError: null, studioReadAt: new Date().toISOString() });
        } catch (error) {
          set({ studioError: studioError(error) });
        } finally {
          set({ studioLoading: false });
          loading = null;
        }
      })();
      return loading;
    },

    async testStudioConnection(url) {
      set({ studioTest: { state: 'testing' } });
      try {
        set({ studioTest: { state: 'done', result: await unwrap(bridge.studio.testConnection({ url })) } });
      } catch (error) {
        set({ studioTest: { state: 'failed', error: studioError(error) } });
      }
    },

    async saveStudioPassword(url, password) {
      try {
        const saved = await unwrap(bridge.studio.savePassword({ url, password }));
        const note = saved.shadowedBy === 'PGPASSWORD'
          ? ` ${tr('hotfolders', 'store.pgpasswordFirst')}`
          : saved.shadowedBy === 'pgpass' ? ` ${tr('hotfolders', 'store.pgpassFirst')}` : '';
        return { ok: true, message: `${tr('hotfolders', 'store.passwordSaved', { ledger: saved.ledger })}${note}` };
      } catch (error) {
        return failure(error);
      }
    },

    async forgetStudioPassword(url) {
      try {
        const { ledger, removed } = await unwrap(bridge.studio.forgetPassword({ url }));
        return { ok: true, message: removed ? tr('hotfolders', 'store.passwordRemoved', { ledger }) : tr('hotfolders', 'store.noPassword', { ledger }) };
      } catch (error) {
        return failure(error);
      }
    },
  };
};
