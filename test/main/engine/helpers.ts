import Database from 'libsql';
import type { Journal } from '../../../main/core/journal';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { BatchSummary, ItemState } from '../../../shared/engine/model';
import type { Engine } from '../../../main/core/engine/engine';
import { isTempName } from '../../../main/core/images/save';

export async function makeTempDir(prefix = 'batchroom-engine-'): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Small distinct JPEGs (distinct content so duplicates detection does not merge them). */
export async function writePhotos(folder: string, count: number, { width = 96, height = 64, prefix = 'photo', offset = 0 } = {}): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const k = i + offset;
    const colour = { r: (k * 37) % 256, g: (k * 91) % 256, b: (k * 53 + 17) % 256 };
    const bytes = await sharp({ create: { width, height, channels: 3, background: colour } }).jpeg({ quality: 80 }).toBuffer();
    const path = join(folder, `${prefix}-${String(i).padStart(3, '0')}.jpg`);
    await writeFile(path, bytes);
    paths.push(path);
  }
  return paths;
}

/** Resolves once the batch reaches a state in `states` (default completed/cancelled). */
export async function waitForBatch(engine: Engine, batchId: string, { timeoutMs = 60_000, states = ['completed', 'cancelled'] } = {}): Promise<BatchSummary> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = engine.getBatch(batchId);
    if (states.includes(batch.state) && !engine.busy()) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${batchId} still ${batch.state} after ${timeoutMs} ms: ${JSON.stringify(batch.counts)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every file under a folder, recursively (relative paths). */
export async function listFilesDeep(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

export async function tempFilesIn(folder: string): Promise<string[]> {
  return (await listFilesDeep(folder)).filter((p) => isTempName(p.split(/[\\/]/).pop()!));
}

/**
 * Sets an item's state behind the state machine's back, through a second connection: only for setting up a state
 * the engine reaches by a path a test cannot easily provoke (a saved result lost on disk). Everything else walks
 * the table with journal.updateItem({ event }).
 */
export function forceState(journal: Journal, itemId: string, state: ItemState): void {
  const db = new Database(journal.path);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare('UPDATE items SET state = ? WHERE id = ?').run(state, itemId);
  } finally {
    db.close();
  }
}
