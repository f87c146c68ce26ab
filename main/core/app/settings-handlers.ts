import { AppError, isAppError, type ErrorCode } from '../../../shared/errors';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { settingsChannels } from '../../../shared/ipc/channels/settings';
import type { KeyStatus } from '../../../shared/settings/key-status';
import type { Logger } from '../log';
import { ledgerOriginOf, originOf, type ConfirmOriginChange, type ConsentGate } from './origin-consent';
import { saveValidatedKey, type KeyRejectReason, type KeyValidator, type SecretStore } from '../secrets';
import { createServiceClient } from '../service';
import type { SettingsStore } from '../settings';

const CODE_BY_REASON: Record<KeyRejectReason, ErrorCode> = {
  unauthorized: 'unauthorized',
  network: 'network',
  'wrong-url': 'not_found',
  malformed: 'bad_request',
};

/** Validates a key by reading the balance through the real service client (same normalization as everywhere). */
export function serviceKeyValidator(logger: Logger): KeyValidator {
  return async (serviceUrl, apiKey) => {
    try {
      const client = createServiceClient({ baseUrl: serviceUrl, apiKey, logger, retry: { attempts: 2 } });
      return { ok: true, balance: await client.getBalance({ timeoutMs: 15_000 }) };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      if (isAppError(error)) {
        if (error.code === 'unauthorized') return { ok: false, reason: 'unauthorized', detail };
        if (error.code === 'not_found' || error.code === 'shape' || error.code === 'bad_request') return { ok: false, reason: 'wrong-url', detail };
      }
      return { ok: false, reason: 'network', detail };
    }
  };
}

export interface SettingsHandlerDeps {
  settings: SettingsStore;
  secretStore: SecretStore;
  validate: KeyValidator;
  keyStatus: () => Promise<KeyStatus>;
  /** Re-resolves credentials and swaps the service connection (after a key or service-URL change). */
  reconnect: () => Promise<void>;
  /** The origin the flag/environment key is bound to now, and the one it would be bound to (the configured service). */
  keyOriginChange: () => { from: string; to: string };
  /** Binds the flag/environment key to the service origin now configured (the user confirmed it). */
  allowKeyOrigin: () => void;
  /** Main's confirmation before a key or the photos go to a new origin (origin-consent.ts). */
  consent: ConsentGate;
  /** The host's port, for the code it asks the page to pass on (browser host); absent or a dialog: unsupported. */
  consentPort?: ConfirmOriginChange;
}

/** key:* and settings:*. The key arrives here once (key:set), is validated, stored in the keychain, never returned. */
export function createSettingsHandlers(deps: SettingsHandlerDeps): DomainHandlers<typeof settingsChannels> {
  return {
    'key:set': async ({ apiKey, serviceUrl }) => {
      const saved = await saveValidatedKey({
        secretStore: deps.secretStore,
        serviceUrl: serviceUrl ?? deps.settings.get().serviceUrl,
        apiKey,
        validate: deps.validate,
      });
      if (!saved.ok) throw new AppError(CODE_BY_REASON[saved.reason], saved.message);
      await deps.reconnect();
      return deps.keyStatus();
    },
    'key:reuse': async ({ fromServiceUrl }) => {
      const apiKey = await deps.secretStore.get(fromServiceUrl);
      if (!apiKey) throw new AppError('not_found', `No key is stored for ${fromServiceUrl}.`);
      // The target is read once, before asking: what the user confirms is where the key goes, whatever changes meanwhile.
      const serviceUrl = deps.settings.get().serviceUrl;
      await deps.consent.require({ kind: 'move-key', from: originOf(fromServiceUrl), to: originOf(serviceUrl) });
      const saved = await saveValidatedKey({ secretStore: deps.secretStore, serviceUrl, apiKey, validate: deps.validate });
      if (!saved.ok) throw new AppError(CODE_BY_REASON[saved.reason], saved.message);
      await deps.reconnect();
      return deps.keyStatus();
    },
    'key:allowOrigin': async () => {
      const { from, to } = deps.keyOriginChange();
      await deps.consent.require({ kind: 'trust-origin', from, to });
      deps.allowKeyOrigin();
      await deps.reconnect();
      return deps.keyStatus();
    },
    'key:delete': async ({ serviceUrl }) => {
      await deps.secretStore.delete(serviceUrl ?? deps.settings.get().serviceUrl);
      await deps.reconnect();
      return deps.keyStatus();
    },
    'key:status': () => deps.keyStatus(),
    'settings:get': () => ({ settings: deps.settings.get(), warnings: [...deps.settings.warnings] }),
    'settings:update': async ({ patch }) => {
      if (patch.serviceUrl !== undefined) {
        const from = deps.settings.get().serviceUrl;
        const to = originOf(patch.serviceUrl);
        await deps.consent.require({ kind: 'change-service', from: originOf(from), to }, () => originOf(deps.settings.get().serviceUrl) === to);
      }
      // The ledger receives the database password: pointing it elsewhere, or letting it travel in clear text, is the
      // same kind of step as moving a key (issue 30 #5), so main asks too.
      const current = deps.settings.get();
      if (patch.studioLedgerUrl !== undefined) {
        const to = ledgerOriginOf(patch.studioLedgerUrl);
        await deps.consent.require({ kind: 'change-ledger', from: ledgerOriginOf(current.studioLedgerUrl), to },
          () => ledgerOriginOf(deps.settings.get().studioLedgerUrl) === to);
      }
      if (patch.studioLedgerAllowPlaintext === true && !current.studioLedgerAllowPlaintext) {
        const ledger = ledgerOriginOf(patch.studioLedgerUrl ?? current.studioLedgerUrl);
        await deps.consent.require({ kind: 'ledger-plaintext', from: `${ledger} (TLS)`, to: `${ledger} (no TLS)` },
          () => deps.settings.get().studioLedgerAllowPlaintext);
      }
      const before = deps.settings.get();
      const after = deps.settings.update(patch);
      if (before.serviceUrl !== after.serviceUrl || before.sandboxMode !== after.sandboxMode) await deps.reconnect();
      return after;
    },
    'consent:answer': ({ code }) => {
      if (!deps.consentPort?.answer) throw new AppError('unsupported', 'This host asks in a dialog, not with a code.');
      return deps.consentPort.answer(code);
    },
    'consent:cancel': () => {
      deps.consentPort?.cancel?.();
      return {};
    },
  };
}
