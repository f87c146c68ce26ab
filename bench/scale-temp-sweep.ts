// Issue 34 #3, the review fixes of the restart's temp sweep and migration 15. N = 100,000 × BENCH_SCALE items.
//  migration: a journal of N items at schema 14 (seeded in one transaction) opened by openJournal — migration 15's
//             time, per item, beside the 5 s busy timeout a second process opening the journal at the same moment
//             used to give up at ("database is locked"); it now waits up to MIGRATION_WAIT_MS (journal/migrate.ts).
//  sweep:     a folder of T = max(30, N / 100) temps, a third each this journal's leftovers, another journal's and
//             randomly named ones from before the start. removeLeftoverTemps (each temp's owner looked up in the N-item
//             journal, a stat only for random names) against the rule before this fix (readdir, a stat of every temp,
//             unlink when its mtime is older than the start) on the same files, same run: µs per temp and the ratio.
// Last line: one JSON object of metrics.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { openJournal } from '../main/core/journal';
import { MIGRATIONS } from '../main/core/journal/migrations';
import { MIGRATION_WAIT_MS } from '../main/core/journal/migrate';
import { removeLeftoverTemps } from '../main/core/engine/temp-sweep';
import { isTempName } from '../main/core/images/save';
import { BatchSpecSchema } from '../shared/engine/model';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const N = Math.max(300, Math.round(100_000 * SCALE));
const T = Math.max(30, Math.round(N / 100));
const OLD_BUSY_TIMEOUT_MS = 5_000;
/** The ownership check may cost this much more per temp than the date-only rule it replaces. */
const GOAL_SWEEP_RATIO = 2;
const HOUR_AGO = new Date(Date.now() - 3_600_000);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const print = (line: string) => process.stdout.write(`${line}\n`);

