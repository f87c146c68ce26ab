import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { ENCODE_PHASES } from '../../../main/core/engine/encode-ahead';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Issue 31 #15: items sat at a bare "Preparing" for seconds in the app. A preparing item now says what it is doing:
// reading and resizing the photo, then ready and waiting for a free slot (one slot here: the others wait for it).

describe('what a preparing item is doing', () => {
  const bed = useEngineTestBed();

  it('an encoding item reads as reading, then ready and waiting for a slot; a sent one no longer says so', async () => {
    await writePhotos(bed.input, 4);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client: createFakeClient(), concurrency: 1 }));
    const seen = new Map<string, Set<string | null>>();
    engine.onProgress((event) => {
      for (const item of event.items) {
        if (!seen.has(item.state)) seen.set(item.state, new Set());
        seen.get(item.state)!.add(item.reason);
      }
    });
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });
    await waitForBatch(engine, batch.id);
    expect([...(seen.get('encoding') ?? [])]).toEqual(expect.arrayContaining([ENCODE_PHASES.reading, ENCODE_PHASES.ready]));
    expect(seen.get('encoding')?.has(null)).toBe(false);
    expect([...(seen.get('saved') ?? [])]).toEqual([null]);
  });
});
