// Issue 34, item 7: studio at scale. One PostgreSQL ledger seeded with a season (100k × BENCH_SCALE finished claim
// rows: three instances, four folders, a year), then three instances — three real processes, each its own ledger
// pool, as three machines — claim the same 10k × BENCH_SCALE photos in the same order (every 10th one the season
// already did). Prints claim latency p50/p95/p99 (goal p95 ≤ 20 ms), the per-photo ledger cost (claim, submitting,
// accepted, outcome), the EXPLAIN (ANALYZE) plan of every query on the claim path and of the status and report
// reads (goal: no sequential scan of batchroom_claims where a photo or an instance is looked up), and the ledger's
// rows before and after the retention rule. Last line: one JSON object of metrics.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { migrateLedger } from '../main/core/studio/pg-migrations';
import { runRetention } from '../main/core/studio/pg-retention';
import { startTestPostgres, type TestPostgres } from '../test/helpers/pg-server';
import { seedSeason } from '../test/helpers/studio-seed';
import { explainLedger } from '../test/helpers/studio-plans';
import { photoKeys, type PathResult } from './_scale-studio-instance';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
export const seasonRows = (scale: number) => Math.max(2_000, Math.round(100_000 * scale));
export const photoCount = (scale: number) => Math.max(60, Math.round(10_000 * scale));
const GOAL_P95_MS = 20;
const log = (line: string) => process.stdout.write(`${line}\n`);
const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const r2 = (x: number) => Number(x.toFixed(2));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

interface InstanceResult { instance: string; results: Record<string, PathResult> }

async function connect(server: TestPostgres): Promise<pg.Client> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await client.connect();
  return client;
}

function startInstance(server: TestPostgres, id: string, photos: number, rows: number): { child: ChildProcess; ready: Promise<void>; result: Promise<InstanceResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '_scale-studio-instance.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_INSTANCE: id, BENCH_PATHS: 'v4,v5', BENCH_PHOTOS: String(photos), BENCH_SEASON_ROWS: String(rows), BENCH_LEDGER_URL: server.url, PGPASSWORD: server.password },
  });
  const lines = createInterface({ input: child.stdout! });
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => { resolveReady = resolve; });
  const result = new Promise<InstanceResult>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') resolveReady();
      else if (line.startsWith('{')) resolve(JSON.parse(line) as InstanceResult);
    });
    child.once('exit', (code) => reject(new Error(`instance ${id} exited (${code}) without a result`)));
  });
  return { child, ready, result };
}

async function claimRound(server: TestPostgres, photos: number, rows: number, metrics: Record<string, number>): Promise<InstanceResult[]> {
  const instances = ['inst-0', 'inst-1', 'inst-2'].map((id) => startInstance(server, id, photos, rows));
  // For the bench's test: these processes (and the server on pgPort) must be gone when the bench has ended.
  instances.forEach((i, n) => { metrics[`instancePid${n}`] = i.child.pid ?? 0; });
  try {
    await Promise.all(instances.map((i) => i.ready));
    for (const i of instances) i.child.stdin!.write('go\n');
    return await Promise.all(instances.map((i) => i.result));
  } finally {
    for (const i of instances) if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGKILL');
  }
}

