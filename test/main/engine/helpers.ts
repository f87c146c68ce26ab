import Database from 'libsql';
import { afterEach, beforeEach, vi } from 'vitest';
import { RequestGate } from '../../../main/core/engine/limiter';
import { openJournal, type Journal } from '../../../main/core/journal';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { BatchSummary, ItemState } from '../../../shared/engine/model';
import type { Engine } from '../../../main/core/engine/engine';
import { isTempName } from '../../../main/core/images/save';

export interface TempDir {
  path: string;
  cleanup: () => Promise<void>;
}

export async function makeTempDir(prefix = 'batchroom-engine-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** What useEngineTestBed gives each test. Its fields hold inside a test (and hooks registered after it), not at collection. */
export interface EngineTestBed {
  /** A fresh temp folder, removed after the test. */
  readonly dir: TempDir;
  /** The journal in <dir>/state, closed after the test; a test that reopens it puts the new one here. */
  journal: Journal;
  /** <dir>/in, empty. */
  readonly input: string;
  /** The test's engine, stopped (not gracefully) after the test; a test that stops it itself sets this to undefined. */
  engine: Engine | undefined;
  /** Sets `engine` and returns it. */
  setEngine(engine: Engine): Engine;
  /**
   * Stops `engine` (not gracefully) and forgets it: the first thing afterEach does. A file whose own teardown must
   * come after the engine stops (and before the journal closes) calls it in its own afterEach, which runs first.
   */
  stopEngine(): Promise<void>;
}

/**
 * Registers beforeEach/afterEach for an engine test in the current describe: a temp folder, a journal in it and an
 * input folder before each test; the engine stopped, the journal closed and the folder removed after it.
 */
export function useEngineTestBed(): EngineTestBed {
  let current: { dir: TempDir; journal: Journal; input: string } | undefined;
  const inTest = () => {
    if (!current) throw new Error('the engine test bed is set up only while a test runs');
    return current;
  };
  const bed: EngineTestBed = {
    get dir() { return inTest().dir; },
    get journal() { return inTest().journal; },
    set journal(journal: Journal) { inTest().journal = journal; },
    get input() { return inTest().input; },
    engine: undefined,
    setEngine(engine) {
      bed.engine = engine;
      return engine;
    },
    async stopEngine() {
      await bed.engine?.stop({ graceful: false });
      bed.engine = undefined;
    },
  };
  beforeEach(async () => {
    const dir = await makeTempDir();
    current = { dir, journal: openJournal(join(dir.path, 'state')), input: join(dir.path, 'in') };
    await mkdir(current.input);
  });
  afterEach(async () => {
    await bed.stopEngine();
    if (!current) return; // beforeEach failed, and said why
    current.journal.close();
    await current.dir.cleanup();
    current = undefined;
  });
  return bed;
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

/**
 * Every RequestGate that asks for a turn, in order (the engine's own is the first), so a test can make it back off
 * as a 429 or 5xx would. Restore with vi.restoreAllMocks().
 */
export function captureGates(): RequestGate[] {
  const gates: RequestGate[] = [];
  const acquire = RequestGate.prototype.acquire;
  vi.spyOn(RequestGate.prototype, 'acquire').mockImplementation(function (this: RequestGate, signal?: AbortSignal) {
    if (!gates.includes(this)) gates.push(this);
    return acquire.call(this, signal);
  });
  return gates;
}
