import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { createEngine } from '../../../main/core/engine';
import { createFakeClient } from '../engine/fake-client';
import { useEngineTestBed, waitForBatch } from '../engine/helpers';

// Compaction (issue 34 #3) must not remove a finished batch's saved items while one may still run: the namer protects a batch's own
// originals and results only through the batch's items in the journal (output-plan.ts protectedNames, BatchOriginals).

describe('compaction and the namer', () => {
  const bed = useEngineTestBed();

  for (const compact of [false, true]) {
    it(`Retry failed after ${compact ? '' : 'no '}compaction never writes over an original of the same batch (in-place, overwrite)`, async () => {
      const jpg = join(bed.input, 'a.jpg');
      const png = join(bed.input, 'a.png');
      await writeFile(jpg, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 10, b: 10 } } }).jpeg().toBuffer());
      await writeFile(png, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 200, b: 10 } } }).png().toBuffer());
      const originals = [await readFile(jpg), await readFile(png)];
      // the second execution fails once (which photo that is may vary with encode order: both are checked)
      const client = createFakeClient({ onExecute: (n) => (n === 1 ? new AppError('server', 'HTTP 500: internal error') : null) });
      let engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
      await engine.start();
      const batch = await engine.createBatch({
        workflowId: 'fake-edit', inputs: { paths: [bed.input] },
        output: { outputFolder: bed.input, format: 'jpeg', namingTemplate: '{name}{ext}', collisionPolicy: 'overwrite' },
      });
      const done = await waitForBatch(engine, batch.id);
      expect(done.counts).toMatchObject({ saved: 1, failed: 1 });
      const failed = engine.listItems({ batchId: batch.id, states: ['failed'] }).items[0]!;
      if (compact) {
        await bed.stopEngine();
        const result = bed.journal.compact({ finishedBefore: new Date(Date.now() + 60_000).toISOString() });
        expect(result.itemsRemoved).toBe(0); // a batch with a failed item is left whole (journal/compact.ts)
        engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
        await engine.start();
      }
      engine.retryFailed(batch.id);
      await waitForBatch(engine, batch.id);
      const retried = engine.listItems({ batchId: batch.id, states: ['saved'] }).items.find((i) => i.id === failed.id)!;
      expect([jpg, png]).not.toContain(retried.outputs[0]);
      expect([await readFile(jpg), await readFile(png)]).toEqual(originals);
    });
  }
});
