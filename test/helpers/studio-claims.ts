import pg from 'pg';
import type { ClaimRequest } from '../../main/core/studio/ledger';
import type { TestPostgres } from './pg-server';

// What the studio claim tests share: a claim request for a photo key, a pool on the test server's ledger database,
// and the server's WAL writer stopped (so a kill -9 right after finds an async commit in the server's memory only).

export const claimRequest = (key: string): ClaimRequest => ({
  key, folderKey: 'shoot', contentHash: key, workflowId: 'wf', parametersHash: 'ph', relPath: `${key}.jpg`, sourcePath: `/s/${key}.jpg`, cost: 1,
});

/** A pool on the ledger database; errors of idle connections (a crashed server's) are ignored. */
export function ledgerPool(server: TestPostgres, max = 1): pg.Pool {
  const pool = new pg.Pool({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom', max });
  pool.on('error', () => undefined);
  return pool;
}

/** SIGSTOPs the server's WAL writer (a kill -9 of the server's processes ends it too). */
export async function pauseWalWriter(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'`);
  process.kill((rows[0] as { pid: number }).pid, 'SIGSTOP');
}
