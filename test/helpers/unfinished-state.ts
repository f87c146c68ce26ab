import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createEngine } from '../../main/core/engine';
import { openJournal } from '../../main/core/journal';
import { silentLogger } from '../../main/core/log';
import { createServiceClient } from '../../main/core/service';
import { openSettingsStore } from '../../main/core/settings';
import type { ItemState } from '../../shared/engine/model';
import { HotFolderConfigSchema } from '../../shared/hotfolders/model';
import { writePhotos } from '../main/engine/helpers';

// A state dir as a crash or a Ctrl-C leaves it, for tests of what a start does (and does not do) with it.

export interface UnfinishedState {
  /** A photo waiting in a running batch: sent as soon as an engine schedules. */
  pendingId: string;
  /** A photo cut off while it was encoded: recovery puts it back to pending (nothing was sent). */
  encodingId: string;
}

/**
 * Journals one running batch of two photos under `root` (one pending, one encoding) through an engine that never
 * starts, so nothing is sent, and adds an enabled hot folder holding `hotPhotos` photos that no scan has seen.
 */
export async function seedUnfinishedState(stateDir: string, root: string, service: { url: string; apiKey: string }, hotPhotos = 1): Promise<UnfinishedState> {
  const photos = join(root, 'photos');
  const hot = join(root, 'hot');
  await mkdir(photos, { recursive: true });
  await mkdir(hot, { recursive: true });
  await writePhotos(photos, 2);
  await writePhotos(hot, hotPhotos, { prefix: 'hot', offset: 7 });
  const journal = openJournal(stateDir);
  try {
    const client = createServiceClient({ baseUrl: service.url, apiKey: service.apiKey, logger: silentLogger });
    const engine = createEngine({ journal, client, logger: silentLogger, concurrency: 1 });
    const batch = await engine.createBatch({ workflowId: 'auto-enhance', inputs: { paths: [photos] }, output: { outputFolder: join(root, 'out') } });
    await engine.stop({ graceful: false });
    const [pending, encoding] = journal.listItems({ batchId: batch.id }).items;
    journal.updateItem(encoding!.id, { event: 'encode' });
    openSettingsStore({ stateDir }).update({
      hotFolders: [HotFolderConfigSchema.parse({ id: 'hf', path: hot, workflowId: 'auto-enhance', outputFolder: join(root, 'hot-out'), enabled: true })],
    });
    return { pendingId: pending!.id, encodingId: encoding!.id };
  } finally {
    journal.close();
  }
}

/** The seeded items' states on disk, and how many batches the hot folder has journalled. */
export function unfinishedStateNow(stateDir: string, seeded: UnfinishedState): { pending?: ItemState; encoding?: ItemState; hotFolderBatches: number } {
  const journal = openJournal(stateDir);
  try {
    return {
      pending: journal.getItem(seeded.pendingId)?.state,
      encoding: journal.getItem(seeded.encodingId)?.state,
      hotFolderBatches: journal.listBatches().filter((b) => b.spec.source?.kind === 'hotFolder').length,
    };
  } finally {
    journal.close();
  }
}
