import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, waitForBatch, writePhotos, type TempDir } from './helpers';

// The paid-once order with the fsyncs off the event loop (journal/durable-sync.ts): `submitting` is journalled and
// then the engine awaits journal.whenDurable() before the request leaves; the execution id is journalled and awaited
// the same way before anything more is done for the item. Here the disk's fsync is held back by hand (the real
// journal, the real sandbox): while it is held nothing may reach the service.

describe('submit waits for the journal to be on disk', () => {
  let sandbox: RunningSandbox | null = null;
  let dir: TempDir | null = null;
  let journal: Journal | null = null;
  let engine: Engine | null = null;
  afterEach(async () => {
    await engine?.stop({ graceful: false });
    journal?.close();
    await sandbox?.close();
    await dir?.cleanup();
    engine = null; journal = null; sandbox = null; dir = null;
  });

  it('sends nothing while `submitting` is not yet durable, then sends each photo once', async () => {
    dir = await makeTempDir();
    sandbox = await startTestSandbox({ executionDurationMs: 50, credits: 1000 });
    journal = openJournal(join(dir.path, 'state'));
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    let waits = 0;
    const real = journal;
    const gated: Journal = { ...real, whenDurable: () => { waits += 1; return held.then(() => real.whenDurable()); } };
    engine = createEngine({ journal: gated, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), concurrency: 3 });
    await engine.start();
    const input = join(dir.path, 'in');
    await mkdir(input, { recursive: true });
    await writePhotos(input, 3);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } };
    const { id } = await engine.createBatch(spec);
    const deadline = Date.now() + 20_000;
    while (real.itemsInStates(id, ['submitting']).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(real.itemsInStates(id, ['submitting'])).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 300)); // time enough for a request that did not wait to arrive
    expect(waits).toBeGreaterThanOrEqual(3);
    expect(sandbox.stats().executionsCreated).toBe(0);
    release();
    const batch = await waitForBatch(engine, id, { timeoutMs: 30_000 });
    expect(batch.counts.saved).toBe(3);
    expect(sandbox.stats().executionsCreated).toBe(3);
    // After the submit: the execution id's wait and the final name's wait, one each per photo.
    expect(waits).toBeGreaterThanOrEqual(9);
  }, 60_000);
});
