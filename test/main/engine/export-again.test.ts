import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notExportableReason } from '../../../main/core/engine/export-again';
import { buildJobReport } from '../../../main/core/reports/job-report';
import type { ItemRecord } from '../../../main/core/journal/types';
import { waitForBatch, writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// Export again without paying: results already paid for become new deliverables, from the kept bytes or the result
// URL, and an export never sends anything to the service.

describe('export again without paying', () => {
  let rig: SandboxRig;

  beforeEach(async () => {
    rig = await startSandboxRig({ credits: 1000 });
  });
  afterEach(() => rig.close());

  async function paidBatch(count: number): Promise<string> {
    const photos = await writePhotos(rig.dir.path, count);
    const batch = await rig.engine.createBatch({ workflowId: 'upscale', inputs: { paths: photos }, output: { outputFolder: join(rig.dir.path, 'out'), format: 'jpeg' } });
    expect((await waitForBatch(rig.engine, batch.id)).counts.saved).toBe(count);
    return batch.id;
  }

  it('makes new deliverables from the kept results: no execution, no download', async () => {
    const source = await paidBatch(3);
    const before = rig.sandbox.stats();
    const again = join(rig.dir.path, 'again');
    const { batches, notExportable } = await rig.engine.exportAgain({
      from: { batchId: source }, output: { outputFolder: again, format: 'png', namingTemplate: '{name}{ext}' },
      deliverables: [{ folder: 'small', format: 'webp', size: { fit: 'long-edge', longEdge: 40 } }],
    });
    expect(notExportable).toEqual([]);
    expect(batches).toHaveLength(1);
    const summary = await waitForBatch(rig.engine, batches[0]!.id);
    expect(summary.counts.saved).toBe(3);
    expect(summary.creditsSpent).toBe(0);
    const after = rig.sandbox.stats();
    expect(after.executionsCreated).toBe(before.executionsCreated);
    expect(after.resultDownloads).toBe(before.resultDownloads);
    expect((await readdir(again)).filter((n) => n.endsWith('.png')).sort()).toEqual(['photo-000.png', 'photo-001.png', 'photo-002.png']);
    for (const name of await readdir(join(again, 'small'))) {
      const meta = await sharp(join(again, 'small', name)).metadata();
      expect([meta.format, Math.max(meta.width!, meta.height!)]).toEqual(['webp', 40]);
    }
  });

  it('fetches results no longer kept from the service, for free; a batch id prefix is enough', async () => {
    const source = await paidBatch(2);
    await rm(join(rig.dir.path, 'state', 'result-cache'), { recursive: true, force: true });
    await rig.restart(); // the cache's index is read again at the next start
    const before = rig.sandbox.stats();
    const { batches } = await rig.engine.exportAgain({ from: { batchId: source.slice(0, 8) }, output: { outputFolder: join(rig.dir.path, 'again'), format: 'tiff' } });
    expect((await waitForBatch(rig.engine, batches[0]!.id)).counts.saved).toBe(2);
    const after = rig.sandbox.stats();
    expect(after.executionsCreated).toBe(before.executionsCreated);
    expect(after.resultDownloads - before.resultDownloads).toBe(2);
    for (const item of rig.engine.listItems({ batchId: batches[0]!.id }).items) expect(existsSync(item.outputs[0]!)).toBe(true);
  });

  it('an export interrupted by a crash finishes at the next start without paying', async () => {
    const source = await paidBatch(4);
    const before = rig.sandbox.stats().executionsCreated;
    const { batches } = await rig.engine.exportAgain({ from: { since: '2000-01-01' }, output: { outputFolder: join(rig.dir.path, 'again'), format: 'webp' } });
    expect(batches.map((b) => b.id)).toHaveLength(1);
    await rig.restart({ graceful: false });
    const summary = await waitForBatch(rig.engine, batches[0]!.id);
    expect(summary.counts.saved).toBe(4);
    expect(rig.sandbox.stats().executionsCreated).toBe(before);
    expect(source).not.toBe(batches[0]!.id);
    const names = rig.engine.listItems({ batchId: batches[0]!.id }).items.map((i) => basename(i.outputs[0]!)).sort();
    expect(names).toEqual(['photo-000_upscale.webp', 'photo-001_upscale.webp', 'photo-002_upscale.webp', 'photo-003_upscale.webp']);
  });

  it('says why a photo cannot be exported', () => {
    const base = { executionId: null, resultUrls: [], state: 'failed' } as unknown as ItemRecord;
    expect(notExportableReason(base)).toMatch(/never paid for in this batch/);
    expect(notExportableReason({ ...base, state: 'charged-no-result', executionId: 'e1' })).toMatch(/service lost its result/);
    expect(notExportableReason({ ...base, state: 'saved', executionId: 'e1', resultUrls: ['http://x/r.jpg'] })).toBeNull();
  });

  it('keeps the source batch\'s settings it is not asked to change, never writes over its files, and is not counted in reports', async () => {
    const photos = await writePhotos(rig.dir.path, 2);
    const out = join(rig.dir.path, 'out');
    const source = await rig.engine.createBatch({
      workflowId: 'upscale', inputs: { paths: photos }, job: 'J',
      output: { outputFolder: out, format: 'jpeg', metadata: 'strip', namingTemplate: '{name}-edit{ext}', collisionPolicy: 'overwrite' },
    });
    await waitForBatch(rig.engine, source.id);
    const paid = rig.engine.listItems({ batchId: source.id }).items.map((i) => i.outputs[0]!);
    const before = await Promise.all(paid.map((p) => readFile(p)));
    const { batches } = await rig.engine.exportAgain({ from: { batchId: source.id }, output: { outputFolder: out, size: { fit: 'long-edge', longEdge: 16 } } });
    expect((await waitForBatch(rig.engine, batches[0]!.id)).counts.saved).toBe(2);
    const spec = rig.journal.getBatch(batches[0]!.id)!.spec;
    expect(spec.output).toMatchObject({ metadata: 'strip', namingTemplate: '{name}-edit{ext}', format: 'jpeg', collisionPolicy: 'suffix' });
    // The paid files are as they were; the export's went beside them with a suffix.
    expect(await Promise.all(paid.map((p) => readFile(p)))).toEqual(before);
    for (const item of rig.engine.listItems({ batchId: batches[0]!.id }).items) expect(basename(item.outputs[0]!)).toMatch(/-edit \(2\)\.jpg$/);
    const report = buildJobReport(rig.journal, { by: 'job', from: null, to: null });
    expect(report.groups.map((g) => [g.key, g.batches, g.saved])).toEqual([['J', 1, 2]]);
  });
});
