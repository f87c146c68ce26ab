import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import type { WorkflowDetail } from '../../../shared/service/model';
import { buildEstimate } from '../../../main/core/engine/estimate';
import type { Plan } from '../../../main/core/engine/planner';
import { createFileFacts, type FileFacts } from '../../../main/core/images/file-facts';
import type { NewItem } from '../../../main/core/journal/types';

const workflow: WorkflowDetail = {
  id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1,
  inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', required: true }], textFields: [], switchFields: [] },
};

// Issue 34 item 1: with a state folder, the file facts keep only the last 20,000 files in memory; at 100k photos the
// estimate's "originals up to N px" then stat'ed and looked up 80,000 of them a second time, right after planning
// had read them (ms per photo grew with N). What planning learned is now taken as it is, however large the shoot.
describe('the estimate of a shoot larger than the file facts keep in memory', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-known-edges-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const photo = async (name: string, width: number, height: number) => {
    const path = join(dir, name);
    await sharp({ create: { width, height, channels: 3, background: { r: width % 256, g: 90, b: 140 } } }).jpeg().toFile(path);
    return path;
  };

  it('names the largest edge from what planning read, asking no file again', async () => {
    // The largest photo comes first: by the end of planning it has long left the memory entries (2 here).
    const paths = [await photo('big.jpg', 320, 200), ...(await Promise.all(Array.from({ length: 5 }, (_, i) => photo(`small-${i}.jpg`, 64 + i, 48))))];
    const facts = createFileFacts({ dir: join(dir, 'state'), maxEntries: 2, now: () => Date.now() + 10_000 });
    try {
      facts.prefetch(paths); // as planBatch does
      const items: NewItem[] = [];
      for (const [i, path] of paths.entries()) {
        items.push({
          id: `id-${i}`, displayName: path, sources: { photo: path }, relDir: '', contentHash: await facts.contentHash(path),
          state: 'pending', reason: null, claimKey: null, payAgainOver: null, position: i,
        });
      }
      facts.flush();
      const asked: string[] = [];
      const watched: FileFacts = { ...facts, longEdge: (path) => (asked.push(path), facts.longEdge(path)) };
      const plan: Plan = { items, workCount: items.length, skipped: [], duplicates: [], keys: new Map(), alreadyDone: [], resultsGone: [], following: [] };
      const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: [dir] }, output: { outputFolder: join(dir, 'out') } });
      const estimate = await buildEstimate(spec, workflow, plan, 1_000, new Date(), watched);
      expect(estimate.resultFile?.largestOriginalEdge).toBe(320);
      expect(asked).toEqual([]);
    } finally {
      facts.close();
    }
  });

  it('forgets those edges when the next planning starts', async () => {
    const paths = await Promise.all(Array.from({ length: 4 }, (_, i) => photo(`p-${i}.jpg`, 100 + i, 50)));
    const facts = createFileFacts({ dir: join(dir, 'state'), maxEntries: 1, now: () => Date.now() + 10_000 });
    try {
      facts.prefetch(paths);
      for (const path of paths) await facts.contentHash(path);
      expect(paths.map((p) => facts.knownEdge?.(p))).toEqual([100, 101, 102, 103]);
      facts.prefetch([paths[0]!]);
      // Only the one memory entry is left (the last file); the others would be looked up again, not taken as known.
      expect(paths.map((p) => facts.knownEdge?.(p))).toEqual([undefined, undefined, undefined, 103]);
      expect(await facts.longEdge(paths[0]!)).toBe(100);
    } finally {
      facts.close();
    }
  });
});
