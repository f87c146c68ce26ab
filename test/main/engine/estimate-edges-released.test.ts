import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import type { WorkflowDetail } from '../../../shared/service/model';
import { buildEstimate } from '../../../main/core/engine/estimate';
import type { Plan } from '../../../main/core/engine/planner';
import { createFileFacts } from '../../../main/core/images/file-facts';
import type { NewItem } from '../../../main/core/journal/types';

const workflow: WorkflowDetail = {
  id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1,
  inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', required: true }], textFields: [], switchFields: [] },
};

// Issue 34 review, finding 4: the long edges planning learned (up to 250k numbers, ≈ 15 MB) stayed in memory after
// the estimate had read them, until the next planning — in the CLI's 192 MB heap. The estimate now lets them go.
describe('the long edges planning learned', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-edges-released-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('are let go once the estimate has read them, and the estimate still names the largest', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 4; i++) {
      const path = join(dir, `p-${i}.jpg`);
      await sharp({ create: { width: 100 + i, height: 50, channels: 3, background: { r: i, g: 90, b: 140 } } }).jpeg().toFile(path);
      paths.push(path);
    }
    // One memory entry: what planning learned of the other three is only in its edge map.
    const facts = createFileFacts({ dir: join(dir, 'state'), maxEntries: 1, now: () => Date.now() + 10_000 });
    try {
      facts.prefetch(paths);
      const items: NewItem[] = [];
      for (const [i, path] of paths.entries()) {
        items.push({
          id: `id-${i}`, displayName: path, sources: { photo: path }, relDir: '', contentHash: await facts.contentHash(path),
          state: 'pending', reason: null, claimKey: null, payAgainOver: null, position: i,
        });
      }
      facts.flush();
      expect(paths.map((p) => facts.knownEdge?.(p))).toEqual([100, 101, 102, 103]);
      const plan: Plan = { items, workCount: items.length, skipped: [], duplicates: [], keys: new Map(), alreadyDone: [], resultsGone: [], following: [] };
      const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: [dir] }, output: { outputFolder: join(dir, 'out') } });
      const estimate = await buildEstimate(spec, workflow, plan, 1_000, new Date(), facts);
      expect(estimate.resultFile?.largestOriginalEdge).toBe(103);
      // Only the memory entry (the last file) still answers; the edge map holds nothing of this planning.
      expect(paths.map((p) => facts.knownEdge?.(p))).toEqual([undefined, undefined, undefined, 103]);
    } finally {
      facts.close();
    }
  });
});
