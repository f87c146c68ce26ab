import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// A hot folder that closes stops waiting for the batch it handed to createBatch (a hung service, a stalled share):
// its signal tells createBatch so, and whenever the reads answer, the batch nobody waits for is not journalled — no
// item runs that the folder does not know of, and its photo is found again at the next start.

describe('createBatch with a signal', () => {
  let rig: SandboxRig | null = null;
  afterEach(async () => { await rig?.close(); rig = null; });

  it('journals nothing and sends nothing when the signal aborts while it waits for the service', { timeout: 20_000 }, async () => {
    rig = await startSandboxRig({ concurrency: 1, executionDurationMs: 50 });
    const input = join(rig.dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 1);
    rig.sandbox.setFaults({ latencyMs: 800 });
    const abandoned = new AbortController();
    const creating = rig.engine.createBatch(
      { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, 'out') } },
      { signal: abandoned.signal },
    );
    setTimeout(() => abandoned.abort(new Error('the hot folder closed')), 100);
    await expect(creating).rejects.toThrow('the hot folder closed');
    rig.sandbox.setFaults({ latencyMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(rig.journal.listBatches()).toEqual([]);
    expect(rig.sandbox.stats().executionsCreated).toBe(0);
  });
});
