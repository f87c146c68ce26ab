import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, type SubmitHooks } from '../../../main/core/engine';
import { AppError } from '../../../shared/errors';
import { createFakeClient } from './fake-client';
import { until } from '../../helpers/until';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// The studio's last word before a result's final name (SubmitHooks.beforePlace, studio/submit-hooks.ts): a photo
// another instance took over while this one was paused is left to it — nothing written here, nothing sent again —
// and a ledger that cannot tell holds the save (the result kept) instead of writing what may be a second copy.

type Verdict = Awaited<ReturnType<NonNullable<SubmitHooks['beforePlace']>>>;

function hooks(beforePlace: () => Promise<Verdict>): SubmitHooks {
  return { beforeSubmit: async () => undefined, accepted: async () => undefined, beforePlace };
}

const filesIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((name) => !name.startsWith('.')) : []);

describe('the studio\'s check before a result is written', () => {
  const bed = useEngineTestBed();

  it('leaves a photo another instance owns now to it: skipped with the ledger\'s reason, no file, no new execution', async () => {
    const client = createFakeClient({ durationMs: 0 });
    const out = join(bed.dir.path, 'out');
    await writePhotos(bed.input, 2);
    let asked = 0;
    const reason = 'not saved here: the instance on studio-2 took this photo over while this machine was paused past its studio lease';
    const engine = bed.setEngine(createEngine({
      journal: bed.journal, client, concurrency: 2, balanceEvidence: false,
      submitHooks: hooks(async () => { asked++; return { ours: false, reason }; }),
    }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 20_000 });
    expect(done.counts).toMatchObject({ skipped: 2 });
    expect(done.counts.saved ?? 0).toBe(0);
    expect(asked).toBe(2);
    expect(client.executeCalls()).toBe(2);
    expect(filesIn(out)).toEqual([]);
    for (const item of bed.journal.listItems({ batchId: batch.id }).items) expect(item).toMatchObject({ state: 'skipped', reason, outputs: [] });
  });

  it('holds the save while the ledger cannot tell, then writes it once', async () => {
    const client = createFakeClient({ durationMs: 0 });
    const out = join(bed.dir.path, 'out');
    await writePhotos(bed.input, 1);
    let asked = 0;
    const engine = bed.setEngine(createEngine({
      journal: bed.journal, client, concurrency: 1, balanceEvidence: false,
      submitHooks: hooks(async () => {
        asked++;
        if (asked < 3) throw new AppError('unavailable', 'studio ledger unreachable');
        return { ours: true };
      }),
    }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    await until(() => asked >= 1, 'the first ask');
    // Waiting: the result is paid and downloaded, nothing is written meanwhile.
    expect(bed.journal.listItems({ batchId: batch.id }).items[0]!.state).toBe('downloading');
    expect(filesIn(out)).toEqual([]);
    const done = await waitForBatch(engine, batch.id, { timeoutMs: 20_000 });
    expect(done.counts.saved).toBe(1);
    expect(asked).toBe(3);
    expect(filesIn(out)).toHaveLength(1);
    expect(client.executeCalls()).toBe(1);
  });

  it('gives up the wait at a stop (the item stays downloading), and the next start writes the result without a new execution', async () => {
    const client = createFakeClient({ durationMs: 0 });
    const out = join(bed.dir.path, 'out');
    await writePhotos(bed.input, 1);
    let asked = 0;
    const engine = bed.setEngine(createEngine({
      journal: bed.journal, client, concurrency: 1, balanceEvidence: false,
      submitHooks: hooks(async () => { asked++; throw new AppError('unavailable', 'studio ledger unreachable'); }),
    }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out } });
    await until(() => asked >= 1, 'the first ask');
    await bed.stopEngine();
    expect(bed.journal.listItems({ batchId: batch.id }).items[0]!.state).toBe('downloading');
    expect(filesIn(out)).toEqual([]);

    const again = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false, submitHooks: hooks(async () => ({ ours: true })) }));
    await again.start();
    const done = await waitForBatch(again, batch.id, { timeoutMs: 20_000 });
    expect(done.counts.saved).toBe(1);
    expect(filesIn(out)).toHaveLength(1);
    expect(client.executeCalls()).toBe(1);
  });
});
