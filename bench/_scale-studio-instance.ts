// One studio instance of bench/scale-studio.ts, in its own process (as a machine of the studio would be), with the
// ledger's pool (4 connections) and a registered lease. It says "ready", waits for "go" on stdin, then claims every
// photo of the shared list in the list's order (the order every instance's scan sees: the real race), four at a time.
// A photo it wins goes through submitting → accepted → saved at once (no service time: the ledger's own cost is
// measured). With BENCH_PATHS=v6,v7 (the default of bench/scale-studio.ts) the list is cut in blocks of 50 that
// alternate between schema 6's functions (the folder's one row updated by every claim and outcome) and schema 7's
// (spend rows per connection), each on its own folder, so both meet the same load; v4 is schema 4's transactions.
// Prints one JSON line: every claim's latency and verdict, per path.
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { claim, markAccepted, markSubmitting, recordOutcome } from '../main/core/studio/pg-claims';
import { registerInstance, stopInstance } from '../main/core/studio/pg-instances';
import type { ClaimRequest, ClaimResult, LedgerRecord } from '../main/core/studio/ledger';
import { SEASON_PARAMETERS, SEASON_WORKFLOW, seasonKey } from '../test/helpers/studio-seed';
import { claimV4, recordOutcomeV4 } from './_studio-v4-claims';
import { claimV6, recordOutcomeV6 } from './_studio-v6-claims';

export const INSTANCE_WORKERS = 4;
const BLOCK = 50;

/** The photos the instances claim (per path): every 10th is one the season already did (dropped again), the rest new. */
export function photoKeys(photos: number, seasonRows: number, path = 'v7'): string[] {
  // Each path's season photos are others than the other paths' (an offset per path).
  const offset = ({ v4: 3, v6: 5, v7f: 2 } as Record<string, number>)[path] ?? 0;
  return Array.from({ length: photos }, (_, i) => (i % 10 === 0
    ? seasonKey(1 + ((i / 10) * 7919 + offset) % seasonRows)
    : createHash('sha256').update(`scale-photo-${path}-${i}`).digest('hex')));
}

type ClaimFn = (pool: pg.Pool, me: string, request: ClaimRequest) => Promise<ClaimResult>;
type OutcomeFn = (pool: pg.Pool, me: string, folderKey: string, entry: LedgerRecord) => Promise<void>;
/**
 * Schema 7's claim as it was before it committed without waiting for the WAL flush (pg-claims.ts): the same call,
 * its statement without the set_config, so every claim waits for its own flush.
 */
const ASYNC_COMMIT = /, set_config\('synchronous_commit', 'off', true\)/;
const flushedClaim: ClaimFn = (pool, me, request) => claim({
  query: (text: string, values: unknown[]) => {
    // Should the claim's SQL change, this path must not silently become the new one: the comparison would be void.
    if (!ASYNC_COMMIT.test(text)) throw new Error('bench v7f: the claim statement no longer has its set_config');
    return pool.query(text.replace(ASYNC_COMMIT, ''), values);
  },
} as unknown as pg.Pool, me, request);
const PATHS: Record<string, { claim: ClaimFn; outcome: OutcomeFn }> = {
  v4: { claim: claimV4, outcome: recordOutcomeV4 },
  v6: { claim: claimV6, outcome: recordOutcomeV6 },
  v7f: { claim: flushedClaim, outcome: recordOutcome },
  v7: { claim, outcome: recordOutcome },
};

export interface PathResult { claimMs: number[]; lifecycleMs: number[]; kinds: Record<string, number>; won: string[]; msByKind: Record<string, number[]> }

async function main(): Promise<void> {
  const env = process.env;
  const me = env.BENCH_INSTANCE!;
  const paths = (env.BENCH_PATHS ?? 'v7').split(',');
  const photos = Number(env.BENCH_PHOTOS);
  const lists = Object.fromEntries(paths.map((p) => [p, photoKeys(photos, Number(env.BENCH_SEASON_ROWS), p)]));
  // Block b of path p: photos [b*BLOCK, (b+1)*BLOCK) of p's list; the blocks alternate between the paths.
  const work: Array<{ path: string; key: string }> = [];
  for (let start = 0; start < photos; start += BLOCK) {
    for (const path of paths) for (const key of lists[path]!.slice(start, start + BLOCK)) work.push({ path, key });
  }
  const pool = new pg.Pool({ connectionString: env.BENCH_LEDGER_URL, password: env.PGPASSWORD, max: INSTANCE_WORKERS });
  await registerInstance(pool, { id: me, host: `bench-${me}`, pid: process.pid, version: 'bench', label: null }, 3_600_000);
  for (const path of paths) await pool.query('INSERT INTO batchroom_folders (folder_key) VALUES ($1) ON CONFLICT DO NOTHING', [`scale-${path}`]);
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));

  const results: Record<string, PathResult> = Object.fromEntries(paths.map((p) => [p, { claimMs: [], lifecycleMs: [], kinds: {}, won: [], msByKind: {} }]));
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const { path, key } = work[next++]!;
      const fns = PATHS[path]!;
      const out = results[path]!;
      const folderKey = `scale-${path}`;
      const sourcePath = `/Volumes/share/to-edit/${key.slice(0, 8)}.jpg`;
      const t0 = performance.now();
      const result = await fns.claim(pool, me, { key, folderKey, contentHash: key, workflowId: SEASON_WORKFLOW, parametersHash: SEASON_PARAMETERS,
        relPath: `${key.slice(0, 8)}.jpg`, sourcePath, cost: 1 });
      const ms = performance.now() - t0;
      out.claimMs.push(ms);
      (out.msByKind[result.kind] ??= []).push(ms);
      out.kinds[result.kind] = (out.kinds[result.kind] ?? 0) + 1;
      if (result.kind !== 'claimed') continue;
      const executionId = `exe-${me}-${key.slice(0, 16)}`;
      try {
        await markSubmitting(pool, me, key);
      } catch (error) {
        // Granted, then taken by another instance before it was sent (schema 4's race, pg-functions.ts): not sent here.
        if ((error as { code?: string }).code !== 'conflict') throw error;
        out.kinds.takenAfterClaim = (out.kinds.takenAfterClaim ?? 0) + 1;
        continue;
      }
      out.won.push(key);
      await markAccepted(pool, me, key, executionId, 1, { id: `batch-${me}`, job: 'scale', client: null });
      await fns.outcome(pool, me, folderKey, { key, contentHash: key, workflowId: SEASON_WORKFLOW, parametersHash: SEASON_PARAMETERS, sourcePath,
        outcome: 'saved', outputs: [`/Volumes/share/edited/${key.slice(0, 8)}.jpg`], executionId, itemId: null, hotFolderId: null, creditsCharged: 1 });
      out.lifecycleMs.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: INSTANCE_WORKERS }, worker));
  await stopInstance(pool, me);
  await pool.end();
  process.stdout.write(`${JSON.stringify({ instance: me, results })}\n`);
}

if (process.env.BENCH_INSTANCE) await main();
