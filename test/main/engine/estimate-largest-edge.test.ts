import { describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import type { WorkflowDetail } from '../../../shared/service/model';
import { buildEstimate } from '../../../main/core/engine/estimate';
import type { Plan } from '../../../main/core/engine/planner';
import type { FileFacts } from '../../../main/core/images/file-facts';
import type { NewItem } from '../../../main/core/journal/types';

const workflow: WorkflowDetail = {
  id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1,
  inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', required: true }], textFields: [], switchFields: [] },
};

// Review of issue 34: the estimate's "originals up to N px" took Math.max(0, ...edges): a RangeError (too many
// arguments) above ≈ 125k photos, so a season's estimate failed outright.
describe('the estimate of 200,000 photos', () => {
  it('names the largest original edge of all of them', async () => {
    const count = 200_000;
    const items: NewItem[] = Array.from({ length: count }, (_, i) => ({
      id: `id-${i}`, displayName: `IMG_${i}.jpg`, sources: { photo: `/shoot/d${i % 100}/IMG_${i}.jpg` }, relDir: '', contentHash: `h${i}`,
      state: 'pending', reason: null, claimKey: null, payAgainOver: null, position: i,
    }));
    const plan: Plan = {
      items, workCount: count, skipped: [], duplicates: [], keys: new Map(), alreadyDone: [], resultsGone: [], following: [],
    };
    // The edges as planning read them; the largest one is the last photo's, so no early answer passes.
    const facts: FileFacts = {
      contentHash: async () => 'h', longEdge: async (path) => (path.endsWith(`IMG_${count - 1}.jpg`) ? 9_000 : 6_000),
      raw: async () => null, prefetch: () => undefined, flush: () => undefined, close: () => undefined,
    };
    const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/shoot'] }, output: { outputFolder: '/nowhere/out' } });
    const estimate = await buildEstimate(spec, workflow, plan, 1_000_000, new Date(), facts);
    expect(estimate.resultFile?.largestOriginalEdge).toBe(9_000);
    expect(estimate.itemCount).toBe(count);
  }, 120_000);
});
