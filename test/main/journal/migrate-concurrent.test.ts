import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { MIGRATIONS } from '../../../main/core/journal/migrations';

// Two processes opening a journal of an older schema at once (the app and a CLI command after an update). Each open
// read the schema version before taking the write lock: the one that waited for the other's migration ran it again
// once it had the lock ("table batch_counts already exists"), or gave up after the 5 s busy timeout ("database is
// locked") when that migration — a 100k journal's — took longer. Here a third connection holds migration 15 open,
// uncommitted, while two real processes open the journal; they must wait for it, then find it done.

const CHILD = fileURLToPath(new URL('./_open-journal-child.ts', import.meta.url));
const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
const STATES = ['pending', 'saved', 'failed'] as const;

interface Opener { child: ChildProcess; opening: Promise<void>; result: Promise<{ ok: boolean; counts?: Record<string, number>; error?: string }> }

function openInChild(stateDir: string): Opener {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, stateDir, 'b1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let saidOpening: () => void = () => undefined;
  const opening = new Promise<void>((r) => { saidOpening = r; });
  child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); if (out.includes('opening\n')) saidOpening(); });
  const result = new Promise<{ ok: boolean; counts?: Record<string, number>; error?: string }>((resolve) => child.once('exit', (code) => {
    const line = out.split('\n').find((l) => l.startsWith('{'));
    resolve(line ? JSON.parse(line) as { ok: boolean } : { ok: false, error: `exit ${code}, printed ${JSON.stringify(out)}` });
  }));
  return { child, opening, result };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two processes opening a journal of schema 14 while it is being migrated', () => {
  let dir: string;
  let openers: Opener[] = [];
  let holder: InstanceType<typeof Database> | null = null;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-migrate-race-')); });
  afterEach(async () => {
    for (const { child } of openers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(openers.map((o) => o.result));
    openers = [];
    holder?.close();
    holder = null;
    await rm(dir, { recursive: true, force: true });
  });

  /** A WAL journal as the build before migration 15 left it: schema 14, one batch of 30 items in three states. */
  function schema14(): string {
    const path = join(dir, 'journal.db');
    const db = new Database(path);
    db.exec('PRAGMA journal_mode = WAL');
    for (const [i, sql] of MIGRATIONS.slice(0, 14).entries()) { db.exec(sql); db.exec(`PRAGMA user_version = ${i + 1}`); }
    const at = new Date().toISOString();
    db.prepare(`INSERT INTO batches (id, spec_json, workflow_id, workflow_name, workflow_json, credit_cost, state, created_at, updated_at, output_folder)
      VALUES ('b1', ?, 'color-grade', 'Color Grade', ?, 2, 'running', ?, ?, '/out')`).run(JSON.stringify(spec), JSON.stringify(workflow), at, at);
    for (let i = 0; i < 30; i++) {
      db.prepare(`INSERT INTO items (id, batch_id, position, display_name, sources_json, state, updated_at) VALUES (?, 'b1', ?, ?, '{}', ?, ?)`)
        .run(`b1-${i}`, i, `p${i}.jpg`, STATES[i % 3], at);
    }
    db.close();
    return path;
  }

  /** Migration 15 applied by another connection and left uncommitted: an opener that got there first, migrating. */
  function migratingElsewhere(path: string): InstanceType<typeof Database> {
    const db = new Database(path);
    db.exec('BEGIN IMMEDIATE');
    db.exec(MIGRATIONS[14]!);
    db.exec('PRAGMA user_version = 15');
    return db;
  }

  async function race(holdMs: number): Promise<void> {
    const path = schema14();
    holder = migratingElsewhere(path);
    openers = [openInChild(dir), openInChild(dir)];
    // Each reads the schema the moment it has said so; the other's migration goes on past that.
    await Promise.all(openers.map((o) => o.opening));
    await sleep(holdMs);
    holder.exec('COMMIT');
    const results = await Promise.all(openers.map((o) => o.result));
    expect(results.map((r) => r.error ?? r.counts)).toEqual([{ pending: 10, saved: 10, failed: 10 }, { pending: 10, saved: 10, failed: 10 }]);
    const db = new Database(path, { readonly: true });
    try {
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.length);
      // Counted once: by the one migration, not again by an opener.
      const counters = db.prepare(`SELECT state, n FROM batch_counts WHERE batch_id = 'b1'`).all() as { state: string; n: number }[];
      expect(Object.fromEntries(counters.map((r) => [r.state, Number(r.n)]))).toEqual({ pending: 10, saved: 10, failed: 10 });
    } finally {
      db.close();
    }
  }

  it('both wait for the migration under way and find it done (committed within the ordinary busy timeout)', async () => {
    await race(1_500);
  }, 60_000);

  it('both wait for a migration that takes longer than the ordinary 5 s busy timeout', async () => {
    await race(6_000);
  }, 60_000);
});
