import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { createEngine } from '../../../main/core/engine';
import { createFakeClient } from '../engine/fake-client';
import { useEngineTestBed, waitForBatch } from '../engine/helpers';

describe('compaction and the namer: results', () => {
  const bed = useEngineTestBed();
  for (const compact of [false, true]) {
    it(`Retry failed after ${compact ? '' : 'no '}compaction never writes over a saved result of the same batch (overwrite)`, async () => {
      const [a, b] = [join(bed.input, 'a'), join(bed.input, 'b')];
      await mkdir(a); await mkdir(b);
      await writeFile(join(a, 'p.jpg'), await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 10, b: 10 } } }).jpeg().toBuffer());
      await writeFile(join(b, 'p.jpg'), await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 200, b: 10 } } }).jpeg().toBuffer());
      const client = createFakeClient({ onExecute: (n) => (n === 1 ? new AppError('server', 'HTTP 500: internal error') : null) });
      let engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
      await engine.start();
      const out = join(bed.dir.path, 'out');
      const batch = await engine.createBatch({
        workflowId: 'fake-edit', inputs: { paths: [join(a, 'p.jpg'), join(b, 'p.jpg')] },
        output: { outputFolder: out, namingTemplate: '{name}{ext}', collisionPolicy: 'overwrite' },
      });
      const done = await waitForBatch(engine, batch.id);
      expect(done.counts).toMatchObject({ saved: 1, failed: 1 });
      const saved = engine.listItems({ batchId: batch.id, states: ['saved'] }).items[0]!;
      const savedBytes = await readFile(saved.outputs[0]!);
      if (compact) {
        await bed.stopEngine();
        bed.journal.compact({ finishedBefore: new Date(Date.now() + 60_000).toISOString() });
        engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
        await engine.start();
      }
      engine.retryFailed(batch.id);
      await waitForBatch(engine, batch.id);
      const retried = engine.listItems({ batchId: batch.id, states: ['saved'] }).items.find((i) => i.id !== saved.id)!;
      expect(retried.outputs[0]).not.toBe(saved.outputs[0]);
      expect(await readFile(saved.outputs[0]!)).toEqual(savedBytes);
    });
  }
});
