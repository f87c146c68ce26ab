import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchProgressEvent } from '../../../shared/engine/model';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, waitForBatch, writePhotos } from './helpers';

// The service stops answering mid-batch (connections refused, its state kept): the engine must say so within 10 s
// (batch paused with pausedReason "service-unreachable", the engine's next try time in progress events) and carry on
// by itself once the service answers again, with every photo saved and nothing executed twice.

describe('engine through a service outage', () => {
  let sandbox: RunningSandbox;
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine;

  beforeEach(async () => {
    dir = await makeTempDir();
  });

  afterEach(async () => {
    await engine?.stop({ graceful: false });
    journal?.close();
    await sandbox?.close();
    await dir.cleanup();
  });

  it('pauses as service-unreachable within 10 s and resumes without user action when the service is back', async () => {
    sandbox = await startTestSandbox({ executionDurationMs: 400 });
    journal = openJournal(join(dir.path, 'state'));
    const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    engine = createEngine({ journal, client, concurrency: 3 });
    await engine.start();
    const input = join(dir.path, 'in');
    await (await import('node:fs/promises')).mkdir(input);
    await writePhotos(input, 20);
    const events: { at: number; event: BatchProgressEvent }[] = [];
    engine.onProgress((event) => events.push({ at: Date.now(), event }));
    const batch = await engine.createBatch({
      workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') },
    });
    // Mid-batch: some saved, some waiting.
    const deadline = Date.now() + 30_000;
    while (engine.getBatch(batch.id).counts.saved < 3) {
      if (Date.now() > deadline) throw new Error('batch did not start');
      await new Promise((r) => setTimeout(r, 20));
    }
    const outageAt = Date.now();
    sandbox.setOutage(6_000);

    let pausedAt = 0;
    while (pausedAt === 0) {
      const current = engine.getBatch(batch.id);
      if (current.pausedReason === 'service-unreachable') pausedAt = Date.now();
      else if (Date.now() - outageAt > 10_000) throw new Error(`not reported unreachable within 10 s: ${JSON.stringify(current)}`);
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(engine.getBatch(batch.id).state).toBe('paused');
    const unreachable = engine.reachability();
    expect(unreachable.reachable).toBe(false);
    expect(unreachable.nextTryAt).toBeGreaterThan(outageAt);

    const done = await waitForBatch(engine, batch.id, { timeoutMs: 60_000, states: ['completed'] });
    expect(done.counts.saved).toBe(20);
    expect(done.pausedReason).toBeNull();
    expect(engine.reachability().reachable).toBe(true);
    // Nothing executed twice, nothing charged twice.
    expect(sandbox.stats().executionsCreated).toBe(20);
    expect(done.creditsSpent).toBe(20);
    // The progress events carried the state: unreachable with a next try time, then reachable again.
    const states = events.map(({ event }) => event.engine?.unreachable ?? null);
    expect(states.some((s) => s !== null && s.nextTryAt !== null)).toBe(true);
    expect(states.at(-1) ?? null).toBeNull();
  }, 90_000);
});
