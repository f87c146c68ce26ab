import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, type SubmitHooks } from '../../../main/core/engine';
import { AppError } from '../../../shared/errors';
import type { ItemRecord } from '../../../main/core/journal/types';
import { createFakeClient } from './fake-client';
import { until } from '../../helpers/until';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// The studio's last word before a result's final name (SubmitHooks.beforePlace, studio/submit-hooks.ts): a photo
// another instance took over while this one was paused is left to it — nothing written here, nothing sent again —
// and a ledger that cannot tell holds the save (the result kept) instead of writing what may be a second copy,
// without holding a download slot meanwhile.

type Verdict = Awaited<ReturnType<NonNullable<SubmitHooks['beforePlace']>>>;

type BeforePlace = (item: ItemRecord) => Promise<Verdict>;

function hooks(beforePlace: BeforePlace): SubmitHooks {
  return { beforeSubmit: async () => undefined, accepted: async () => undefined, beforePlace };
}

const filesIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((name) => !name.startsWith('.')) : []);

describe('the studio\'s check before a result is written', () => {
  const bed = useEngineTestBed();
  const client = createFakeClient({ durationMs: 0 });
  const out = () => join(bed.dir.path, 'out');

  /** `photos` in the input folder, an engine whose hooks answer with `beforePlace`, started, and a batch of them. */
  async function batchWith(photos: number, beforePlace: BeforePlace, downloadConcurrency?: number) {
    await writePhotos(bed.input, photos);
    const engine = bed.setEngine(createEngine({
      journal: bed.journal, client, concurrency: photos, balanceEvidence: false, submitHooks: hooks(beforePlace), ...(downloadConcurrency ? { downloadConcurrency } : {}),
    }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: out() } });
    return { engine, batchId: batch.id };
  }

  it('leaves a photo another instance owns now to it: skipped with the ledger\'s reason, no file, no new execution', async () => {
    let asked = 0;
    const reason = 'not saved here: the instance on studio-2 took this photo over while this machine was paused past its studio lease';
    const executed = client.executeCalls();
    const { engine, batchId } = await batchWith(2, async () => { asked++; return { ours: false, reason }; });
    const done = await waitForBatch(engine, batchId, { timeoutMs: 20_000 });
    expect(done.counts).toMatchObject({ skipped: 2 });
    expect(done.counts.saved ?? 0).toBe(0);
    expect(asked).toBe(2);
    expect(client.executeCalls() - executed).toBe(2);
    expect(filesIn(out())).toEqual([]);
    for (const item of bed.journal.listItems({ batchId }).items) expect(item).toMatchObject({ state: 'skipped', reason, outputs: [] });
  });

  it('holds the save while the ledger cannot tell, then writes it once', async () => {
    let asked = 0;
    const executed = client.executeCalls();
    const { engine, batchId } = await batchWith(1, async () => {
      asked++;
      if (asked < 3) throw new AppError('unavailable', 'studio ledger unreachable');
      return { ours: true };
    });
    await until(() => asked >= 1, 'the first ask');
    // Waiting: the result is paid and downloaded, nothing is written meanwhile.
    expect(bed.journal.listItems({ batchId }).items[0]!.state).toBe('downloading');
    expect(filesIn(out())).toEqual([]);
    const done = await waitForBatch(engine, batchId, { timeoutMs: 20_000 });
    expect(done.counts.saved).toBe(1);
    expect(asked).toBe(3);
    expect(filesIn(out())).toHaveLength(1);
    expect(client.executeCalls() - executed).toBe(1);
  });

  it('holds an undecided save outside the download slots: the other results are saved meanwhile', async () => {
    let first: string | null = null;
    let asked = 0;
    const { engine, batchId } = await batchWith(3, async (item) => {
      first ??= item.id;
      if (item.id !== first) return { ours: true };
      asked++;
      throw new AppError('unavailable', 'studio ledger unreachable');
    }, 1);
    // One download slot: were the undecided photo waiting inside it, nothing else would be saved.
    await until(() => bed.journal.listItems({ batchId }).items.filter((i) => i.state === 'saved').length === 2, 'the two others saved');
    expect(bed.journal.listItems({ batchId }).items.find((i) => i.id === first)!.state).toBe('downloading');
    expect(filesIn(out())).toHaveLength(2);
    await until(() => asked >= 2, 'asked again after its back-off');
    expect(engine.getBatch(batchId).counts.saved).toBe(2);
  });

  it('gives up the wait at a stop (the item stays downloading), and the next start writes the result without a new execution', async () => {
    let asked = 0;
    const executed = client.executeCalls();
    const { batchId } = await batchWith(1, async () => { asked++; throw new AppError('unavailable', 'studio ledger unreachable'); });
    await until(() => asked >= 1, 'the first ask');
    await bed.stopEngine();
    expect(bed.journal.listItems({ batchId }).items[0]!.state).toBe('downloading');
    expect(filesIn(out())).toEqual([]);

    const again = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1, balanceEvidence: false, submitHooks: hooks(async () => ({ ours: true })) }));
    await again.start();
    const done = await waitForBatch(again, batchId, { timeoutMs: 20_000 });
    expect(done.counts.saved).toBe(1);
    expect(filesIn(out())).toHaveLength(1);
    expect(client.executeCalls() - executed).toBe(1);
  });
});