/** A schema-14 journal of N items in one batch (ids are UUIDs, as the planner's), seeded in one transaction. */
function seedSchema14(stateDir: string): string[] {
  const db = new Database(join(stateDir, 'journal.db'));
  db.exec('PRAGMA journal_mode = WAL');
  for (const [i, sql] of MIGRATIONS.slice(0, 14).entries()) { db.exec(sql); db.exec(`PRAGMA user_version = ${i + 1}`); }
  const spec = BatchSpecSchema.parse({ workflowId: 'w', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
  const at = new Date().toISOString();
  const ids = Array.from({ length: N }, () => randomUUID());
  const seed = db.transaction(() => {
    db.prepare(`INSERT INTO batches (id, spec_json, workflow_id, workflow_name, workflow_json, credit_cost, state, created_at, updated_at, output_folder)
      VALUES ('b', ?, 'w', 'W', '{}', 1, 'running', ?, ?, '/out')`).run(JSON.stringify(spec), at, at);
    const insert = db.prepare(`INSERT INTO items (id, batch_id, position, display_name, sources_json, state, updated_at) VALUES (?, 'b', ?, ?, '{}', ?, ?)`);
    ids.forEach((id, i) => insert.run(id, i, `p${i}.jpg`, i % 2 ? 'saved' : 'pending', at));
  });
  seed.immediate();
  db.close();
  return ids;
}

/** T temps: a third this journal's leftovers, a third another journal's, a third random names, all dated an hour back. */
async function makeTemps(folder: string, ids: string[]): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (let k = 0; k < T; k++) {
    const name = k % 3 === 0 ? `.batchroom-${ids[k % ids.length]}-0a1b2c3d.part` : k % 3 === 1 ? `.batchroom-${randomUUID()}-0a1b2c3d.part` : `.batchroom-${String(k).padStart(8, '0')}.xmp`;
    await writeFile(join(folder, name), '');
    await utimes(join(folder, name), HOUR_AGO, HOUR_AGO);
  }
}

/** The rule before the fix (ca4a158's later sweep): every temp whose mtime is older than the start goes. */
async function removeOlderThan(folder: string, beforeMs: number): Promise<number> {
  let removed = 0;
  for (const name of await readdir(folder)) {
    if (!isTempName(name)) continue;
    const info = await stat(join(folder, name)).catch(() => null);
    if (!info || !info.isFile() || info.mtimeMs >= beforeMs) continue;
    await unlink(join(folder, name)).then(() => { removed++; }, () => undefined);
  }
  return removed;
}

export interface TempSweepFigures {
  scale: number; items: number; counted: number; temps: number; migrationMs: number; migrationUsPerItem: number; migrationWaitMs: number;
  sweepBeforeUsPerTemp: number; sweepAfterUsPerTemp: number; removedBefore: number; removedAfter: number; sweepRatio: number;
}

export async function figures(): Promise<TempSweepFigures> {
  const root = await mkdtemp(join(tmpdir(), 'batchroom-scale-temp-sweep-'));
  try {
    const stateDir = join(root, 'state');
    await mkdir(stateDir);
    const ids = seedSchema14(stateDir);
    const t0 = performance.now();
    const journal = openJournal(stateDir);
    const migrationMs = performance.now() - t0;
    const counted = Object.values(journal.countByState('b')).reduce((a, b) => a + b, 0);
    try {
      // Alternating rounds on fresh copies of the same set of temps; the start is "now + 1 min" so random ones count as old.
      const before: number[] = [];
      const after: number[] = [];
      let removedBefore = 0;
      let removedAfter = 0;
      for (let round_ = 0; round_ < 3; round_++) {
        const a = join(root, `old-${round_}`);
        const b = join(root, `new-${round_}`);
        await makeTemps(a, ids);
        await makeTemps(b, ids);
        let t = performance.now();
        removedBefore = await removeOlderThan(a, Date.now() + 60_000);
        before.push(performance.now() - t);
        t = performance.now();
        removedAfter = await removeLeftoverTemps(b, journal, Date.now() + 60_000);
        after.push(performance.now() - t);
      }
      const median = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)]!;
      return {
        scale: SCALE, items: N, counted, temps: T, migrationMs: round(migrationMs), migrationUsPerItem: round((migrationMs * 1000) / N),
        migrationWaitMs: MIGRATION_WAIT_MS, sweepBeforeUsPerTemp: round((median(before) * 1000) / T, 1), sweepAfterUsPerTemp: round((median(after) * 1000) / T, 1),
        removedBefore, removedAfter, sweepRatio: round(median(after) / median(before)),
      };
    } finally {
      journal.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  print(`scale-temp-sweep: N = ${N} items, ${T} temps (BENCH_SCALE ${SCALE}); load ${load()}`);
  const f = await figures();
  print(`migration 15 of a schema-14 journal of ${f.items} items: ${f.migrationMs} ms (${f.migrationUsPerItem} µs/item); a second opener waited `
    + `${OLD_BUSY_TIMEOUT_MS} ms before (${f.migrationMs < OLD_BUSY_TIMEOUT_MS ? 'enough here' : 'not enough: "database is locked"'}), now up to ${f.migrationWaitMs} ms `
    + `(goal: migration ≤ that wait) ${f.migrationMs <= f.migrationWaitMs ? 'met' : 'MISSED'}; counters sum ${f.counted}`);
  print(`temp sweep of ${f.temps} temps: ownership rule ${f.sweepAfterUsPerTemp} µs/temp (removed ${f.removedAfter}: this journal's and the old random ones) vs `
    + `the date-only rule before ${f.sweepBeforeUsPerTemp} µs/temp (removed ${f.removedBefore}: another journal's too): ratio ${f.sweepRatio} `
    + `(goal ≤ ${GOAL_SWEEP_RATIO}) ${f.sweepRatio <= GOAL_SWEEP_RATIO ? 'met' : 'MISSED'}; load ${load()}`);
  print(JSON.stringify({ ...f, load: Number(loadavg()[0]!.toFixed(1)) }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