/** The ledger's size, then the retention rule run once for real (as the daily run would), paid rows counted around it. */
async function retentionRound(server: TestPostgres, admin: pg.Client, metrics: Record<string, number>): Promise<void> {
  const count = async () => Number((await admin.query('SELECT count(*) AS n FROM batchroom_claims')).rows[0].n);
  const paidKeys = async () => Number((await admin.query(`SELECT count(*) AS n FROM batchroom_claims
    WHERE state IN ('saved', 'skipped', 'charged-no-result', 'unknown', 'cancelled') OR credits_charged <> 0`)).rows[0].n);
  const bytes = Number((await admin.query(`SELECT pg_total_relation_size('batchroom_claims') AS b`)).rows[0].b);
  metrics.rowsBefore = await count();
  metrics.bytesPerRow = Math.round(bytes / metrics.rowsBefore);
  const paidBefore = await paidKeys();
  const pool = new pg.Pool({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom', max: 1 });
  const t0 = performance.now();
  const retained = await runRetention(pool, { everyMs: 0 }).finally(() => pool.end());
  const retentionS = (performance.now() - t0) / 1000;
  metrics.rowsAfterRetention = await count();
  metrics.retentionRemoved = retained.removed;
  const paidKept = (await paidKeys()) === paidBefore;
  log(`ledger rows: ${metrics.rowsBefore} (${metrics.bytesPerRow} B a row with its indexes); retention removed ${retained.removed} `
    + `(failed, never charged, finished > 90 days ago) in ${retentionS.toFixed(2)} s → ${metrics.rowsAfterRetention} rows; `
    + `every paid/done row kept: ${paidKept ? 'yes' : 'NO'}; ${load()}`);
  if (!paidKept) throw new Error('retention removed a row that proves a payment');
}

function claimFigures(path: string, results: InstanceResult[], photos: number, rows: number): {
  p50: number; p95: number; p99: number; life95: number; wonOnce: boolean; won: number; claims: number; takenAfterClaim: number;
} {
  const of = results.map((r) => r.results[path]!);
  const claims = of.flatMap((r) => r.claimMs).sort((a, b) => a - b);
  const lifecycle = of.flatMap((r) => r.lifecycleMs).sort((a, b) => a - b);
  const won = of.flatMap((r) => r.won);
  const expected = new Set(photoKeys(photos, rows, path).filter((_, i) => i % 10 !== 0));
  const wonSet = new Set(won);
  const wonOnce = wonSet.size === won.length && [...expected].every((k) => wonSet.has(k));
  const takenAfterClaim = of.reduce((n, r) => n + (r.kinds.takenAfterClaim ?? 0), 0);
  log(`  ${path}: ${takenAfterClaim} live claims taken over as abandoned (goal 0) → ${verdict(takenAfterClaim === 0)}`);
  log(`  ${path}: verdicts ${results.map((r) => `${r.instance} ${JSON.stringify(r.results[path]!.kinds)}`).join('; ')}; every new photo won exactly once: ${wonOnce ? 'yes' : 'NO'}`);
  return { p50: r2(pct(claims, 0.5)), p95: r2(pct(claims, 0.95)), p99: r2(pct(claims, 0.99)), life95: r2(pct(lifecycle, 0.95)), wonOnce, won: won.length, claims: claims.length, takenAfterClaim };
}

async function main(): Promise<void> {
  const rows = seasonRows(SCALE);
  const photos = photoCount(SCALE);
  const metrics: Record<string, number> = { seasonRows: rows, photos };
  const server = await startTestPostgres();
  metrics.pgPort = server.port;
  try {
    const admin = await connect(server);
    try {
      await migrateLedger(admin);
      let t0 = performance.now();
      await seedSeason(admin, { rows });
      log(`seeded ${rows} season rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (one INSERT … SELECT, then ANALYZE); ${load()}`);
      await retentionRound(server, admin, metrics);

      const plans = await explainLedger(server, rows);
      for (const line of plans) log(`  plan ${line.label}: ${line.scans.join(', ') || 'no scan'} — ${line.ms.toFixed(2)} ms${line.seqScanOnClaims ? '  ← Seq Scan on batchroom_claims' : ''}`);
      const pointLookups = plans.filter((p) => !p.label.startsWith('report, whole'));
      const seqScans = pointLookups.filter((p) => p.seqScanOnClaims);
      metrics.claimPathSeqScans = seqScans.length;
      log(`EXPLAIN: ${seqScans.length} of ${pointLookups.length} claim-path/status/report statements scan batchroom_claims sequentially (goal 0) → ${verdict(seqScans.length === 0)}`);

      t0 = performance.now();
      const results = await claimRound(server, photos, rows, metrics);
      log(`3 instances (3 processes, 4 connections each) × ${photos} photos × 2 claim paths (blocks of 50 alternating) at ${metrics.rowsAfterRetention} ledger rows: `
        + `${((performance.now() - t0) / 1000).toFixed(1)} s; ${load()}`);
      const v4 = claimFigures('v4', results, photos, rows);
      const v5 = claimFigures('v5', results, photos, rows);
      Object.assign(metrics, {
        claims: v5.claims, claimsWon: v5.won, claimP50Ms: v5.p50, claimP95Ms: v5.p95, claimP99Ms: v5.p99, photoLedgerP95Ms: v5.life95,
        v4ClaimP50Ms: v4.p50, v4ClaimP95Ms: v4.p95, v4ClaimP99Ms: v4.p99, v4PhotoLedgerP95Ms: v4.life95, claimP95OverV4: r2(v5.p95 / v4.p95),
        takenAfterClaim: v5.takenAfterClaim, v4TakenAfterClaim: v4.takenAfterClaim,
      });
      log(`claim (schema 5, one statement): p50 ${v5.p50} ms, p95 ${v5.p95} ms (goal ≤ ${GOAL_P95_MS} ms) → ${verdict(v5.p95 <= GOAL_P95_MS)}, p99 ${v5.p99} ms`);
      log(`claim (schema 4, a transaction of 6 round trips), same run: p50 ${v4.p50} ms, p95 ${v4.p95} ms, p99 ${v4.p99} ms → p95 schema 5 / schema 4 = ${metrics.claimP95OverV4}`);
      log(`  a won photo's ledger cost (claim + submitting + accepted + outcome), p95: schema 5 ${v5.life95} ms, schema 4 ${v4.life95} ms`);
      if (!v4.wonOnce || !v5.wonOnce) throw new Error('a photo was claimed by two instances, or by none');
    } finally {
      await admin.end();
    }
  } finally {
    await server.stop();
  }
  log(JSON.stringify(metrics));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await main();
