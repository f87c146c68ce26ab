import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, writePhotos, type TempDir } from '../engine/helpers';

// Review of 28a31de: the execution id is committed at synchronous=NORMAL and then journal.whenDurable() is awaited
// inside the same try as recordAccepted. When that fsync is refused (EIO, ENOSPC on a thin/NFS volume) the error
// goes to onSubmitError, which writes `refused` (submitting → failed) on an item that is already `submitted`
// (charged): an illegal move — the item is parked with an attention sentence, the follower has forgotten it, and its
// paid result is not fetched in this run. The photo was charged; a failed fsync must not turn into a refusal.

describe('the execution id\'s fsync fails after the service charged', () => {
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

  it('never moves a charged item by `refused`, and still saves its result', async () => {
    process.env.BATCHROOM_STRICT_TRANSITIONS = '0'; // production behaviour: park and go on (the assertion below looks)
    try {
      dir = await makeTempDir();
      sandbox = await startTestSandbox({ executionDurationMs: 50, credits: 1000 });
      journal = openJournal(join(dir.path, 'state'));
      const real = journal;
      let calls = 0;
      // Call 1 = `submitting` before the POST, call 2 = the execution id after it: refuse that one.
      const gated: Journal = {
        ...real,
        whenDurable: () => {
          calls += 1;
          if (calls === 2) return Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
          return real.whenDurable();
        },
      };
      engine = createEngine({ journal: gated, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), concurrency: 1 });
      await engine.start();
      const input = join(dir.path, 'in');
      await mkdir(input, { recursive: true });
      await writePhotos(input, 1);
      const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } };
      const { id } = await engine.createBatch(spec);
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const states = real.itemsInStates(id, ['saved', 'failed', 'charged-no-result', 'unknown']);
        if (states.length > 0) break;
        const parked = real.itemsInStates(id, ['submitted', 'running', 'downloading']).filter((i) => i.attention);
        if (parked.length > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(sandbox.stats().executionsCreated).toBe(1);
      const all = real.itemsInStates(id, ['pending', 'encoding', 'submitting', 'submitted', 'running', 'downloading', 'saved', 'failed', 'unknown', 'charged-no-result', 'cancelled', 'skipped']);
      expect(all).toHaveLength(1);
      const item = all[0]!;
      expect(item.attention).toBeNull();
      expect(item.state).toBe('saved');
    } finally {
      delete process.env.BATCHROOM_STRICT_TRANSITIONS;
    }
  }, 60_000);
  it('a refused fsync before the POST sends nothing and does not fail the photo for good', async () => {
    dir = await makeTempDir();
    sandbox = await startTestSandbox({ executionDurationMs: 50, credits: 1000 });
    journal = openJournal(join(dir.path, 'state'));
    const real = journal;
    let calls = 0;
    const gated: Journal = {
      ...real,
      whenDurable: () => {
        calls += 1;
        if (calls === 1) return Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
        return real.whenDurable();
      },
    };
    engine = createEngine({ journal: gated, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), concurrency: 1 });
    await engine.start();
    const input = join(dir.path, 'in');
    await mkdir(input, { recursive: true });
    await writePhotos(input, 1);
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } };
    const { id } = await engine.createBatch(spec);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && calls < 1) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    // The photo was never sent: it must not end `failed` ("the service refused it for good: nothing was charged")
    // with an fsync error, unseen, in a hot folder nobody watches; it waits (pending / the batch paused) instead.
    const failed = real.itemsInStates(id, ['failed']);
    expect(failed.map((i) => i.reason)).toEqual([]);
    // Put back, not lost: once the disk answers again it is sent once and saved.
    const until = Date.now() + 30_000;
    while (Date.now() < until && real.itemsInStates(id, ['saved']).length === 0) await new Promise((r) => setTimeout(r, 100));
    expect(real.itemsInStates(id, ['saved'])).toHaveLength(1);
    expect(sandbox.stats().executionsCreated).toBe(1);
  }, 60_000);
});
