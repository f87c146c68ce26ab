import type pg from 'pg';
import { claimStatesOf, sqlStateList } from '../../../shared/engine/claim-states';
import type { StudioClaim, StudioStatus } from '../../../shared/studio/model';
import { num } from './pg-tx';

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

/** Instances, claims in flight, throughput per instance and the shared budgets, read in one snapshot. */
export async function readStatus(pool: pg.Pool, ledger: string, claimLimit = 500): Promise<StudioStatus> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const version = await client.query('SELECT version FROM batchroom_schema');
    // Since schema 7 the counters live in spend rows per folder, instance and connection (pg-spend.ts): the folder's
    // and instance's own columns hold what schema 6 counted, the spend rows add the rest. A ledger an older build left
    // (read without joining, inspect.ts) has no spend rows yet.
    const spend = (await client.query(`SELECT to_regclass('batchroom_folder_spend') IS NOT NULL AS present`)).rows[0]?.present
      ? 'batchroom_folder_spend'
      : '(SELECT NULL::text AS folder_key, NULL::text AS owner, 0::numeric AS committed, 0 AS processed, 0 AS failed, 0 AS inst_processed, 0 AS inst_failed, 0::numeric AS spent WHERE false)';
    const instances = await client.query(`SELECT i.*, i.lease_until >= now() AS alive,
        i.processed + COALESCE(s.processed, 0) AS processed_all, i.failed + COALESCE(s.failed, 0) AS failed_all,
        i.credits_spent + COALESCE(s.spent, 0) AS spent_all,
        (SELECT count(*) FROM batchroom_claims c WHERE c.owner = i.id AND c.state IN ${sqlStateList(claimStatesOf('inFlight'))}) AS in_flight,
        (SELECT count(*) FROM batchroom_claims c WHERE c.owner = i.id AND c.state = 'saved' AND c.finished_at > now() - interval '5 minutes') AS recent
      FROM batchroom_instances i LEFT JOIN (SELECT owner, sum(inst_processed) AS processed, sum(inst_failed) AS failed, sum(spent) AS spent
        FROM ${spend} GROUP BY owner) s ON s.owner = i.id ORDER BY i.started_at`);
    const claims = await client.query(`SELECT folder_key, rel_path, state, owner, execution_id, claimed_at FROM batchroom_claims
      WHERE state IN ${sqlStateList(claimStatesOf('inFlight'))} ORDER BY claimed_at LIMIT $1`, [claimLimit]);
    const folders = await client.query(`SELECT f.folder_key, f.budget, GREATEST(0, f.credits_committed + COALESCE(s.committed, 0)) AS credits_committed,
        f.processed + COALESCE(s.processed, 0) AS processed, f.failed + COALESCE(s.failed, 0) AS failed
      FROM batchroom_folders f LEFT JOIN (SELECT folder_key, sum(committed) AS committed, sum(processed) AS processed, sum(failed) AS failed
        FROM ${spend} GROUP BY folder_key) s ON s.folder_key = f.folder_key ORDER BY f.folder_key`);
    await client.query('COMMIT');
    return {
      ledger,
      schemaVersion: num(version.rows[0]?.version),
      instances: instances.rows.map((r) => ({
        id: String(r.id), host: String(r.host), pid: num(r.pid), version: String(r.version), label: r.label ?? null,
        startedAt: iso(r.started_at), heartbeatAt: iso(r.heartbeat_at), alive: Boolean(r.alive), stopped: r.stopped_at !== null,
        processed: num(r.processed_all), failed: num(r.failed_all), creditsSpent: num(r.spent_all), inFlight: num(r.in_flight),
        perMinute: Math.round((num(r.recent) / 5) * 10) / 10,
      })),
      claimsInFlight: claims.rows.map((r) => ({
        folderKey: String(r.folder_key), relPath: String(r.rel_path), state: r.state as StudioClaim['state'], owner: r.owner ?? null,
        executionId: r.execution_id ?? null, since: iso(r.claimed_at),
      })),
      folders: folders.rows.map((r) => ({
        folderKey: String(r.folder_key), budget: r.budget === null ? null : num(r.budget), creditsCommitted: num(r.credits_committed),
        processed: num(r.processed), failed: num(r.failed),
      })),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
