import { isIP } from 'node:net';
import { AppError } from '../../../shared/errors';
import type { LedgerTarget } from './ledger-url';

/** sslmodes under which pg actually encrypts (pg's own `prefer`/`allow` mean a plain connection here). */
const TLS_MODES = new Set(['require', 'verify-ca', 'verify-full']);

/** Literal loopback only: `localhost`, 127.0.0.0/8, ::1 (a name that merely resolves there can be re-pointed). */
export function isLoopbackLedgerHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * A ledger on another machine is reached over TLS: the password (from PGPASSWORD, ~/.pgpass or the keychain) and
 * every claim would otherwise cross the network in clear text. Off only where the user switched it off in
 * Settings (studioLedgerAllowPlaintext), which warns there.
 */
export function requireLedgerTls(target: LedgerTarget, allowPlaintext: boolean): void {
  if (allowPlaintext || isLoopbackLedgerHost(target.host)) return;
  if (target.sslmode !== null && TLS_MODES.has(target.sslmode)) return;
  throw new AppError('validation', `the studio ledger ${target.display} is on another machine: add ?sslmode=require (or verify-full) to its URL so the password and claims are encrypted, or allow unencrypted ledgers in Settings`, { field: 'studioLedgerUrl' });
}
