import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HotFolderActivity } from '../../../shared/hotfolders/model';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { ledgerKey, parametersHash } from '../../../main/core/journal/ledger-key';
import { sha256OfFile } from '../../../main/core/recipes/recipe-files';
import { createRecipeStore } from '../../../main/core/recipes/recipe-store';
import { createServiceClient } from '../../../main/core/service';
import { createCoreHotFolders } from '../../../main/core/watch/adapters';
import { unitHash } from '../../../main/core/watch/folder-unit';
import type { HotFolderManager } from '../../../main/core/watch';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { makeRecipe } from '../../../shared/recipes/recipe';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { createMemoryConfigStore, FAST, folderConfig, removeDir, tempDir, waitFor } from './fakes';

// Issue 32 gap: a recipe with fixed images runs in a hot folder. Each photo is sent with the fixed image (one
// mapping), and the folder's done-ledger key covers both: the same photo is done once per reference, and a new
// reference (the recipe saved again with another image) is a new edit.

let sandbox: RunningSandbox;
let root: string;
let inbox: string;
let out: string;
let stateDir: string;
let open: Array<{ engine: Engine; journal: Journal; manager: HotFolderManager }> = [];

beforeEach(async () => {
  sandbox = await startTestSandbox({ executionDurationMs: 50, credits: 10_000 });
  root = await tempDir('br-watch-fixed-');
  inbox = join(root, 'in');
  out = join(root, 'out');
  stateDir = join(root, 'state');
  await mkdir(inbox);
});

afterEach(async () => {
  for (const o of open.reverse()) {
    await o.manager.close();
    await o.engine.stop({ graceful: true });
    o.journal.close();
  }
  open = [];
  await sandbox.close();
  await removeDir(root);
});

const activity: HotFolderActivity[] = [];

async function startApp() {
  const journal = openJournal(stateDir);
  const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const engine = createEngine({ journal, client, concurrency: 4 });
  await engine.start();
  const { manager } = createCoreHotFolders({ engine, journal, client, stateDir, configStore: createMemoryConfigStore(), options: FAST,
    emit: ((channel: string, payload: unknown) => {
      if (channel === 'hotFolders:activity') activity.push(payload as HotFolderActivity);
    }) as never,
  });
  const app = { engine, journal, manager };
  open.push(app);
  return app;
}

async function saveRecipe(backdrop: string) {
  createRecipeStore(stateDir).save(makeRecipe({
    name: 'Product', workflowId: 'product-backdrop', parameters: {},
    fixedImages: { backdrop: { path: backdrop, sha256: await sha256OfFile(backdrop) } },
  }), { replace: true });
}

describe('a hot folder with a fixed-image recipe', { timeout: 90_000 }, () => {
  it('sends each photo with the fixed image, once; its ledger key covers both; another reference is a new edit', async () => {
    const refs = join(root, 'refs');
    await mkdir(refs);
    const [backdrop, other] = await writePhotos(refs, 2, { prefix: 'bd' });
    await saveRecipe(backdrop!);
    const app = await startApp();
    await app.manager.save(folderConfig({ path: inbox, outputFolder: out, recipe: 'Product', enabled: true }));
    const staging = join(root, 'staging');
    await mkdir(staging);
    const [photo] = await writePhotos(staging, 1);
    const target = join(inbox, 'p.jpg');
    await writeFile(target, await readFile(photo!));
    await waitFor(() => app.manager.get('f1').status.processed === 1, 30_000, 'the photo');
    expect(sandbox.stats().executionsCreated).toBe(1);
    expect((await readdir(out)).filter((n) => n.endsWith('.jpg') || n.endsWith('.png'))).toHaveLength(1);
    // The engine's item: a mapping of the photo and the backdrop, its hash the folder's unit hash.
    const batch = app.journal.listBatches().find((b) => b.spec.source.kind === 'hotFolder')!;
    const [item] = app.journal.listItems({ batchId: batch.id }).items;
    expect(item!.sources).toEqual({ product: target, backdrop });
    const photoHash = await sha256OfFile(target);
    const unit = unitHash(photoHash, { photoField: 'product', hashes: { backdrop: await sha256OfFile(backdrop!) } });
    expect(item!.contentHash).toBe(unit);
    expect(app.journal.ledgerGet(ledgerKey(unit, 'product-backdrop', parametersHash({})))?.outcome).toBe('saved');

    // The same photo again under another name: the same photo with the same reference, done: nothing sent.
    await writeFile(join(inbox, 'q.jpg'), await readFile(photo!));
    await waitFor(() => activity.some((a) => a.path.endsWith('q.jpg') && a.kind === 'skipped'), 30_000, 'q.jpg skipped as done');
    expect(sandbox.stats().executionsCreated).toBe(1);

    // The recipe saved with another backdrop: the same photo is a new edit, sent once with the new reference.
    await saveRecipe(other!);
    await writeFile(join(inbox, 'r.jpg'), await readFile(photo!));
    await waitFor(() => sandbox.stats().executionsCreated === 2, 30_000, 'the photo with the new backdrop');
    await waitFor(() => app.manager.get('f1').status.processed === 2, 30_000, 'its result');
    const last = app.journal.listBatches().filter((b) => b.spec.source.kind === 'hotFolder').at(-1)!;
    expect(app.journal.listItems({ batchId: last.id }).items[0]!.sources).toEqual({ product: join(inbox, 'r.jpg'), backdrop: other });
  });
});
