import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../main/core/journal/journal';
import { savedEntry, unknownEntry } from '../../../main/core/journal/done-ledger';
import { MIGRATIONS } from '../../../main/core/journal/migrations';

// Issue 32 #1/#3: the done ledger keeps the recipe a photo was done with, so `recipes show` can count them.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'br-ledger-recipe-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const FP = 'f'.repeat(64);
const spec = { workflowId: 'wf', parameters: { texts: { look: 'warm' } }, source: { kind: 'cli' as const }, recipe: { name: 'Client A', fingerprint: FP } };
const item = (n: number) => ({ id: `i${n}`, contentHash: `h${n}`, sourcePath: `/p/${n}.jpg`, outputs: [`/o/${n}.jpg`], executionId: `e${n}` });

describe('the ledger and recipes', () => {
  it('records the fingerprint of a saved item and counts the saved photos of a recipe; an entry without one keeps it', () => {
    const journal = openJournal(dir);
    try {
      const first = savedEntry(spec, item(1), '2026-11-27T10:00:00.000Z');
      expect(first.recipeFingerprint).toBe(FP);
      journal.ledgerRecord(first);
      journal.ledgerRecord(savedEntry(spec, item(2), '2026-11-27T10:00:01.000Z'));
      // Charged without a result: not a photo done.
      journal.ledgerRecord(unknownEntry(spec, item(3), '2026-11-27T10:00:02.000Z'));
      // Without a recipe: not counted.
      journal.ledgerRecord(savedEntry({ ...spec, recipe: undefined }, item(4), '2026-11-27T10:00:03.000Z'));
      expect(journal.ledgerCountByRecipe(FP)).toBe(2);
      // A hot folder's own record of the same photo names no recipe: the engine's stays.
      journal.ledgerRecord({ ...first, recipeFingerprint: undefined, recordedAt: '2026-11-27T10:01:00.000Z' });
      expect(journal.ledgerCountByRecipe(FP)).toBe(2);
      expect(journal.ledgerCountByRecipe('0'.repeat(64))).toBe(0);
    } finally {
      journal.close();
    }
  });

  it('a journal written before the column gets it, its entries counted as no recipe\'s', () => {
    const path = join(dir, 'journal.db');
    const db = new Database(path);
    const before = MIGRATIONS.findIndex((m) => m.includes('recipe_fingerprint'));
    for (const migration of MIGRATIONS.slice(0, before)) db.exec(migration);
    db.exec(`PRAGMA user_version = ${before}`);
    db.prepare(`INSERT INTO ledger (key, content_hash, workflow_id, parameters_hash, source_path, outcome, outputs_json, execution_id, item_id, hot_folder_id, recorded_at)
      VALUES ('k', 'h', 'wf', 'ph', '/p.jpg', 'saved', '[]', NULL, NULL, NULL, '2026-11-01T00:00:00.000Z')`).run();
    db.close();
    const journal = openJournal(dir);
    try {
      expect(journal.ledgerGet('k')?.outcome).toBe('saved');
      expect(journal.ledgerCountByRecipe(FP)).toBe(0);
      journal.ledgerRecord({ ...savedEntry(spec, item(1), '2026-11-27T10:00:00.000Z'), key: 'k' });
      expect(journal.ledgerCountByRecipe(FP)).toBe(1);
    } finally {
      journal.close();
    }
  });
});
