import type pg from 'pg';
import { claimStatesOf, sqlStateList } from '../../../shared/engine/claim-states';
import { spendUpsert } from './pg-spend';
import { inTransaction, num, type Queryable } from './pg-tx';

// Instances and their leases. An instance renews its lease with every heartbeat; once the lease has run out
// (by the database's clock) its open claims are taken over by any instance watching the same folder.

export interface InstanceInfo {
  id: string;
  host: string;
  pid: number;
  version: string;
  label: string | null;
}

export async function registerInstance(pool: pg.Pool, info: InstanceInfo, leaseMs: number): Promise<void> {
  await pool.query(`INSERT INTO batchroom_instances (id, host, pid, version, label, lease_until)
      VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6 / 1000.0))
    ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, version = EXCLUDED.version, label = EXCLUDED.label,
      started_at = now(), heartbeat_at = now(), lease_until = EXCLUDED.lease_until, stopped_at = NULL`,
  [info.id, info.host, info.pid, info.version, info.label, leaseMs]);
}

/** Renews the lease; false if the row is gone (the caller registers again). */
export async function heartbeat(pool: pg.Pool, id: string, leaseMs: number): Promise<boolean> {
  const { rowCount } = await pool.query(`UPDATE batchroom_instances SET heartbeat_at = now(),
    lease_until = now() + make_interval(secs => $2 / 1000.0), stopped_at = NULL WHERE id = $1`, [id, leaseMs]);
  return (rowCount ?? 0) > 0;
}

/** Who owns a claim now, as placementOwner read it (null: no claim row). */
export interface ClaimOwner { owner: string | null; host: string | null }

/**
 * Right before a result gets its final name: renews this instance's lease and reads the claim's owner, in one
 * transaction. The renewal locks this instance's row, and takeOver locks the rows of the instances it takes from
 * (below), so the two never interleave: either the takeover committed first and its owner is read here, or the lease
 * is renewed first and no takeover can start until it runs out again (leaseMs: far longer than a rename).
 * `renewLeaseMs` null: the lease was renewed moments ago (no takeover can start before it runs out), the owner is
 * only read — no write, no WAL flush per photo.
 */
export async function placementOwner(pool: pg.Pool, me: string, key: string, renewLeaseMs: number | null): Promise<ClaimOwner | null> {
  const readOwner = async (client: Queryable) => {
    const { rows } = await client.query(`SELECT c.owner, i.host FROM batchroom_claims c LEFT JOIN batchroom_instances i ON i.id = c.owner
      WHERE c.key = $1`, [key]);
    const row = rows[0] as { owner: string | null; host: string | null } | undefined;
    return row ? { owner: row.owner ?? null, host: row.host ?? null } : null;
  };
  if (renewLeaseMs === null) return readOwner(pool);
  return inTransaction(pool, async (client) => {
    await client.query(`UPDATE batchroom_instances SET heartbeat_at = now(), lease_until = now() + make_interval(secs => $2 / 1000.0),
      stopped_at = NULL WHERE id = $1`, [me, renewLeaseMs]);
    return { value: await readOwner(client) };
  });
}

/** A clean stop: the lease ends now, so the others take over what is still open at once. */
export async function stopInstance(pool: pg.Pool, id: string): Promise<void> {
  await pool.query('UPDATE batchroom_instances SET stopped_at = now(), lease_until = now() WHERE id = $1', [id]);
}

/** What a folder of this instance can follow: the same studio folder, workflow and parameters. */
export interface FollowScope {
  folderKey: string;
  workflowId: string;
  parametersHash: string;
}

export interface TakenOver {
  key: string;
  /** released: not yet submitted, claimable again; unknown: submit outcome unknown; follow: known execution, ours now. */
  action: 'released' | 'unknown' | 'follow';
  folderKey: string;
  relPath: string;
  sourcePath: string;
  contentHash: string;
  workflowId: string;
  parametersHash: string;
  executionId: string | null;
  credits: number;
  previousOwner: string;
  previousHost: string;
}

/**
 * Takes over the open claims of instances whose lease ran out, in the folders this instance watches. SKIP LOCKED:
 * two instances sweeping at once split the work instead of queueing on each other's rows.
 */
