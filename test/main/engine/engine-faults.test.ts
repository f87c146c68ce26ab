import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { isTempName } from '../../../main/core/images/save';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, waitForBatch, writePhotos } from './helpers';

// A hostile service: 10% 5xx, 5% 429, 2% dropped connections (half before, half after processing), 1% truncated
// JSON, result URLs that expire quickly. Every item must end with a reason, and nothing may be charged twice.

describe('engine under injected faults', () => {
  let sandbox: RunningSandbox;
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine;

  afterEach(async () => {
    await engine?.stop({ graceful: false });
    journal?.close();
    await sandbox?.close();
    await dir?.cleanup();
  });

  it('ends every item saved, failed or unknown with a reason, and never pays twice', async () => {
    dir = await makeTempDir();
    sandbox = await startTestSandbox({
      executionDurationMs: 150, seed: 4242, resultTtlMs: 10_000,
      faults: { serverErrorRate: 0.1, rateLimitRate: 0.05, dropBeforeRate: 0.01, dropAfterRate: 0.01, malformedJsonRate: 0.01 },
    });
    journal = openJournal(join(dir.path, 'state'));
    const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: 5_000, retry: { baseDelayMs: 50, maxDelayMs: 500 } });
    engine = createEngine({ journal, client, concurrency: 8 });
    await engine.start();
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 40);
    const output = join(dir.path, 'out');
    const batch = await engine.createBatch({
      workflowId: 'color-grade', parameters: { texts: { look: 'vivid' } }, inputs: { paths: [input] }, output: { outputFolder: output },
    });
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 120_000 });
    expect(done.state).toBe('completed');

    const items = engine.listItems({ batchId: batch.id, limit: 1000 }).items;
    for (const item of items) {
      expect(['saved', 'failed', 'unknown', 'charged-no-result']).toContain(item.state);
      if (item.state !== 'saved') expect(item.reason, `${item.displayName} ${item.state}`).toBeTruthy();
      else expect(item.outputs).toHaveLength(1);
    }
    const stats = sandbox.stats();
    const withExecution = items.filter((i) => i.executionId !== null).length;
    const unknown = items.filter((i) => i.state === 'unknown').length;
    // Every execution the service created is one the journal knows, or one of the items marked "may have been charged".
    expect(stats.executionsCreated).toBeGreaterThanOrEqual(withExecution);
    expect(stats.executionsCreated).toBeLessThanOrEqual(withExecution + unknown);
    const netCharged = stats.creditsCharged - stats.creditsRefunded;
    expect(netCharged).toBeGreaterThanOrEqual(done.creditsSpent);
    expect(netCharged).toBeLessThanOrEqual(done.creditsSpent + unknown);
    expect(Object.values(stats.faultsInjected).reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
    // Faults cost some items (expired results, lost answers), never most of them.
    const reasons = items.filter((i) => i.state !== 'saved').map((i) => `${i.state}: ${i.reason}`);
    expect(done.counts.saved, reasons.join('\n')).toBeGreaterThanOrEqual(20);
    const files = await readdir(output);
    expect(files.filter(isTempName)).toEqual([]);
    expect(files).toHaveLength(done.counts.saved);
  }, 150_000);
});
