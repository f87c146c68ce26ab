import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { createEngine } from '../../../main/core/engine';
import type { ItemRecord } from '../../../main/core/journal/types';
import { createFakeClient } from './fake-client';
import { until } from '../../helpers/until';
import { listFilesDeep, tempFilesIn, useEngineTestBed, waitForBatch, writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// A result downloading slowly when the engine stops without waiting: the transfer is cut at once (no temp file left
// in the output folder), the item stays `downloading` — paid, its result still at the service — and the next start
// downloads it and saves it once, without submitting it again. A batch cancel is not a stop: a result already paid
// for is still downloaded and saved.

/** Bytes of the result temp files in `folder` (0 when there is none). */
async function tempBytes(folder: string): Promise<number> {
  let bytes = 0;
  for (const path of await tempFilesIn(folder).catch(() => [])) bytes += (await stat(path).catch(() => null))?.size ?? 0;
  return bytes;
}

/** The result cache's puts in progress (a download streams there first: engine/result-cache.ts). */
async function cacheTemps(rig: SandboxRig): Promise<string[]> {
  const folder = join(rig.dir.path, 'state', 'result-cache');
  return (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.tmp')).map((n) => join(folder, n));
}

/** Bytes streamed so far: into the result cache, or (cache unavailable) into the output folder's temp. */
async function streamedBytes(rig: SandboxRig, out: string): Promise<number> {
  let bytes = await tempBytes(out);
  for (const path of await cacheTemps(rig)) bytes += (await stat(path).catch(() => null))?.size ?? 0;
  return bytes;
}

describe('a download in progress when its batch is cancelled or the engine stops', () => {
  let rig: SandboxRig | null = null;
  afterEach(async () => { await rig?.close(); rig = null; });

  /** One photo whose result is streaming (some bytes in its temp file) at ≈ 400 B/s: a few seconds still to go. */
  async function downloadingSlowly(bytesPerSecond = 400) {
    rig = await startSandboxRig({ concurrency: 1, executionDurationMs: 50 });
    rig.sandbox.setFaults({ slowDownloadRate: 1, slowDownloadBytesPerSecond: bytesPerSecond });
    const input = join(rig.dir.path, 'in');
    const out = join(rig.dir.path, 'out');
    await mkdir(input);
    await writePhotos(input, 1, { width: 320, height: 240 });
    const batch = await rig.engine.createBatch({ workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: out } });
    await until(async () => (await streamedBytes(rig!, out)) > 0, 'the result to start streaming into its temp file');
    const item = rig.journal.listItems({ batchId: batch.id }).items[0]!;
    expect(item.state).toBe('downloading');
    return { batch, out, itemId: item.id };
  }

  /** Nothing of the result on disk, now and a while later (the transfer is not going on behind the scenes). */
  async function expectCut(out: string) {
    expect(await tempFilesIn(out)).toEqual([]);
    expect(await cacheTemps(rig!)).toEqual([]);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await tempFilesIn(out)).toEqual([]);
    expect(await cacheTemps(rig!)).toEqual([]);
    expect(await listFilesDeep(out)).toEqual([]);
  }

  /** Journalled as paid and not saved: recovery downloads it again, nothing sends it again. */
  function expectWaiting(item: ItemRecord | null) {
    expect(item).toMatchObject({ state: 'downloading', pendingTemp: null, pendingFinal: null, outputs: [] });
    expect(item!.executionId).toBeTruthy();
  }

  async function expectSavedOnce(batchId: string, out: string) {
    const done = await waitForBatch(rig!.engine, batchId, { timeoutMs: 20_000, states: ['completed', 'cancelled'] });
    expect(done.counts.saved).toBe(1);
    expect(await listFilesDeep(out)).toHaveLength(1);
    expect(rig!.journal.listItems({ batchId }).items[0]!.reason).toBeNull();
    expect(rig!.sandbox.stats().executionsCreated).toBe(1);
    expect(rig!.sandbox.stats().resultDownloads).toBe(2); // the cut one and the one saved
  }

  it('a stop without waiting cuts it within a second; the next start saves it once, not submitted again', { timeout: 30_000 }, async () => {
    const { batch, out, itemId } = await downloadingSlowly();
    const stopAt = Date.now();
    await rig!.engine.stop({ graceful: false });
    expect(Date.now() - stopAt).toBeLessThan(1_000);
    await expectCut(out);
    expectWaiting(rig!.journal.getItem(itemId));
    expect(rig!.journal.getItem(itemId)!.reason).toBeNull();

    rig!.sandbox.setFaults({ slowDownloadRate: 0 });
    rig!.engine = createEngine({ journal: rig!.journal, client: rig!.client, concurrency: 1 });
    await rig!.engine.start();
    await expectSavedOnce(batch.id, out);
  });

  it('a cancel does not cut it: the paid result is saved once and the batch stays cancelled', { timeout: 60_000 }, async () => {
    const { batch, out, itemId } = await downloadingSlowly(4_000);
    expect(rig!.engine.cancel(batch.id).state).toBe('cancelled');
    await until(() => rig!.journal.getItem(itemId)!.state === 'saved', 'the paid result to be saved', { timeoutMs: 45_000 });
    expect(await listFilesDeep(out)).toHaveLength(1);
    expect(await tempFilesIn(out)).toEqual([]);
    expect(rig!.sandbox.stats().executionsCreated).toBe(1);
    expect(rig!.sandbox.stats().resultDownloads).toBe(1); // one transfer, never cut and started over
    expect(rig!.engine.getBatch(batch.id).state).toBe('cancelled');
  });
});

describe('a download that breaks off mid-body', () => {
  const bed = useEngineTestBed();

  it('is downloaded again, not failed as a folder that cannot be written', async () => {
    const client = createFakeClient();
    const download = client.downloadResult.bind(client);
    let calls = 0;
    client.downloadResult = async (url, opts) => {
      if (calls++ > 0) return download(url, opts);
      // What the real client's stream does when the connection breaks after the headers (service/download.ts).
      let sent = false;
      return new Response(new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new AppError('network', 'The download broke off (test).'));
          sent = true;
          controller.enqueue(new Uint8Array(64));
        },
      }));
    };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    await writePhotos(bed.input, 1);
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });
    const done = await waitForBatch(engine, batch.id);
    expect(engine.listItems({ batchId: batch.id }).items.map((i) => [i.state, i.reason])).toEqual([['saved', null]]);
    expect(done.counts.saved).toBe(1);
    expect(client.executeCalls()).toBe(1);
    expect(calls).toBe(2);
  });
});
