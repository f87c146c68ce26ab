import type { StudioConnectionTest, StudioStatus } from '../../../shared/studio/model';
import { silentLogger, type Logger } from '../log';
import type { KeytarLike } from '../secrets';
import { parseLedgerUrl } from './ledger-url';
import { resolveLedgerPassword } from './password';
import { PG_MIGRATIONS } from './pg-migrations';
import { createLedgerPool, ledgerError } from './pg-pool';
import { readStatus } from './pg-status';

// Looking at a studio ledger without joining it: `batchroom studio status`, the app's panel and "Test connection".
// Neither registers an instance nor changes the schema.

export interface InspectOptions {
  env: Record<string, string | undefined>;
  keytar?: () => Promise<KeytarLike>;
  logger?: Logger;
  /** Settings' studioLedgerAllowPlaintext (see ledger-tls.ts). */
  allowPlaintext?: boolean;
  /**
   * False: connect without any password. A test of a URL other than the saved ledger's host and port gets none, so
   * the renderer cannot have PGPASSWORD or a wildcard ~/.pgpass line sent to a server of its choosing.
   */
  sendPassword?: boolean;
}

export async function poolFor(url: string, options: InspectOptions) {
  const target = parseLedgerUrl(url);
  const pool = await createLedgerPool({
    target, logger: options.logger ?? silentLogger, max: 1, allowPlaintext: options.allowPlaintext ?? false,
    password: async () => options.sendPassword === false ? null : resolveLedgerPassword(target, { env: options.env, ...(options.keytar ? { keytar: options.keytar } : {}) }),
  });
  return { target, pool };
}

export async function readStudioStatus(url: string, options: InspectOptions): Promise<StudioStatus> {
  const { target, pool } = await poolFor(url, options);
  try {
    const exists = await pool.query(`SELECT to_regclass('batchroom_schema') IS NOT NULL AS present`);
    if (!exists.rows[0]?.present) {
      return { ledger: target.display, schemaVersion: 0, instances: [], claimsInFlight: [], folders: [] };
    }
    return await readStatus(pool, target.display);
  } catch (error) {
    throw ledgerError(error, target.display);
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** Connects once and says what it found: the server's version and whether the schema is there and current. */
export async function testStudioConnection(url: string, options: InspectOptions): Promise<StudioConnectionTest> {
  let display = url;
  try {
    const { target, pool } = await poolFor(url, options);
    display = target.display;
    try {
      const version = await pool.query(`SELECT current_setting('server_version') AS v, to_regclass('batchroom_schema') IS NOT NULL AS present`);
      const serverVersion = String(version.rows[0]?.v ?? '');
      if (Number.parseInt(serverVersion, 10) < 13) {
        return { ok: false, ledger: display, serverVersion, message: `PostgreSQL ${serverVersion} is too old: the studio ledger needs 13 or later` };
      }
      let schema = 'no Batchroom tables yet: the first instance that joins creates them';
      if (version.rows[0]?.present) {
        const current = Number((await pool.query('SELECT version FROM batchroom_schema')).rows[0]?.version ?? 0);
        schema = current > PG_MIGRATIONS.length
          ? `schema ${current} is newer than this build knows (${PG_MIGRATIONS.length}): update Batchroom here`
          : `schema ${current} of ${PG_MIGRATIONS.length}`;
        if (current > PG_MIGRATIONS.length) return { ok: false, ledger: display, serverVersion, message: schema };
      }
      return { ok: true, ledger: display, serverVersion, message: `connected to PostgreSQL ${serverVersion}; ${schema}` };
    } finally {
      await pool.end().catch(() => undefined);
    }
  } catch (error) {
    const failure = ledgerError(error, display);
    const hint = failure.code === 'unauthorized' && options.sendPassword === false
      ? ' (no password is sent to a ledger other than the saved one: save this URL in Settings first, then test it)'
      : '';
    return { ok: false, ledger: display, serverVersion: null, message: `${failure.message}${hint}` };
  }
}
