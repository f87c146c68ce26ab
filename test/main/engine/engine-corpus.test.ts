import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { buildCorpus, canMakeReadOnly, makeReadOnly, type CorpusEntry } from './corpus';
import { makeTempDir, tempFilesIn, waitForBatch } from './helpers';
import { swallowHeifParseNoise } from '../../helpers/decoder-noise';

// The read-only-folder case needs a way to stop root from writing (chattr +i): without it that one case is left out.
const readOnlyCase = canMakeReadOnly();

describe('bad-input corpus', () => {
  let sandbox: RunningSandbox;
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine;
  let unlock: () => Promise<void> = async () => undefined;
  // The corpus holds a truncated HEIC on purpose: libheif's parse-error line stays out of the output.
  let restoreLog: () => number = () => 0;

  beforeAll(async () => {
    restoreLog = swallowHeifParseNoise();
    dir = await makeTempDir();
    sandbox = await startTestSandbox({ executionDurationMs: 80 });
    journal = openJournal(join(dir.path, 'state'));
    engine = createEngine({ journal, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), concurrency: 8 });
    await engine.start();
  });

  afterAll(async () => {
    restoreLog();
    await unlock();
    await engine.stop({ graceful: false });
    journal.close();
    await sandbox.close();
    await dir.cleanup();
  });

  it('gives every bad file its own reason and carries on with the rest', async () => {
    const input = join(dir.path, 'corpus');
    await mkdir(input);
    const corpus: CorpusEntry[] = await buildCorpus(input, { readOnlyCase });
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    const output = join(dir.path, 'out');
    if (readOnlyCase) {
      await mkdir(join(output, 'locked'), { recursive: true });
      unlock = await makeReadOnly(join(output, 'locked'));
    }

    const batch = await engine.createBatch({
      workflowId: 'color-grade', parameters: { texts: { look: 'sepia' } }, inputs: { paths: [input], recursive: true }, output: { outputFolder: output },
    });
    if (readOnlyCase) {
      // The locked folder refuses its paid result: the batch pauses for it (never a failed item), the result waits.
      const paused = await waitForBatch(engine, batch.id, { timeoutMs: 90_000, states: ['paused'] });
      expect(paused.pauseCode).toBe('output-unwritable');
      expect(paused.pausedReason).toMatch(/No permission to write in .*locked/);
      const waiting = engine.listItems({ batchId: batch.id, limit: 1000 }).items.find((i) => i.displayName.includes('cannot-save'))!;
      expect(waiting.state).toBe('downloading');
      expect(waiting.reason).toMatch(/paid, not saved yet/);
      await unlock();
      unlock = async () => undefined;
      // Nobody presses Resume: the engine's own look at the folder finds it writable and carries on.
    }
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 90_000 });
    expect(done.state).toBe('completed');
    const items = engine.listItems({ batchId: batch.id, limit: 1000 }).items;
    const byFile = new Map(items.map((i) => [relative(input, Object.values(i.sources)[0]!), i]));
    const problems: string[] = [];
    for (const entry of corpus) {
      const item = byFile.get(entry.file);
      if (!item) { problems.push(`${entry.file}: no item`); continue; }
      if (item.state !== entry.expect.outcome) { problems.push(`${entry.file}: ${item.state} (${item.reason ?? ''}), expected ${entry.expect.outcome}`); continue; }
      if (entry.expect.outcome !== 'saved' && !entry.expect.reason.test(item.reason ?? '')) problems.push(`${entry.file}: reason "${item.reason}"`);
    }
    expect(problems).toEqual([]);
    const expectedSaved = corpus.filter((e) => e.expect.outcome === 'saved').length;
    expect(done.counts.saved).toBe(expectedSaved);
    // Nothing that failed locally was sent (and charged).
    // The read-only item was paid once and saved once it could be: no second execution.
    expect(sandbox.stats().executionsCreated).toBe(expectedSaved);
    expect(await tempFilesIn(output)).toEqual([]);
  });
});
