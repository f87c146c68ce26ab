import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchProgressEvent } from '../../../shared/engine/model';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, tempFilesIn, waitForBatch, writePhotos } from './helpers';

describe('engine end to end against the sandbox', () => {
  let sandbox: RunningSandbox;
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine;

  const setup = async (options: { credits?: number; concurrency?: number } = {}) => {
    sandbox = await startTestSandbox({ executionDurationMs: 120, credits: options.credits ?? 1000 });
    journal = openJournal(join(dir.path, 'state'));
    const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    engine = createEngine({ journal, client, concurrency: options.concurrency ?? 4 });
    await engine.start();
  };

  beforeEach(async () => {
    dir = await makeTempDir();
  });

  afterEach(async () => {
    await engine?.stop({ graceful: false });
    journal?.close();
    await sandbox?.close();
    await dir.cleanup();
  });

  it('saves one result per photo, mirrors subfolders, skips non-images with reasons and reports progress', async () => {
    await setup();
    const input = join(dir.path, 'in');
    await mkdir(join(input, 'sub'), { recursive: true });
    await writePhotos(input, 4);
    await writePhotos(join(input, 'sub'), 2, { prefix: 'nested', offset: 100 });
    await (await import('node:fs/promises')).writeFile(join(input, 'notes.txt'), 'hello');
    await (await import('node:fs/promises')).writeFile(join(input, '.DS_Store'), 'x');
    const output = join(dir.path, 'out');
    const events: BatchProgressEvent[] = [];
    engine.onProgress((e) => events.push(e));

    const estimate = await engine.estimate({
      workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input], recursive: true }, output: { outputFolder: output },
    });
    expect(estimate.itemCount).toBe(6);
    expect(estimate.totalCost).toBe(6);
    expect(estimate.skipped.map((s) => s.reason).sort()).toEqual(['not a supported image type (.txt)', 'system file']);
    expect(estimate.namingPreview[0]!.output).toMatch(/photo-000_color-grade\.jpg$/);

    const created = await engine.createBatch({
      workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input], recursive: true },
      output: { outputFolder: output, sidecars: true },
    });
    const done = await waitForBatch(engine, created.id);
    expect(done.state).toBe('completed');
    expect(done.counts.saved).toBe(6);
    expect(done.counts.skipped).toBe(2);
    expect(done.creditsSpent).toBe(6);
    expect(done.progress).toBe(1);
    expect(existsSync(join(output, 'photo-000_color-grade.jpg'))).toBe(true);
    expect(existsSync(join(output, 'sub', 'nested-001_color-grade.jpg'))).toBe(true);
    const sidecar = JSON.parse(await (await import('node:fs/promises')).readFile(join(output, 'photo-000_color-grade.jpg.json'), 'utf8'));
    expect(sidecar.workflow.id).toBe('color-grade');
    expect(JSON.stringify(sidecar)).not.toContain(sandbox.apiKey);
    const meta = await sharp(join(output, 'photo-000_color-grade.jpg')).metadata();
    expect(meta.format).toBe('jpeg');
    expect(await tempFilesIn(output)).toEqual([]);
    expect(sandbox.stats().executionsCreated).toBe(6);

    const { items } = engine.listItems({ batchId: created.id });
    for (const item of items.filter((i) => i.state === 'saved')) {
      expect(item.executionId).toMatch(/^exe_/);
      expect(item.outputs).toHaveLength(1);
    }
    // Coalesced events carried the end state.
    await new Promise((r) => setTimeout(r, 250));
    const last = events.flatMap((e) => e.batches).filter((b) => b.id === created.id).at(-1)!;
    expect(last.state).toBe('completed');
  });

  it('refuses a batch that does not fit the balance or the budget, and pauses at the budget', async () => {
    await setup({ credits: 3 });
    const input = join(dir.path, 'in');
    await mkdir(input, { recursive: true });
    await writePhotos(input, 5);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'cool' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } };
    await expect(engine.createBatch(spec)).rejects.toMatchObject({ code: 'insufficient_credits' });
    await expect(engine.createBatch({ ...spec, budget: 2 })).rejects.toMatchObject({ code: 'budget_exceeded' });
    expect(sandbox.stats().executionsCreated).toBe(0);
  });

  it('names collisions with a suffix and never overwrites an original', async () => {
    await setup();
    const input = join(dir.path, 'in');
    await mkdir(input, { recursive: true });
    await writePhotos(input, 2);
    // Output into the input folder with a template that reproduces the original names.
    const batch = await engine.createBatch({
      workflowId: 'color-grade', parameters: { texts: { look: 'mono' } }, inputs: { paths: [input] },
      output: { outputFolder: input, namingTemplate: '{name}{ext}', collisionPolicy: 'overwrite' },
    });
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts.saved).toBe(2);
    const { items } = engine.listItems({ batchId: batch.id });
    for (const item of items) {
      expect(item.outputs[0]).not.toBe(Object.values(item.sources)[0]);
      expect(item.outputs[0]).toMatch(/ \(2\)\.jpg$/);
    }
  });

  it('runs a multi-image workflow from explicit mappings, and refuses plain paths for it', async () => {
    await setup();
    const input = join(dir.path, 'in');
    await mkdir(input, { recursive: true });
    const [a, b, c, d] = await writePhotos(input, 4);
    const output = join(dir.path, 'out');
    await expect(engine.createBatch({ workflowId: 'before-after', inputs: { paths: [input] }, output: { outputFolder: output } }))
      .rejects.toMatchObject({ code: 'validation' });
    const batch = await engine.createBatch({
      workflowId: 'before-after', inputs: { mappings: [{ before: a!, after: b! }, { before: c!, after: d! }] }, output: { outputFolder: output },
    });
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts.saved).toBe(2);
    expect(done.creditsSpent).toBe(6);
    const items = engine.listItems({ batchId: batch.id }).items;
    expect(items[0]!.displayName).toBe('photo-000.jpg + photo-001.jpg');
    expect(items[0]!.sources).toEqual({ after: b, before: a });
  });
});