export async function takeOver(pool: pg.Pool, me: string, scopes: readonly FollowScope[], limit = 200): Promise<TakenOver[]> {
  if (scopes.length === 0) return [];
  const folderKeys = [...new Set(scopes.map((s) => s.folderKey))];
  return inTransaction(pool, async (client) => {
    // The lapsed instances' rows are locked first and their lease read after the lock (a lease being renewed right
    // now — placementOwner — is skipped, not read stale): an instance that renewed its lease keeps its claims. NO KEY:
    // the claims' owner foreign key takes KEY SHARE on these rows, which this must not wait on nor skip.
    // Only those with claims in flight here: a lock is a write (WAL), and long-gone instances are not locked every sweep.
    const lapsed = await client.query(`SELECT i.id FROM batchroom_instances i WHERE i.id <> $1 AND i.lease_until < now()
        AND EXISTS (SELECT 1 FROM batchroom_claims c WHERE c.owner = i.id AND c.state IN ${sqlStateList(claimStatesOf('inFlight'))}
          AND c.folder_key = ANY($2))
      FOR NO KEY UPDATE OF i SKIP LOCKED`, [me, folderKeys]);
    const owners = (lapsed.rows as Array<{ id: string }>).map((row) => row.id);
    if (owners.length === 0) return { value: [] };
    const { rows } = await client.query(`SELECT c.key, c.state, c.folder_key, c.rel_path, c.source_path, c.content_hash, c.workflow_id,
        c.parameters_hash, c.execution_id, c.credits_charged, c.owner, i.host
      FROM batchroom_claims c JOIN batchroom_instances i ON i.id = c.owner
      WHERE c.state IN ${sqlStateList(claimStatesOf('inFlight'))} AND c.owner = ANY($1) AND c.folder_key = ANY($2)
      ORDER BY c.claimed_at LIMIT $3 FOR UPDATE OF c SKIP LOCKED`, [owners, folderKeys, limit]);
    const out: TakenOver[] = [];
    for (const row of rows as Array<Record<string, unknown>>) {
      const base = {
        key: String(row.key), folderKey: String(row.folder_key), relPath: String(row.rel_path), sourcePath: String(row.source_path),
        contentHash: String(row.content_hash), workflowId: String(row.workflow_id), parametersHash: String(row.parameters_hash),
        executionId: (row.execution_id as string | null) ?? null, credits: num(row.credits_charged),
        previousOwner: String(row.owner), previousHost: String(row.host),
      };
      if (row.state === 'claimed') {
        const gone = await client.query(`DELETE FROM batchroom_claims WHERE key = $1 RETURNING credits_reserved`, [base.key]);
        await client.query(spendUpsert('VALUES ($1::text, $2::text, -$3::numeric, 0, 0, 0, 0, 0::numeric)'),
          [base.folderKey, me, num(gone.rows[0]?.credits_reserved)]);
        out.push({ ...base, action: 'released' });
      } else if (row.state === 'submitting') {
        // The request may have reached the service and been charged: never sent again by anyone.
        await client.query(`UPDATE batchroom_claims SET state = 'unknown', finished_at = now(), updated_at = now(),
          reason = $2 WHERE key = $1`, [base.key, `unknown — check the provider's dashboard: the instance on ${base.previousHost} stopped while submitting it (it may have been charged); not resubmitted`]);
        await client.query(spendUpsert('VALUES ($1::text, $2::text, 0::numeric, 0, 1, 0, 0, 0::numeric)'), [base.folderKey, me]);
        out.push({ ...base, action: 'unknown' });
      } else if (scopes.some((s) => s.folderKey === base.folderKey && s.workflowId === base.workflowId && s.parametersHash === base.parametersHash)) {
        await client.query(`UPDATE batchroom_claims SET owner = $2, takeovers = takeovers + 1, updated_at = now() WHERE key = $1`, [base.key, me]);
        out.push({ ...base, action: 'follow' });
      }
    }
    return { value: out };
  });
}

/** Keys (of the given ones) no live instance holds any more: worth looking at again. */
export async function settledKeys(pool: pg.Pool, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  // A key is still held when its claim is in flight and its owner's lease runs (or the owner is unknown). Asked per
  // key (an anti-join on the primary key): the LEFT JOIN with an OR across both tables was planned as a sequential
  // scan of the whole ledger on a 5,000-row ledger (34 ms, every recheck of every instance); which plan it got
  // depended on the table's statistics, this form's does not.
  const { rows } = await pool.query(`SELECT k AS key FROM unnest($1::text[]) AS k WHERE NOT EXISTS (
      SELECT 1 FROM batchroom_claims c LEFT JOIN batchroom_instances i ON i.id = c.owner
      WHERE c.key = k AND c.state IN ${sqlStateList(claimStatesOf('inFlight'))} AND (i.id IS NULL OR i.lease_until >= now()))`, [keys]);
  return rows.map((r) => String(r.key));
}
