import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HotFolderActivity } from '../../../shared/hotfolders/model';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import { isTempName } from '../../../main/core/images/save';
import { createCoreHotFolders } from '../../../main/core/watch/adapters';
import type { HotFolderManager } from '../../../main/core/watch';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { listFilesDeep, writePhotos } from '../engine/helpers';
import { createMemoryConfigStore, FAST, folderConfig, removeDir, sleep, tempDir, waitFor } from './fakes';

// The manager wired to the real engine and journal, against the in-process sandbox: what the app runs.

let sandbox: RunningSandbox;
let root: string;
let inbox: string;
let out: string;
let open: Array<{ engine: Engine; journal: Journal; manager: HotFolderManager }> = [];

beforeEach(async () => {
  sandbox = await startTestSandbox({ executionDurationMs: 100, credits: 10_000 });
  root = await tempDir('br-watch-sandbox-');
  inbox = join(root, 'in');
  out = join(root, 'out');
  await mkdir(inbox);
});

afterEach(async () => {
  for (const o of open.reverse()) await stop(o);
  open = [];
  await sandbox.close();
  await removeDir(root);
});

async function stop(o: { engine: Engine; journal: Journal; manager: HotFolderManager }) {
  await o.manager.close();
  await o.engine.stop({ graceful: true });
  o.journal.close();
  open = open.filter((x) => x !== o);
}

const configStore = createMemoryConfigStore();

async function startApp(activity: HotFolderActivity[] = []) {
  const journal = openJournal(join(root, 'state'));
  const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const engine = createEngine({ journal, client, concurrency: 4 });
  await engine.start();
  const { manager } = createCoreHotFolders({
    engine, journal, client, stateDir: join(root, 'state'), configStore,
    options: FAST,
    emit: ((channel: string, payload: unknown) => {
      if (channel === 'hotFolders:activity') activity.push(payload as HotFolderActivity);
    }) as never,
  });
  const app = { engine, journal, manager };
  open.push(app);
  return app;
}

const lookParams = { texts: { look: 'warm' } };

describe('hot folders against the sandbox', () => {
  it('processes a burst exactly once, with the output folder nested inside the watched folder', async () => {
    const app = await startApp();
    const nestedOut = join(inbox, 'results');
    await app.manager.save(folderConfig({ path: inbox, outputFolder: nestedOut, workflowId: 'color-grade', parameters: lookParams, recursive: true }));
    const staging = join(root, 'staging');
    await mkdir(staging);
    const photos = await writePhotos(staging, 40);
    await Promise.all(photos.map((p) => rename(p, join(inbox, p.split('/').pop()!))));
    await waitFor(() => app.manager.get('f1').status.processed === 40, 60_000, 'forty results');
    await sleep(1_000);
    expect(sandbox.stats().executionsCreated).toBe(40);
    expect((await readdir(nestedOut)).filter((n) => n.endsWith('.jpg') || n.endsWith('.png'))).toHaveLength(40);
    expect(app.manager.get('f1').status).toMatchObject({ state: 'armed', processed: 40, queued: 0, failed: 0, creditsSpent: 40 });
  });

  it('after a restart lets the engine finish what was in flight instead of submitting it again', { timeout: 90_000 }, async () => {
    sandbox.setFaults({ latencyMs: 0 });
    const first = await startApp();
    await first.manager.save(folderConfig({ path: inbox, outputFolder: out, workflowId: 'color-grade', parameters: lookParams }));
    await writePhotos(inbox, 3);
    // Wait until the journal holds all three execution ids: quitting between the service creating an execution and
    // its id reaching the journal rightly leaves that item `unknown` (never resubmitted), which is another test.
    const journalled = () => first.engine.listBatches()
      .flatMap((b) => first.engine.listItems({ batchId: b.id, limit: 100 }).items)
      .filter((i) => i.executionId !== null).length;
    await waitFor(() => sandbox.stats().executionsCreated === 3 && journalled() === 3, 30_000, 'three executions');
    // Quit at once: the three items are in flight in the journal, no result saved yet.
    await first.manager.close();
    await first.engine.stop({ graceful: false });
    first.journal.close();
    open = open.filter((o) => o !== first);

    const second = await startApp();
    await second.manager.start();
    // Results only: a save interrupted by the quit may leave its temp file until the engine's recovery removes it.
    const results = async () => (await readdir(out).catch(() => [])).filter((n) => !isTempName(n));
    await waitFor(async () => (await results()).length === 3, 60_000, 'three results');
    await sleep(1_000);
    expect(sandbox.stats().executionsCreated).toBe(3);
    const report = await second.manager.dryRun('f1');
    expect(report.toProcess).toEqual([]);
    expect(report.alreadyDone).toHaveLength(3);
  });

  it('after a restart picks up only the files added while closed, and moves originals with suffixes in Done/', async () => {
    const first = await startApp();
    await first.manager.save(folderConfig({ path: inbox, outputFolder: out, workflowId: 'color-grade', parameters: lookParams, moveOriginals: true }));
    await writePhotos(inbox, 3, { prefix: 'IMG' });
    await waitFor(async () => (await readdir(join(inbox, 'Done')).catch(() => [])).length === 3, 30_000, 'three originals moved');
    await stop(first);

    // While closed: one more photo, with a name already in Done/.
    await writePhotos(inbox, 1, { prefix: 'IMG', offset: 500 });
    const second = await startApp();
    await second.manager.start();
    await waitFor(async () => (await readdir(join(inbox, 'Done'))).length === 4, 30_000, 'fourth original moved');
    expect(sandbox.stats().executionsCreated).toBe(4);
    expect((await readdir(join(inbox, 'Done'))).sort()).toEqual(['IMG-000 (2).jpg', 'IMG-000.jpg', 'IMG-001.jpg', 'IMG-002.jpg']);
    expect((await listFilesDeep(out)).filter((p) => !p.endsWith('.json'))).toHaveLength(4);
    await writeFile(join(inbox, 'again.jpg'), await (await import('node:fs/promises')).readFile(join(inbox, 'Done', 'IMG-001.jpg')));
    await sleep(FAST.timings.stabilityThresholdMs * 3 + 500);
    expect(sandbox.stats().executionsCreated).toBe(4);
  });
});
