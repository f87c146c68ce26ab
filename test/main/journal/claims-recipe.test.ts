import Database from 'libsql';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type NewItem } from '../../../main/core/journal';
import { claimKeyOf } from '../../../main/core/journal/claims';
import { MIGRATIONS } from '../../../main/core/journal/migrations';

// Issue 32 #1: a claim says which recipe paid it — the fingerprint of the batch whose item sent the unit.

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const KEY = claimKeyOf('a'.repeat(64), 'account-1');
const FP_A = 'a'.repeat(64);
const FP_B = 'b'.repeat(64);

function batchRecord(id: string, fingerprint?: string): BatchRecord {
  const spec = BatchSpecSchema.parse({
    workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' },
    ...(fingerprint ? { recipe: { name: `R ${fingerprint[0]}`, fingerprint } } : {}),
  });
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 1, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
}

const item = (id: string, extra: Partial<NewItem> = {}): NewItem => ({
  id, position: 0, displayName: 'p.jpg', sources: { photo: '/in/p.jpg' }, relDir: '', contentHash: 'h', state: 'pending', reason: null, claimKey: KEY, ...extra,
});

describe('the recipe in the claims table', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-claims-recipe-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('a claim keeps the sending batch\'s recipe fingerprint through accept and save; paid again by another recipe, it is that one\'s', () => {
    const journal = openJournal(dir);
    try {
      journal.createBatch(batchRecord('b1', FP_A), [item('first')]);
      journal.updateItem('first', { event: 'encode' });
      journal.updateItem('first', { event: 'submit' }, { durable: true });
      expect(journal.claimGet(KEY)?.recipeFingerprint).toBe(FP_A);
      journal.recordAccepted('first', 'exec-1', 1, new Date().toISOString());
      journal.updateItem('first', { event: 'complete', resultUrls: ['https://r/1'], resultLabels: [null] });
      journal.updateItem('first', { event: 'save', outputs: ['/out/p.jpg'] });
      expect(journal.claimGet(KEY)).toMatchObject({ state: 'saved', recipeFingerprint: FP_A });
      const seen = journal.claimGet(KEY)!.updatedAt;
      journal.createBatch(batchRecord('b2', FP_B), [item('again', { payAgainOver: seen })]);
      journal.updateItem('again', { event: 'encode' });
      journal.updateItem('again', { event: 'submit' }, { durable: true });
      expect(journal.claimGet(KEY)).toMatchObject({ ownerItemId: 'again', recipeFingerprint: FP_B });
      // A batch without a recipe pays without one.
      journal.recordAccepted('again', 'exec-2', 1, new Date().toISOString());
      journal.updateItem('again', { event: 'execution-failed' });
      journal.createBatch(batchRecord('b3'), [item('plain')]);
      journal.updateItem('plain', { event: 'encode' });
      journal.updateItem('plain', { event: 'submit' }, { durable: true });
      expect(journal.claimGet(KEY)).toMatchObject({ ownerItemId: 'plain', recipeFingerprint: null });
    } finally {
      journal.close();
    }
  });

  it('claims journalled before the column take their owner batch\'s recipe when the journal is opened', () => {
    const db = new Database(join(dir, 'journal.db'));
    const before = MIGRATIONS.findIndex((m) => m.includes('ALTER TABLE claims ADD COLUMN recipe_fingerprint'));
    expect(before).toBeGreaterThan(0);
    for (const migration of MIGRATIONS.slice(0, before)) db.exec(migration);
    db.exec(`PRAGMA user_version = ${before}`);
    db.close();
    // Written by the code of then: the batch and its item, and the claim without the column.
    const old = new Database(join(dir, 'journal.db'));
    const record = batchRecord('b1', FP_A);
    old.prepare(`INSERT INTO batches (id, spec_json, workflow_id, workflow_name, workflow_json, credit_cost, state, created_at, updated_at, output_folder)
      VALUES ('b1', ?, 'color-grade', 'Color Grade', ?, 1, 'completed', ?, ?, '/out')`).run(JSON.stringify(record.spec), JSON.stringify(workflow), record.createdAt, record.createdAt);
    old.prepare(`INSERT INTO items (id, batch_id, position, display_name, sources_json, state, claim_key, updated_at)
      VALUES ('first', 'b1', 0, 'p.jpg', '{}', 'saved', ?, ?)`).run(KEY, record.createdAt);
    old.prepare(`INSERT INTO claims (key, ledger_key, owner_item_id, state, updated_at) VALUES (?, ?, 'first', 'saved', ?)`).run(KEY, 'a'.repeat(64), record.createdAt);
    old.close();
    const journal = openJournal(dir);
    try {
      expect(journal.claimGet(KEY)).toMatchObject({ state: 'saved', recipeFingerprint: FP_A });
    } finally {
      journal.close();
    }
  });
});
