import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type Journal } from '../../../main/core/journal';
import { MIGRATIONS } from '../../../main/core/journal/migrations';

// The submit queue's order across batches in the journal (journal/batch-order.ts, migration 9).

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };

function batchRecord(id: string, priority = 0, createdAt = new Date().toISOString()): BatchRecord {
  const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' }, priority });
  return { id, spec, workflow, creditCost: 2, state: 'running', pausedReason: null, pauseCode: null, createdAt, updatedAt: createdAt, creditsSpent: 0, budget: null, outputFolder: '/out' };
}

describe('batch queue order in the journal', () => {
  let dir: string;
  let journal: Journal | undefined;

  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-order-')); });
  afterEach(async () => {
    journal?.close();
    journal = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('a journal from before queue order keeps its batches in creation order', () => {
    const db = new Database(join(dir, 'journal.db'));
    for (const [version, sql] of MIGRATIONS.slice(0, 8).entries()) { db.exec(sql); db.exec(`PRAGMA user_version = ${version + 1}`); }
    const insert = db.prepare(`INSERT INTO batches (id, spec_json, workflow_id, workflow_name, workflow_json, credit_cost, state, created_at, updated_at, output_folder)
      VALUES (?, '{}', 'w', 'W', '{}', 1, 'running', ?, ?, '/out')`);
    // Inserted out of creation order: the migration orders by created_at, not by rowid.
    insert.run('late', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
    insert.run('early', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    db.close();
    journal = openJournal(dir);
    expect(journal.batchIdsInState('running')).toEqual(['early', 'late']);
    expect([journal.getBatch('early')?.queueOrder, journal.getBatch('late')?.queueOrder]).toEqual([1, 2]);
    // A batch created now goes to the back.
    journal.createBatch(batchRecord('new'), []);
    expect(journal.batchIdsInState('running')).toEqual(['early', 'late', 'new']);
  });

  it('orders by priority, then queue order; front and back pass every other open batch, taking its priority', () => {
    journal = openJournal(dir);
    journal.createBatch(batchRecord('a'), []);
    journal.createBatch(batchRecord('b', 3), []);
    journal.createBatch(batchRecord('c'), []);
    journal.createBatch(batchRecord('d', -2), []);
    expect(journal.batchIdsInState('running')).toEqual(['b', 'a', 'c', 'd']);
    expect(journal.moveBatch('c', 'front')).toBe(true);
    expect(journal.getBatch('c')?.priority).toBe(3);
    expect(journal.batchIdsInState('running')).toEqual(['c', 'b', 'a', 'd']);
    expect(journal.moveBatch('b', 'back')).toBe(true);
    expect(journal.getBatch('b')?.priority).toBe(-2);
    expect(journal.batchIdsInState('running')).toEqual(['c', 'a', 'd', 'b']);
    // A finished batch is no longer in the queue: moves are relative to the open ones only.
    journal.updateBatch('c', { state: 'completed' });
    journal.moveBatch('d', 'front');
    expect(journal.getBatch('d')?.priority).toBe(0);
    expect(journal.batchIdsInState('running')).toEqual(['d', 'a', 'b']);
    journal.setBatchPriority('b', 10);
    expect(journal.batchIdsInState('running')).toEqual(['b', 'd', 'a']);
    for (const id of ['a', 'b']) journal.updateBatch(id, { state: 'cancelled' });
    expect(journal.moveBatch('d', 'back')).toBe(false);
  });
});
