import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { BatchSpecInput } from '../../../shared/engine/model';
import { createEngine } from '../../../main/core/engine';
import { ENCODE_PHASES } from '../../../main/core/engine/encode-ahead';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch } from './helpers';

// Issue 34, item 6: the encoder's memory budget counts what a decode really holds. Large JPEGs sent at 1K are
// decoded by libjpeg at a fraction of their size (shrink-on-load), so two of them encode at once — on two cores the
// encoder was otherwise half idle while it, not the service, was the bound. Sent at their own size they still decode
// one at a time (the memory goal: one large decode at a time).

/** A 4200×2800 JPEG of noise: ≈ 15 MB on disk (far above the 4 MB budget), decoded at 1/4 scale for a 1K upload. */
async function largeJpegs(folder: string, count: number): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (let i = 0; i < count; i++) {
    const jpeg = await sharp({ create: { width: 4200, height: 2800, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .jpeg({ quality: 92 }).toBuffer();
    expect(jpeg.length).toBeGreaterThan(4 * 1024 * 1024);
    await writeFile(join(folder, `large-${i}.jpg`), jpeg);
  }
}

describe('encodes in flight at once for large JPEGs', () => {
  const bed = useEngineTestBed();

  /** Most items seen reading their photo at the same moment while the batch ran. */
  async function mostReadingAtOnce(client: ReturnType<typeof createFakeClient>, policy: 'fit' | 'original'): Promise<number> {
    // Photos of their own (noise differs every time): the same photos again would be "already done".
    const input = join(bed.input, policy);
    await largeJpegs(input, 2);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 4, encodeConcurrency: 2 }));
    await engine.start();
    const spec: BatchSpecInput = {
      workflowId: 'fake-edit', inputs: { paths: [input] }, output: { outputFolder: join(bed.dir.path, `out-${policy}`) },
      encode: { uploadSizePolicy: policy, stripMetadata: true },
    };
    const { id } = await engine.createBatch(spec);
    let most = 0;
    const look = () => {
      const reading = bed.journal.itemsInStates(id, ['encoding'], 100).filter((item) => item.reason === ENCODE_PHASES.reading).length;
      most = Math.max(most, reading);
    };
    const timer = setInterval(look, 2);
    try {
      const done = await waitForBatch(engine, id, { timeoutMs: 120_000 });
      expect(done.counts.saved, JSON.stringify([done.counts, engine.listItems({ batchId: id }).items.map((item) => item.reason)])).toBe(2);
    } finally {
      clearInterval(timer);
    }
    await bed.stopEngine();
    return most;
  }

  it('two sent at 1K decode together; two sent at their own size decode one after the other', async () => {
    // One service for both batches (its execution ids go on counting, as a real one's never repeat).
    const client = createFakeClient();
    expect(await mostReadingAtOnce(client, 'fit')).toBe(2);
    expect(await mostReadingAtOnce(client, 'original')).toBe(1);
  }, 180_000);
});
