import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { createFakeClient, FAKE_WORKFLOW } from '../engine/fake-client';
import { listFilesDeep, useEngineTestBed, waitForBatch, writePhotos } from '../engine/helpers';

// Review (images/save.ts + images/result-metadata.ts, save path of saver.ts): writeTemp fsyncs the converted result,
// then ExifTool (-overwrite_original) writes a NEW file `<temp>_exiftool_tmp` and renames it over the temp; nothing
// fsyncs that new inode before placeFile links it to its final name and syncs the folder. The name is durable, the
// bytes are not: after a power cut within the writeback window (APFS, XFS; ext4 only by its rename heuristic) the
// saved result is empty or torn, while the journal, the done ledger and the result cache (markSaved → evictable) all
// say it was saved — a paid result lost, and never fetched again. The file given its final name must be one whose
// data was fsynced after its last write.

describe('a saved result with metadata', () => {
  const bed = useEngineTestBed();
  let writer: ResultMetadataWriter | null = null;
  let restore: (() => void) | null = null;
  afterEach(async () => {
    restore?.(); restore = null;
    await bed.stopEngine();
    await writer?.end?.();
    writer = null;
  });

  it('is fsynced as the inode that gets the final name', async () => {
    // Record the inode of every file handle synced from here on (writeTemp's handle.sync(), any datasync).
    const probe = await open(join(bed.dir.path, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void>; datasync: () => Promise<void>; stat: () => Promise<{ ino: number }> };
    await probe.close();
    const synced = new Set<number>();
    const { sync, datasync } = proto;
    proto.sync = async function (this: typeof proto) { synced.add((await this.stat()).ino); return sync.call(this); };
    proto.datasync = async function (this: typeof proto) { synced.add((await this.stat()).ino); return datasync.call(this); };
    restore = () => { proto.sync = sync; proto.datasync = datasync; };

    writer = createResultMetadataWriter({ configDir: join(bed.dir.path, 'state'), creatorTool: 'test' });
    const client = createFakeClient();
    const out = join(bed.dir.path, 'out');
    await writePhotos(bed.input, 1);
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, resultMetadata: writer }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: FAKE_WORKFLOW.id, inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts.saved).toBe(1);
    const files = await listFilesDeep(out);
    expect(files).toHaveLength(1);
    const saved = engine.listItems({ batchId: batch.id }).items[0]!;
    expect(saved.reason).toBeNull(); // ExifTool did write the metadata
    expect(synced.size).toBeGreaterThan(0); // the probe sees writeTemp's sync
    const placed = await stat(saved.outputs[0]!);
    expect(synced.has(placed.ino)).toBe(true);
  }, 60_000);
});
