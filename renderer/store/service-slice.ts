import { asUiError, unwrap } from '../lib/errors';
import type { ServiceSlice, SliceCreator } from './state';
import { tr } from '../i18n';

export const createServiceSlice: SliceCreator<ServiceSlice> = (set, get, bridge) => ({
  appInfo: null,
  status: null,
  balance: null,
  balanceError: null,
  settings: null,
  settingsWarnings: [],
  keyStatus: null,
  keyCheck: { state: 'idle' },
  consent: null,

  async loadService() {
    // The mode badge and the balance come from the service, which the host answers before the rest of main is up
    // (journal, engine): they are shown as they arrive, not after the settings and the key's state.
    const status = unwrap(bridge.service.status()).then((value) => set({ status: value }));
    const balance = get().refreshBalance();
    const [info, settings, key] = await Promise.allSettled([
      unwrap(bridge.app.info()),
      unwrap(bridge.settings.get()),
      unwrap(bridge.key.status()),
      status,
    ]);
    if (info.status === 'fulfilled') set({ appInfo: info.value });
    if (settings.status === 'fulfilled') set({ settings: settings.value.settings, settingsWarnings: settings.value.warnings });
    else get().notifyError(asUiError(settings.reason));
    if (key.status === 'fulfilled') set({ keyStatus: key.value });
    await balance;
  },

  async refreshBalance() {
    try {
      set({ balance: await unwrap(bridge.balance.get()), balanceError: null });
    } catch (error) {
      set({ balanceError: asUiError(error) });
    }
  },

  async updateSettings(patch) {
    try {
      const settings = await unwrap(bridge.settings.update({ patch }));
      set({ settings });
      // A new service or sandbox choice changes which key applies, the mode and the balance.
      if ('serviceUrl' in patch || 'sandboxMode' in patch) void get().loadService();
      return true;
    } catch (error) {
      get().notifyError(asUiError(error));
      return false;
    } finally {
      // The question it may have raised is over (the service, or the studio ledger and its TLS switch).
      if ('serviceUrl' in patch || 'studioLedgerUrl' in patch || 'studioLedgerAllowPlaintext' in patch) set({ consent: null });
    }
  },

  async setKey(apiKey, serviceUrl) {
    set({ keyCheck: { state: 'checking' } });
    try {
      const keyStatus = await unwrap(bridge.key.set(serviceUrl ? { apiKey, serviceUrl } : { apiKey }));
      set({ keyStatus, keyCheck: { state: 'ok', message: keyStatus.message } });
      void get().loadService();
      return true;
    } catch (error) {
      set({ keyCheck: { state: 'failed', error: asUiError(error) } });
      return false;
    }
  },

  async reuseKey(fromServiceUrl) {
    set({ keyCheck: { state: 'checking' } });
    try {
      const keyStatus = await unwrap(bridge.key.reuse({ fromServiceUrl }));
      set({ keyStatus, keyCheck: { state: 'ok', message: keyStatus.message } });
      void get().loadService();
      return true;
    } catch (error) {
      set({ keyCheck: { state: 'failed', error: asUiError(error) } });
      return false;
    } finally {
      set({ consent: null });
    }
  },

  async allowKeyOrigin() {
    set({ keyCheck: { state: 'checking' } });
    try {
      const keyStatus = await unwrap(bridge.key.allowOrigin({}));
      set({ keyStatus, keyCheck: { state: 'ok', message: keyStatus.message } });
      void get().loadService();
      return true;
    } catch (error) {
      set({ keyCheck: { state: 'failed', error: asUiError(error) } });
      return false;
    } finally {
      set({ consent: null });
    }
  },

  async deleteKey() {
    try {
      const keyStatus = await unwrap(bridge.key.delete({}));
      set({ keyStatus, keyCheck: { state: 'idle' } });
      void get().loadService();
    } catch (error) {
      get().notifyError(asUiError(error));
    }
  },

  applyServiceStatus: (status) => set({ status }),
  applyBalance: (balance) => set({ balance, balanceError: null }),
  applySettings: (settings) => set({ settings }),
  applyConsentRequest: (consent) => set({ consent }),

  async answerConsent(code) {
    try {
      const answer = await unwrap(bridge.consent.answer({ code }));
      if (answer.accepted) {
        set({ consent: null }); // answered: main goes on with the change (a later question opens a new prompt)
        return true;
      }
      const current = get().consent;
      if (current) set({ consent: { ...current, problem: consentProblem(answer.reason, answer.triesLeft) } });
      return false;
    } catch (error) {
      get().notifyError(asUiError(error));
      return false;
    }
  },

  async cancelConsent() {
    set({ consent: null });
    await unwrap(bridge.consent.cancel({})).catch((error: unknown) => get().notifyError(asUiError(error)));
  },
});

function consentProblem(reason: 'wrong' | 'none' | 'expired' | 'invalidated' | undefined, triesLeft: number | undefined): string {
  // The words live in the queue catalog with the other store texts (the Settings screen's catalog is not the store's).
  if (reason === 'wrong') return tr('queue', 'store.consentWrong', { count: triesLeft ?? 0 });
  if (reason === 'expired') return tr('queue', 'store.consentExpired');
  if (reason === 'invalidated') return tr('queue', 'store.consentInvalidated');
  return tr('queue', 'store.consentNone');
}

/** True when the balance is known and below the user's warning threshold. */
export function selectLowBalance(s: Pick<ServiceSlice, 'balance' | 'settings'>): boolean {
  const threshold = s.settings?.lowBalanceWarning ?? 0;
  return s.balance !== null && threshold > 0 && s.balance.apiCredits < threshold;
}
