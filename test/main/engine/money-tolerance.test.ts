import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createFakeClient, FAKE_WORKFLOW } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// One budget tolerance (shared/engine/money.ts) for the estimate and the engine's guard alike. Before, the estimate
// compared with none: 3 photos at 0.1 credit (0.30000000000000004) were "over" a 0.3 budget and Start was refused,
// while the engine's guard (1e-9) would have run all three.

describe('a budget the batch exactly fits, in fractional credits', () => {
  const bed = useEngineTestBed();

  it('is within budget in the estimate and runs every photo', async () => {
    await writePhotos(bed.input, 3);
    const tenth = { ...FAKE_WORKFLOW, creditCost: 0.1 };
    const fake = createFakeClient();
    const client = { ...fake, getWorkflow: async () => tenth, listWorkflows: async () => ({ workflows: [tenth] }) };
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false }));
    await engine.start();
    const spec = { workflowId: FAKE_WORKFLOW.id, inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') }, budget: 0.3 };
    const estimate = await engine.estimate(spec);
    expect(estimate.totalCost).toBeGreaterThan(0.3);
    expect(estimate.fitsBudget).toBe(true);
    const batch = await engine.createBatch(spec);
    const done = await waitForBatch(engine, batch.id);
    expect(done.counts.saved).toBe(3);
    expect(fake.executeCalls()).toBe(3);
  });
});
