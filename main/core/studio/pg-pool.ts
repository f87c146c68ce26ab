import type pg from 'pg';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../log';
import { requireLedgerTls } from './ledger-tls';
import type { LedgerTarget } from './ledger-url';

/** Connection-level failures: the database (or the network to it) is gone, not the query. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  '57P01', '57P02', '57P03', // admin / crash shutdown, cannot connect now (starting up)
  '08000', '08001', '08003', '08004', '08006', // connection exceptions
]);

export function isUnreachable(error: unknown): boolean {
  if (error instanceof AppError) return error.code === 'unavailable';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting|shutting) up/i.test(message);
}

/** A pg error → an AppError: `unavailable` ("studio ledger unreachable") for connection failures, else `internal`. */
export function ledgerError(error: unknown, display: string): AppError {
  if (error instanceof AppError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isUnreachable(error)) return new AppError('unavailable', `studio ledger unreachable (${display}): ${message}`, {}, { cause: error });
  if ((error as { code?: string }).code === '28P01' || (error as { code?: string }).code === '28000') {
    return new AppError('unauthorized', `the studio ledger refused the login (${display}): check PGPASSWORD, ~/.pgpass or the password saved in the keychain`);
  }
  return new AppError('internal', `studio ledger error (${display}): ${message}`, {}, { cause: error });
}

export interface LedgerPoolOptions {
  target: LedgerTarget;
  password: () => Promise<string | null>;
  logger: Logger;
  max?: number;
  connectTimeoutMs?: number;
  /** The user's Settings switch (studioLedgerAllowPlaintext): a non-loopback ledger without TLS is refused otherwise. */
  allowPlaintext?: boolean;
}

/**
 * The ledger's connection pool. pg is loaded here, by the first command or folder that uses a ledger: a plain
 * `batchroom run` (and the app without a studio) never pays its ≈ 0.1 s of start-up.
 */
export async function createLedgerPool(options: LedgerPoolOptions): Promise<pg.Pool> {
  const { target } = options;
  // Before pg is even loaded: nothing, the password least of all, goes to another machine in clear text.
  requireLedgerTls(target, options.allowPlaintext ?? false);
  const { default: pgModule } = await import('pg');
  const ssl = target.sslmode && target.sslmode !== 'disable' && target.sslmode !== 'allow' && target.sslmode !== 'prefer'
    ? { rejectUnauthorized: target.sslmode === 'verify-full' || target.sslmode === 'verify-ca' }
    : undefined;
  const pool = new pgModule.Pool({
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    // A function, so the secret is read when a connection opens and is never part of a config object that could
    // be printed; '' means "no password" to pg.
    password: async () => (await options.password()) ?? '',
    ssl,
    max: options.max ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'batchroom',
    // A budgeted claim sums the folder's spend after taking the folder's lock (pg-spend.ts): only READ COMMITTED reads
    // it after the lock. A database whose default is REPEATABLE READ would otherwise overspend; the claim refuses it.
    options: '-c default_transaction_isolation=read\\ committed',
    statement_timeout: 15_000,
    query_timeout: 20_000,
  });
  // An idle connection dropped by a database restart is reported here; without a listener it would crash the
  // process. The next query opens a fresh connection.
  pool.on('error', (error) => options.logger.warn('studio ledger connection lost', { ledger: target.display, error: error.message }));
  return pool;
}
