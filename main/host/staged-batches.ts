import { appendFile, readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { MakeReviewCopy } from './review-copy';
import type { Handlers } from '../../shared/ipc/contract';
import type { BatchSummary } from '../../shared/engine/model';
import { AppError } from '../../shared/errors';
import { batchItems } from './downloads';

// Photos added in the browser (Choose…, a drop) are copies staged under `<state dir>/uploads/<random>/`. Their
// results must not land next to those copies — a `Batchroom/` folder inside the state dir, reachable only one
// Download at a time — so a batch of them needs an output folder (the form's, or the default in Settings). Once their
// batch has completed (not cancelled: Resume sends them again, and results already at the service still arrive; not
// a try-first batch with photos to continue with) each full copy is replaced by a screen-size review copy
// (review-copy.ts) — Review's "before" still shows — or removed when none can be made. A review copy is never sent:
// a batch or a re-run naming one is refused (refuseReviewCopies), so nobody pays for an edit of a screen-size copy.
// At start every staged folder no unfinished batch uses and untouched for a day is removed (a page that survived a
// restart still holds its draft's uploads; a try's untried photos wait for Continue).

const STAGED_FOLDER = /^[0-9a-f]{16}$/;
/** In a staged folder: the names of its files that are review copies now (one per line). */
const REVIEW_COPIES = '.review-copies';
/** A staged folder no unfinished batch uses is removed at start once untouched this long. */
export const STAGED_GRACE_MS = 24 * 3600 * 1000;

/** The staged folder (`<uploads>/<random>`) a path is inside, or null when it is not a staged upload. */
export function stagedFolderOf(uploadDir: string, path: string): string | null {
  const inside = relative(resolve(uploadDir), resolve(path));
  const [first, ...rest] = inside.split(sep);
  return first && rest.length > 0 && STAGED_FOLDER.test(first) && !inside.startsWith('..') ? join(resolve(uploadDir), first) : null;
}

function specPaths(args: unknown): string[] {
  const inputs = (args as { inputs?: { paths?: unknown; mappings?: unknown } } | null)?.inputs;
  const paths = Array.isArray(inputs?.paths) ? inputs.paths : [];
  const mapped = Array.isArray(inputs?.mappings) ? inputs.mappings.flatMap((m: unknown) => (m && typeof m === 'object' ? Object.values(m) : [])) : [];
  return [...paths, ...mapped].filter((p): p is string => typeof p === 'string');
}

/**
 * Before an estimate or a start: a batch with staged photos and no output folder is refused with a message that asks
 * for one (the folder next to the photos would be inside the state dir).
 */
export function requireOutputForStaged(channel: string, args: unknown, uploadDir: string): void {
  if (channel !== 'batches:estimate' && channel !== 'batches:create') return;
  const folder = (args as { output?: { outputFolder?: unknown } } | null)?.output?.outputFolder;
  if (typeof folder === 'string' && folder.trim() !== '') return;
  if (!specPaths(args).some((path) => stagedFolderOf(uploadDir, path))) return;
  throw new AppError('validation', 'Photos added in the browser need an output folder for their results: type one in "Output folder" (or set a default in Settings ▸ Output). "Download all" then offers them as a zip.', { field: 'outputFolder' });
}

async function isReviewCopy(uploadDir: string, path: string): Promise<boolean> {
  const folder = stagedFolderOf(uploadDir, path);
  if (!folder) return false;
  const names = await readFile(join(folder, REVIEW_COPIES), 'utf8').catch(() => '');
  return names.split('\n').includes(basename(path));
}

/**
 * Before an estimate, a start or a re-run: a staged photo whose full copy was cleaned up (only its review copy is
 * left) is refused by name — sending it would pay for an edit of a screen-size copy.
 */
export async function refuseReviewCopies(channel: string, args: unknown, uploadDir: string, handlersOf: () => Promise<Handlers>): Promise<void> {
  let paths: string[] = [];
  if (channel === 'batches:estimate' || channel === 'batches:create') paths = specPaths(args);
  else if (channel === 'items:rerun') {
    // Only here is the core needed (the other channels, the early catalog ones included, do not wait for it).
    const handlers = await handlersOf();
    const wanted = new Set((args as { itemIds?: unknown } | null)?.itemIds as string[] ?? []);
    for (const batch of await handlers['batches:list']({})) {
      for (const item of await batchItems(handlers, batch.id)) if (wanted.has(item.id)) paths.push(...Object.values(item.sources));
    }
  } else return;
  for (const path of paths) {
    if (await isReviewCopy(uploadDir, path)) {
      throw new AppError('validation', `${basename(path)} was added in the browser, and its full copy was cleaned up when its batch completed (a screen-size copy is kept for Review only): add the photo again to run it.`);
    }
  }
}

const ended = (batch: BatchSummary) => batch.state === 'completed' && !(batch.trialRest && batch.trialRest > 0);

/** Items "Retry failed" or "Resubmit" may still send: their full originals stay until the next start. */
const MAY_BE_SENT_AGAIN = new Set(['failed', 'unknown', 'charged-no-result']);

async function stagedFoldersOf(handlers: Handlers, uploadDir: string, batchId: string, settledOnly = false): Promise<Set<string>> {
  const folders = new Set<string>();
  for (const item of await batchItems(handlers, batchId)) {
    if (settledOnly && MAY_BE_SENT_AGAIN.has(item.state)) continue;
    for (const source of Object.values(item.sources)) {
      const folder = stagedFolderOf(uploadDir, source);
      if (folder) folders.add(folder);
    }
  }
  return folders;
}

/** Staged folders an unfinished batch still reads (running, paused, or a try-first batch with photos left). */
async function inUse(handlers: Handlers, uploadDir: string, except?: string): Promise<Set<string>> {
  const used = new Set<string>();
  for (const batch of await handlers['batches:list']({})) {
    if (batch.id === except || ended(batch)) continue;
    for (const folder of await stagedFoldersOf(handlers, uploadDir, batch.id)) used.add(folder);
  }
  return used;
}

export interface StagedCleaner {
  /** Called with every progress event's batches: removes the staged copies of those that have ended. */
  onBatches(batches: readonly BatchSummary[]): void;
  /**
   * At start: removes every staged folder no unfinished batch uses, untouched since `graceMs` before `before` (the page
   * may upload while the core starts, or still hold a draft from before a restart). Resolves with how many went.
   */
  sweep(before: number): Promise<number>;
  /** Resolves when the removals started so far are done (tests, shutdown). */
  idle(): Promise<void>;
}

export interface StagedCleanerOptions {
  /** Replaces a staged original by its review copy (bytes freed, or null: none, the file is removed). */
  reviewCopy?: MakeReviewCopy;
  /** Files and bytes no longer staged (the host's staging budget gets them back). */
  freed?: (files: number, bytes: number) => void;
  onError?: (message: string) => void;
  /** How long an unused staged folder is kept at start (STAGED_GRACE_MS; tests pass 0). */
  graceMs?: number;
}

export function createStagedCleaner(handlers: Handlers, uploadDir: string, options: StagedCleanerOptions = {}): StagedCleaner {
  const { reviewCopy, freed = () => {}, onError = () => {}, graceMs = STAGED_GRACE_MS } = options;
  /** A staged folder whose batch ended: each file becomes its review copy, or goes. */
  const retire = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile() || entry.name === REVIEW_COPIES) continue;
      const path = join(folder, entry.name);
      const size = (await stat(path).catch(() => null))?.size ?? 0;
      const saved = reviewCopy ? await reviewCopy(path).catch(() => null) : null;
      if (saved === null) await rm(path, { force: true });
      else await appendFile(join(folder, REVIEW_COPIES), `${entry.name}\n`);
      freed(1, saved ?? size); // a review copy is a few hundred KB: it no longer counts against the budget
    }
  };
  const done = new Set<string>();
  let chain: Promise<unknown> = Promise.resolve();
  const queue = (work: () => Promise<unknown>) => {
    chain = chain.then(work).catch((error: unknown) => onError(error instanceof Error ? error.message : String(error)));
    return chain;
  };
  return {
    onBatches(batches) {
      for (const batch of batches) {
        if (!ended(batch) || done.has(batch.id)) continue;
        done.add(batch.id);
        void queue(async () => {
          const mine = await stagedFoldersOf(handlers, uploadDir, batch.id, true);
          if (mine.size === 0) return;
          const used = await inUse(handlers, uploadDir, batch.id);
          for (const folder of mine) if (!used.has(folder)) await retire(folder);
        });
      }
    },
    async sweep(before) {
      let removed = 0;
      await queue(async () => {
        const used = await inUse(handlers, uploadDir);
        const entries = await readdir(uploadDir, { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          const folder = join(resolve(uploadDir), entry.name);
          if (!entry.isDirectory() || !STAGED_FOLDER.test(entry.name) || used.has(folder)) continue;
          if (((await stat(folder).catch(() => null))?.mtimeMs ?? before) >= before - graceMs) continue;
          await rm(folder, { recursive: true, force: true }).then(() => removed++, () => undefined);
        }
      });
      return removed;
    },
    idle: () => chain.then(() => undefined),
  };
}
