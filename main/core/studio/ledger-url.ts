import { AppError } from '../../../shared/errors';

/** Where the studio ledger lives, without any secret: the URL as given minus nothing (it may not carry a password). */
export interface LedgerTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /** libpq `sslmode` from the URL query (`require`, `verify-full`, …), or null for a plain connection. */
  sslmode: string | null;
  /** `postgres://user@host:port/db`: safe to print, log and use as the keychain account. */
  display: string;
}

/**
 * Parses `postgres://user@host[:port]/db[?sslmode=…]`. A password in the URL is refused: URLs end up in shell
 * history, process lists, settings files and logs. It belongs in PGPASSWORD, a .pgpass file or the keychain.
 */
export function parseLedgerUrl(raw: string): LedgerTarget {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError('validation', 'the studio ledger URL must look like postgres://user@host/database', { field: 'ledgerUrl' });
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new AppError('validation', `the studio ledger URL must start with postgres:// (got ${url.protocol}//)`, { field: 'ledgerUrl' });
  }
  if (url.password) {
    throw new AppError('validation', 'put no password in the studio ledger URL: set PGPASSWORD, add it to ~/.pgpass, or save it in the keychain', { field: 'ledgerUrl' });
  }
  // libpq reads `?password=` too: the same secret in the same URL, refused the same way (it was saved in settings.json).
  if ([...url.searchParams.keys()].some((key) => key.toLowerCase() === 'password')) {
    throw new AppError('validation', 'put no password in the studio ledger URL (not even as ?password=): set PGPASSWORD, add it to ~/.pgpass, or save it in the keychain', { field: 'ledgerUrl' });
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!url.hostname || !database) {
    throw new AppError('validation', 'the studio ledger URL needs a host and a database: postgres://user@host/database', { field: 'ledgerUrl' });
  }
  const user = decodeURIComponent(url.username) || 'postgres';
  const port = url.port ? Number(url.port) : 5432;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const sslmode = url.searchParams.get('sslmode');
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return { host, port, database, user, sslmode, display: `postgres://${encodeURIComponent(user)}@${hostPart}:${port}/${encodeURIComponent(database)}` };
}
