import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HotFolderActivity } from '../../../shared/hotfolders/model';
import { createEngine } from '../../../main/core/engine';
import { openJournal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import { createCoreHotFolders } from '../../../main/core/watch/adapters';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { buildDng, previewJpeg } from '../images/dng-kit';
import { createMemoryConfigStore, FAST, folderConfig, removeDir, sleep, tempDir, waitFor } from './fakes';

// A camera or a card copy writes IMG_1.CR3 and IMG_1.JPG a moment apart. With RAW+JPEG pairs edited from the JPEG
// (the default), the RAW that lands first must wait for its JPEG, not be edited (and paid for) on its own.

let sandbox: RunningSandbox;
let root: string;
const stops: Array<() => Promise<void>> = [];

beforeEach(async () => {
  sandbox = await startTestSandbox({ executionDurationMs: 100, credits: 10_000 });
  root = await tempDir('br-raw-arrival-');
});

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await sandbox.close();
  await removeDir(root);
});

async function watchFolder(rawPairWaitMs: number, activity: HotFolderActivity[]) {
  const state = join(root, `state-${rawPairWaitMs}`);
  const journal = openJournal(state);
  const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const engine = createEngine({ journal, client, concurrency: 4 });
  await engine.start();
  const { manager } = createCoreHotFolders({
    engine, journal, client, stateDir: state, configStore: createMemoryConfigStore(), options: { ...FAST, rawPairWaitMs },
    emit: ((channel: string, payload: unknown) => { if (channel === 'hotFolders:activity') activity.push(payload as HotFolderActivity); }) as never,
  });
  stops.push(async () => {
    await manager.close();
    await engine.stop({ graceful: true });
    journal.close();
  });
  const inbox = join(root, `in-${rawPairWaitMs}`);
  await mkdir(inbox);
  await manager.save(folderConfig({ path: inbox, outputFolder: join(root, `out-${rawPairWaitMs}`), workflowId: 'upscale', rawPairs: 'jpeg' }));
  return { manager, inbox };
}

async function cameraWrites(inbox: string): Promise<void> {
  const preview = await previewJpeg(1600, 1067);
  await writeFile(join(inbox, 'IMG_0001.CR3'), buildDng({ previews: [preview] }));
  // Later than the RAW alone would be taken (unproven formats wait out the full window): without the pair wait it
  // would be edited on its own.
  await sleep(FAST.timings.unprovenStableMs + 700);
  await sharp(preview).jpeg().toFile(join(inbox, 'IMG_0001.JPG'));
}

describe('a RAW that arrives before its JPEG', () => {
  it('waits for it and the photo is edited once, from the JPEG', { timeout: 60_000 }, async () => {
    const activity: HotFolderActivity[] = [];
    const { manager, inbox } = await watchFolder(2_000, activity);
    await cameraWrites(inbox);
    await waitFor(() => manager.get('f1').status.processed === 1, 20_000, 'the JPEG saved');
    await sleep(3_000); // past the RAW's wait: it is looked at and left out as the pair's other half
    expect(sandbox.stats().executionsCreated).toBe(1);
    expect(activity.filter((a) => a.kind === 'saved').map((a) => a.path.split('/').pop())).toEqual(['IMG_0001.JPG']);
  });

  it('without the wait the RAW would be edited on its own too (the test can fail)', { timeout: 60_000 }, async () => {
    const { manager, inbox } = await watchFolder(0, []);
    await cameraWrites(inbox);
    await waitFor(() => manager.get('f1').status.processed === 2, 20_000, 'both halves saved');
    expect(sandbox.stats().executionsCreated).toBe(2);
  });
});
