import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IllegalTransitionError } from '../../../shared/engine/item-states';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type BatchRecord, type Journal } from '../../../main/core/journal';
import { createEngine } from '../../../main/core/engine';
import type { Engine } from '../../../main/core/engine/engine';
import { createFakeClient } from '../engine/fake-client';
import { makeTempDir, writePhotos, type TempDir } from '../engine/helpers';
import { until } from '../../helpers/until';

// An event the state machine does not allow, in production (strict off by env): the journal refuses it — the item
// keeps its state and is parked with an `attention` sentence, the refusal is logged at error — and the engine task
// that asked for it ends without taking the process down. Before, production applied the event's target anyway.

const workflow = { id: 'fake-edit', name: 'Fake Edit', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };

function batchRecord(id: string): BatchRecord {
  const spec = BatchSpecSchema.parse({ workflowId: 'fake-edit', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
  const at = new Date().toISOString();
  return { id, spec, workflow, creditCost: 2, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' } as BatchRecord;
}

describe('an illegal item transition in production', () => {
  let dir: TempDir;
  let journal: Journal;
  let engine: Engine | undefined;
  const reported: { error: IllegalTransitionError; attention: string }[] = [];

  beforeEach(async () => {
    // Production: none of the markers a test run sets.
    vi.stubEnv('VITEST', '');
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('BATCHROOM_STRICT_TRANSITIONS', '0');
    reported.length = 0;
    dir = await makeTempDir('batchroom-parking-');
    journal = openJournal(join(dir.path, 'state'), { transitions: { report: (error, attention) => reported.push({ error, attention }) } });
  });
  afterEach(async () => {
    await engine?.stop({ graceful: false });
    engine = undefined;
    journal.close();
    vi.unstubAllEnvs();
    await dir.cleanup();
  });

  it('refuses the move: state and fields unchanged, item parked with a reason, logged; a legal move unparks it', () => {
    journal.createBatch(batchRecord('b1'), [{ id: 'i1', position: 0, displayName: 'a.jpg', sources: { photo: '/in/a.jpg' }, relDir: '', contentHash: 'h', state: 'pending', reason: null }]);
    expect(() => journal.updateItem('i1', { event: 'save', outputs: ['/out/a.jpg'] })).toThrow(IllegalTransitionError);
    const parked = journal.getItem('i1')!;
    expect(parked).toMatchObject({ state: 'pending', outputs: [] });
    expect(parked.attention).toMatch(/refused to move it from "pending" by "save"/);
    expect(reported.map((r) => [r.error.itemId, r.error.from, r.error.event])).toEqual([['i1', 'pending', 'save']]);
    expect(journal.lastOutcomeSeq()).toBe(0);

    journal.updateItem('i1', { event: 'encode' });
    expect(journal.getItem('i1')).toMatchObject({ state: 'encoding', attention: null });
  });

  it('keeps an accepted execution id it could not apply in the attention sentence, and charges nothing', () => {
    journal.createBatch(batchRecord('b1'), [{ id: 'i1', position: 0, displayName: 'a.jpg', sources: { photo: '/in/a.jpg' }, relDir: '', contentHash: 'h', state: 'skipped', reason: 'duplicate' }]);
    expect(() => journal.recordAccepted('i1', 'exe_42', 2, new Date().toISOString())).toThrow(IllegalTransitionError);
    expect(journal.getItem('i1')).toMatchObject({ state: 'skipped', executionId: null });
    expect(journal.getItem('i1')!.attention).toMatch(/execution exe_42 accepted, 2 credits/);
    expect(journal.getBatch('b1')!.creditsSpent).toBe(0);
    expect(journal.listExecutions('b1')).toEqual([]);
  });

  it('an engine task that asks for an illegal move parks its item, logs at error and does not crash', async () => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 1);
    // A bug injected into the engine's writes: the poll that sees the execution complete asks for "save" instead of
    // "complete" (illegal from submitted/running).
    const buggy: Journal = { ...journal, updateItem: (id, change, options) => journal.updateItem(id, change.event === 'complete' ? { ...change, event: 'save' } : change, options) };
    const client = createFakeClient();
    engine = createEngine({ journal: buggy, client, concurrency: 1, balanceEvidence: false });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => { unhandled.push(reason); };
    process.on('unhandledRejection', onUnhandled);
    try {
      await engine.start();
      const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } });
      const itemId = journal.listItems({ batchId: batch.id }).items[0]!.id;
      await until(() => journal.getItem(itemId)!.attention !== null, 'the item to be parked');
      const view = engine.getItem(itemId);
      expect(['submitted', 'running']).toContain(view.state);
      expect(view.attention).toMatch(/by "save"/);
      expect(view.outputs).toEqual([]);
      expect(reported).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
