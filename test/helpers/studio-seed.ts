import { createHash } from 'node:crypto';
import type pg from 'pg';

// A season of studio ledger rows, written in one INSERT … SELECT over generate_series (server-side: 100k rows in a
// few seconds): what three instances on four hot folders leave behind after months of school, sports and event work.
// Shared by bench/scale-studio.ts and the studio tests that need a realistically large ledger.

export const SEASON_INSTANCES = ['inst-0', 'inst-1', 'inst-2'] as const;
export const SEASON_FOLDERS = ['school-2026', 'sports-league', 'events', 'portraits'] as const;
export const SEASON_WORKFLOW = 'color-grade';
export const SEASON_PARAMETERS = 'ph-warm';

/** The ledger key of the n-th seeded photo (1-based), the same key the SQL below writes. */
export function seasonKey(n: number): string {
  return createHash('sha256').update(`season-${n}`).digest('hex');
}

export interface SeasonOptions {
  rows: number;
  /** The season runs from this many days ago up to now (default 365). */
  days?: number;
}

/**
 * Writes `rows` finished claim rows (plus the instances and folders they reference). Outcomes, by photo number:
 * 1 in 50 failed (never charged), 1 in 50 cancelled, 1 in 50 skipped (paid, result not written), 1 in 200 unknown,
 * 1 in 200 charged-no-result, the rest saved. Finish times spread evenly over the season, oldest first.
 */
export async function seedSeason(client: Pick<pg.ClientBase, 'query'>, options: SeasonOptions): Promise<void> {
  const days = options.days ?? 365;
  for (const id of SEASON_INSTANCES) {
    await client.query(`INSERT INTO batchroom_instances (id, host, pid, version, lease_until, stopped_at)
      VALUES ($1, $2, 1, 'season', now() - interval '1 day', now() - interval '1 day') ON CONFLICT (id) DO NOTHING`, [id, `studio-${id}`]);
  }
  for (const folder of SEASON_FOLDERS) {
    await client.query('INSERT INTO batchroom_folders (folder_key) VALUES ($1) ON CONFLICT (folder_key) DO NOTHING', [folder]);
  }
  await client.query(`
    INSERT INTO batchroom_claims (key, folder_key, content_hash, workflow_id, parameters_hash, rel_path, source_path, owner, state,
      execution_id, credits_reserved, credits_charged, outputs, reason, attempts, claimed_at, updated_at, finished_at,
      job, client, batch_id, accepted_at)
    SELECT encode(sha256(('season-' || g)::bytea), 'hex'), f.folder, encode(sha256(('content-' || g)::bytea), 'hex'), $2, $3,
      'round-' || (g / 500) || '/IMG_' || lpad(g::text, 6, '0') || '.jpg',
      '/Volumes/share/to-edit/' || f.folder || '/round-' || (g / 500) || '/IMG_' || lpad(g::text, 6, '0') || '.jpg',
      ($4::text[])[(g % 3) + 1], s.state,
      CASE WHEN s.paid THEN 'exe-season-' || g END, 0, CASE WHEN s.paid THEN 1 ELSE 0 END,
      CASE WHEN s.state = 'saved' THEN jsonb_build_array('/Volumes/share/edited/' || f.folder || '/IMG_' || lpad(g::text, 6, '0') || '.jpg') ELSE '[]'::jsonb END,
      CASE WHEN s.state IN ('failed', 'unknown') THEN 'the service answered 422: the image could not be processed' END,
      1, t.at - interval '20 seconds', t.at, t.at, 'job-' || f.folder || '-' || (g / 5000), 'client-' || (g % 7),
      CASE WHEN s.paid THEN 'batch-' || (g / 100) END, CASE WHEN s.paid THEN t.at - interval '10 seconds' END
    FROM generate_series(1, $1::int) AS g
    CROSS JOIN LATERAL (SELECT ($5::text[])[(g / 1000) % 4 + 1] AS folder) AS f
    CROSS JOIN LATERAL (SELECT now() - make_interval(secs => ($6::int * 86400.0) * (1 - g::float8 / $1::int)) AS at) AS t
    CROSS JOIN LATERAL (SELECT CASE WHEN g % 50 = 7 THEN 'failed' WHEN g % 50 = 17 THEN 'cancelled' WHEN g % 50 = 27 THEN 'skipped'
      WHEN g % 200 = 37 THEN 'unknown' WHEN g % 200 = 137 THEN 'charged-no-result' ELSE 'saved' END AS state) AS s0
    CROSS JOIN LATERAL (SELECT s0.state, s0.state IN ('saved', 'skipped', 'charged-no-result') AS paid) AS s`,
  [options.rows, SEASON_WORKFLOW, SEASON_PARAMETERS, [...SEASON_INSTANCES], [...SEASON_FOLDERS], days]);
  await client.query('ANALYZE batchroom_claims');
}
