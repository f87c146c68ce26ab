import { AppError } from '../../../shared/errors';
import type { studioChannels } from '../../../shared/ipc/channels/studio';
import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { Logger } from '../log';
import type { KeytarLike } from '../secrets';
import { readStudioStatus, testStudioConnection } from './inspect';
import { parseLedgerUrl } from './ledger-url';
import { LEDGER_KEYCHAIN_SERVICE, resolveLedgerPassword } from './password';

export interface StudioHandlerDeps {
  /** The ledger URL saved in settings (studioLedgerUrl), read at each call so a change in Settings applies at once. */
  ledgerUrl: () => string | null;
  env: Record<string, string | undefined>;
  /** The OS keychain, loaded lazily; a failure to load it means "no keychain here". */
  keytar: () => Promise<KeytarLike>;
  logger?: Logger;
  /** Settings' studioLedgerAllowPlaintext, read at each call. */
  allowPlaintext?: () => boolean;
}

/** Whether `url` names the saved ledger's host and port: only there may a password go. */
function isSavedLedgerHost(url: string, saved: string | null): boolean {
  if (!saved) return false;
  try {
    const a = parseLedgerUrl(url);
    const b = parseLedgerUrl(saved);
    return a.host.toLowerCase() === b.host.toLowerCase() && a.port === b.port;
  } catch {
    return false;
  }
}

/** No keychain (no D-Bus session, no Secret Service, a locked keyring, keytar missing): say where else it can go. */
function keychainError(error: unknown, secret?: string): AppError {
  const text = error instanceof Error ? error.message : String(error);
  // Not redactSecrets: its mask keeps a key's last characters, which a password must not show.
  const system = secret ? text.split(secret).join('[password]') : text;
  return new AppError('keychain_unavailable', 'The system keychain is not available, so the studio ledger password cannot be kept there.', {
    hint: 'Set PGPASSWORD in the environment Batchroom starts with, or add the password to ~/.pgpass (libpq\'s file, readable by you only).',
    system,
  });
}

async function keychain<T>(deps: StudioHandlerDeps, operation: (keytar: KeytarLike) => Promise<T>, secret?: string): Promise<T> {
  let keytar: KeytarLike;
  try {
    keytar = await deps.keytar();
  } catch (error) {
    throw keychainError(error, secret);
  }
  try {
    return await operation(keytar);
  } catch (error) {
    throw keychainError(error, secret);
  }
}

/**
 * The `studio:*` channels: look at a ledger without joining it (inspect.ts) and keep its password in the keychain
 * under LEDGER_KEYCHAIN_SERVICE / the display URL, where the ledger's own password lookup finds it.
 */
export function createStudioHandlers(deps: StudioHandlerDeps): DomainHandlers<typeof studioChannels> {
  const base = { env: deps.env, keytar: deps.keytar, ...(deps.logger ? { logger: deps.logger } : {}) };
  const inspect = () => ({ ...base, allowPlaintext: deps.allowPlaintext?.() ?? false });
  return {
    // The renderer names the URL: a password (PGPASSWORD, a wildcard ~/.pgpass line, the keychain) goes only to
    // the host and port of the ledger saved in settings; any other test connects without one.
    'studio:testConnection': ({ url }) => testStudioConnection(url, { ...inspect(), sendPassword: isSavedLedgerHost(url, deps.ledgerUrl()) }),
    'studio:status': () => {
      const url = deps.ledgerUrl();
      if (!url) {
        throw new AppError('unavailable', 'No shared studio ledger is set: add its URL in Settings › Shared studio ledger.', { field: 'studioLedgerUrl' });
      }
      return readStudioStatus(url, inspect());
    },
    'studio:savePassword': async ({ url, password }) => {
      const target = parseLedgerUrl(url);
      await keychain(deps, (k) => k.setPassword(LEDGER_KEYCHAIN_SERVICE, target.display, password), password);
      // PGPASSWORD and ~/.pgpass come first in the lookup: say so, or the saved password would silently not be used.
      const winner = await resolveLedgerPassword(target, { env: deps.env });
      const shadowedBy = winner === null ? null : deps.env.PGPASSWORD ? 'PGPASSWORD' : 'pgpass';
      deps.logger?.info('studio ledger password saved in the keychain', { ledger: target.display });
      return { ledger: target.display, shadowedBy };
    },
    'studio:forgetPassword': async ({ url }) => {
      const target = parseLedgerUrl(url);
      const removed = await keychain(deps, (k) => k.deletePassword(LEDGER_KEYCHAIN_SERVICE, target.display));
      return { ledger: target.display, removed };
    },
  };
}
