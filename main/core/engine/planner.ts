import { createHash, randomUUID } from 'node:crypto';
import { access } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { describeAlreadyDone } from '../../../shared/engine/done-summary';
import { describeSkip } from '../../../shared/engine/skip-text';
import type { BatchSpec, DoneInput, FollowingInput, SkippedInput } from '../../../shared/engine/model';
import { AppError } from '../../../shared/errors';
import type { WorkflowDetail } from '../../../shared/service/model';
import { classifyInputFile } from '../images/classify';
import type { FileFacts } from '../images/file-facts';
import { resolveInputs } from '../images/resolve-inputs';
import { isRawPath } from '../images/raw-preview';
import type { DoneLedger } from '../journal/done-ledger';
import { ledgerKey, parametersHash } from '../journal/ledger-key';
import type { NewItem } from '../journal/types';
import { claimKeyOf, type ClaimHolder, type ClaimRecord } from '../journal/claims';
import pLimit from 'p-limit';

// Turns a BatchSpec into the items of a batch: inputs scanned (with reasons for skips), content hashed, duplicates
// (same content, workflow and parameters) kept once, everything else recorded as `skipped` for the report.

export interface Plan {
  /** A try-first plan: how many are tried and how many are left for "Continue". */
  trial?: { tried: number; rest: number };
  items: NewItem[];
  /** Items that will be submitted (not skipped). */
  workCount: number;
  skipped: SkippedInput[];
  duplicates: { path: string; duplicateOf: string }[];
  /** Dedupe key per runnable item (content + workflow + parameters). */
  keys: Map<string, string>;
  /** Done before (the done ledger): skipped, or run again when the spec says `rerun`. */
  alreadyDone: DoneInput[];
  /** Done before but every result of that run is gone: runnable again. */
  resultsGone: DoneInput[];
  /** Runnable items whose unit another batch already holds: they take that paid result and cost nothing. */
  following: FollowingInput[];
}

/** Who already holds a unit (journal/claims.ts), and which service account this engine pays from. */
export interface ClaimLookup {
  accountId: string;
  holder(claimKey: string): ClaimHolder;
  /** The claim of a unit as it is now (any state). */
  claim(claimKey: string): ClaimRecord | null;
  /** Whether the done ledger's saved entry under this key was saved by a try-first batch ("Try on 3 photos first"). */
  savedByTrial?(ledgerKey: string): boolean;
}

const anyExists = async (paths: readonly string[]) =>
  (await Promise.all(paths.map((p) => access(p).then(() => true, () => false)))).some(Boolean);

/** How a photo already done is paid for again, for whoever reads the item's reason (the CLI or the app). */
export const PAY_AGAIN = 'not sent again (to pay for it again: --rerun, or "Run them again" in the app)';

const isUrl = (s: string) => /^https?:\/\//i.test(s);

export function defaultImageField(workflow: WorkflowDetail, spec: BatchSpec): string {
  if (spec.inputs.imageField) {
    if (!workflow.inputSchema.imageFields.some((f) => f.id === spec.inputs.imageField)) {
      throw new AppError('validation', `workflow "${workflow.name}" has no image field "${spec.inputs.imageField}"`, { field: 'inputs.imageField' });
    }
    return spec.inputs.imageField;
  }
  const fields = workflow.inputSchema.imageFields;
  if (fields.length === 0) throw new AppError('validation', `workflow "${workflow.name}" takes no images`);
  const required = fields.filter((f) => f.required);
  if (required.length > 1) {
    throw new AppError('validation', `workflow "${workflow.name}" takes ${required.length} images per run (${required.map((f) => f.id).join(', ')}): map files to image fields`, { field: 'inputs.mappings' });
  }
  return (required[0] ?? fields[0])!.id;
}

/** How far planning is: the photos found (`total`, known once the folders are walked) and those read so far. */
export interface PlanProgress {
  phase: 'scanning' | 'reading';
  done: number;
  total: number;
}

export interface PlanOptions {
  /** Called as planning goes (often: the host decides how often to show it). */
  onProgress?: (progress: PlanProgress) => void;
  /** Cancels planning between two files: it rejects with AppError 'cancelled' and reads nothing more. */
  signal?: AbortSignal;
}

/** Files read at once: each read is mostly waiting on the disk (or on the thread pool that hashes), not on this thread. */
const READ_CONCURRENCY = 8;
const READ_AHEAD = 64;

/** Planning (and what follows it: the price, the balance) stops here once its caller cancelled. */
export const refuseIfCancelled = (signal: AbortSignal | undefined) => {
  if (signal?.aborted) throw new AppError('cancelled', 'the estimate was cancelled: nothing was read further, nothing was sent');
};

/**
 * `done`: the done ledger. A photo it knows as saved under this workflow and these parameters is skipped with the
 * day and place of its results, unless the spec asks to `rerun`; if those results are all gone it runs again.
 */
export async function planBatch(
  spec: BatchSpec, workflow: WorkflowDetail, facts: FileFacts, done?: DoneLedger, claims?: ClaimLookup, options: PlanOptions = {},
): Promise<Plan> {
  const { onProgress, signal } = options;
  refuseIfCancelled(signal);
  const paramsHash = parametersHash(spec.parameters);
  const items: NewItem[] = [];
  const skipped: SkippedInput[] = [];
  const duplicates: { path: string; duplicateOf: string }[] = [];
  const keys = new Map<string, string>();
  const firstByKey = new Map<string, string>();
  const alreadyDone: DoneInput[] = [];
  const resultsGone: DoneInput[] = [];
  const following: FollowingInput[] = [];
  let position = 0;

  // Runnable items take positions 0…n-1 (so `{index}` is the same in the preview and on disk); skipped ones follow.
  const deferred: NewItem[] = [];
  const push = (sources: Record<string, string>, relDir: string, displayName: string, hash: string | null, skipReason: string | null,
    claimKey: string | null = null, payAgainOver: string | null = null) => {
    // randomUUID() answers a rope of 14 pieces (≈ 500 B): flattened, an id held for every photo of a shoot is 56 B.
    const id = Buffer.from(randomUUID(), 'latin1').toString('latin1');
    // One literal, its position included: a copy with `position` spread in got a hidden class of its own per item
    // (≈ 350 B each in a heap snapshot of a 100k estimate). A skipped item's position is given at the end.
    const item: NewItem = {
      id, displayName, sources, relDir, contentHash: hash, state: skipReason ? 'skipped' : 'pending', reason: skipReason,
      claimKey: skipReason ? null : claimKey, payAgainOver, position: skipReason ? -1 : position++,
    };
    (skipReason ? deferred : items).push(item);
    return id;
  };

  const addRunnable = async (sources: Record<string, string>, relDir: string, displayName: string, hash: string, label: string) => {
    const key = ledgerKey(hash, workflow.id, paramsHash);
    const first = firstByKey.get(key);
    if (first) {
      duplicates.push({ path: label, duplicateOf: first });
      push(sources, relDir, displayName, hash, `duplicate of ${first} (same content, workflow and parameters): submitted once`);
      return;
    }
    firstByKey.set(key, label);
    const claimKey = claims ? claimKeyOf(key, claims.accountId) : null;
    // Already at the service (or about to be) for another batch: this one takes that result, whatever the ledger or
    // --rerun say — paying twice at once for the same edit is never what anyone asked for.
    const holder = claimKey && claims ? claims.holder(claimKey) : null;
    if (holder && (holder.claim || holder.item)) {
      following.push({ path: label, batchId: holder.item?.batchId ?? null, paid: holder.claim !== null && holder.claim.state !== 'claimed' && holder.claim.state !== 'submitting' });
      keys.set(push(sources, relDir, displayName, hash, null, claimKey), key);
      return;
    }
    const earlier = done ? await done.lookup(key) : null;
    if ((earlier?.outcome === 'unknown' || earlier?.outcome === 'charged-no-result') && !spec.rerun) {
      const day = earlier.doneAt.slice(0, 10);
      const on = day ? ` on ${day}` : '';
      const reason = earlier.outcome === 'unknown'
        ? `sent${on} but the answer was lost: it may have been charged — check the provider's dashboard`
        : `charged${on} but the service lost the result — report it to the provider`;
      // The estimate's entry leaves the way to pay again to each surface (describeSkip: --rerun in the CLI); the
      // item's own reason keeps the app's words.
      const skip = { path: label, reason, payAgain: true };
      skipped.push(skip);
      return void push(sources, relDir, displayName, hash, describeSkip(skip, 'app'));
    }
    if (earlier?.outcome === 'saved') {
      const record: DoneInput = { path: label, doneAt: earlier.doneAt, outputs: earlier.outputs };
      if (!(await anyExists(earlier.outputs))) resultsGone.push(record);
      else {
        alreadyDone.push(record);
        // A photo tried first is the try's, not this batch's: continuing ("Continue", or the CLI's same command
        // without --try) runs the rest only, so it is no item here (a skipped one made "SAVED 22 / 26" of 22 photos).
        if (!spec.rerun && claims?.savedByTrial?.(key)) return;
        // Read in the app's queue and the CLI's summary alike: it names both ways to pay again.
        if (!spec.rerun) return void push(sources, relDir, displayName, hash, `${describeAlreadyDone([record], { count: false })}: ${PAY_AGAIN}`);
      }
    }
    // Done (or maybe charged) before and run again all the same — the user said --rerun, its results are gone, or a
    // hot folder's reprocess: only such an item may send a unit already paid for, and only over the claim seen now
    // (journal/claims.ts blocksSubmit). An item whose unit turns out paid by the time it is sent (another batch
    // finished it meanwhile, or paid again first) takes that result instead. A hot folder's spec always says rerun
    // (it asked the ledger itself): only its reprocessed files count as asked.
    const asked = earlier !== null && (spec.source.kind !== 'hotFolder' || (spec.inputs.payAgain ?? []).includes(label));
    const seen = asked && holder?.claim === null && claimKey && claims ? claims.claim(claimKey) : null;
    keys.set(push(sources, relDir, displayName, hash, null, claimKey, seen ? seen.updatedAt : null), key);
  };

  // A RAW the encoder will refuse (no preview large enough, unreadable) is refused here: not priced, not named, not
  // counted against the budget — it was never going to cost anything. A hot folder's RAW is left to the encoder: its
  // failure is what moves the original to Failed/. A check that itself fails leaves the decision to the encoder too.
  const rawRefusalOf = (path: string): Promise<string | null> =>
    (spec.source.kind !== 'hotFolder' && isRawPath(path) ? facts.raw(path).then((raw) => raw?.refusal ?? null, () => null) : Promise.resolve(null));

  if (spec.inputs.paths.length > 0) {
    const field = defaultImageField(workflow, spec);
    onProgress?.({ phase: 'scanning', done: 0, total: 0 });
    const scan = await resolveInputs(spec.inputs.paths, {
      recursive: spec.inputs.recursive, exclude: [spec.output.outputFolder, ...(spec.inputs.exclude ?? [])], rawPairs: spec.inputs.rawPairs ?? 'jpeg',
      // a hot folder submits files as they arrive: a RAW's JPEG may have come (and been edited) a moment before
      partnersOnDisk: spec.source.kind === 'hotFolder',
    });
    refuseIfCancelled(signal);
    const total = scan.files.length;
    onProgress?.({ phase: 'reading', done: 0, total });
    for (const skip of scan.skipped) {
      skipped.push(skip);
      push({ [field]: skip.path }, '', basename(skip.path), null, skip.reason);
    }
    // Read a few files at once (each read is mostly waiting on the disk), but decide in the selection's order: which
    // of two identical photos is "the duplicate" must not depend on which read finished first.
    facts.prefetch(scan.files.map((f) => f.path));
    const limit = pLimit(READ_CONCURRENCY);
    // Reads are started READ_AHEAD files ahead of the one decided, not all at once: a promise, a closure and a queue
    // entry per photo of a 100k shoot held ≈ 100 MB before the first was decided (the CLI runs with 192 MB of heap).
    const hashes = new Map<number, Promise<string>>();
    const startRead = (index: number) => {
      const file = scan.files[index];
      if (!file || hashes.has(index)) return;
      const hash = limit(() => facts.contentHash(file.path));
      hash.catch(() => undefined); // awaited in order below; a failure before its turn is not an unhandled rejection
      hashes.set(index, hash);
    };
    for (let i = 0; i < READ_AHEAD; i++) startRead(i);
    // Every RAW asked at once: the checker answers many per ExifTool command (raw-check.ts). Other photos ask nothing.
    const refusals = scan.files.map((file) => (isRawPath(file.path) ? rawRefusalOf(file.path) : null));
    try {
      for (const [index, scanned] of scan.files.entries()) {
        refuseIfCancelled(signal);
        onProgress?.({ phase: 'reading', done: index, total });
        startRead(index + READ_AHEAD);
        // A chain step's inputs keep their original photo's sub-folder (inputs.relDirs).
        const file = { ...scanned, relDir: spec.inputs.relDirs?.[scanned.path] ?? scanned.relDir };
        const display = file.relDir ? join(file.relDir, basename(file.path)) : basename(file.path);
        let hash: string;
        try {
          const read = hashes.get(index)!;
          hashes.delete(index);
          hash = await read;
        } catch (error) {
          const reason = `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
          skipped.push({ path: file.path, reason });
          push({ [field]: file.path }, file.relDir, display, null, reason);
          continue;
        }
        const refusal = await refusals[index];
        if (refusal) {
          skipped.push({ path: file.path, reason: refusal });
          push({ [field]: file.path }, file.relDir, display, hash, refusal);
          continue;
        }
        await addRunnable({ [field]: file.path }, file.relDir, display, hash, file.path);
      }
      onProgress?.({ phase: 'reading', done: total, total });
      refuseIfCancelled(signal); // cancelled while the last photo was read or on seeing the count complete
    } finally {
      limit.clearQueue(); // planning failed or was cancelled part-way: the rest of the shoot is not read for nothing
      facts.flush(); // what was read is kept even when the host exits right after (a CLI without a terminal to ask on)
    }
  }

  for (const mapping of spec.inputs.mappings) {
    const sources: Record<string, string> = {};
    const hashes: string[] = [];
    let problem: string | null = null;
    for (const [field, source] of Object.entries(mapping).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!workflow.inputSchema.imageFields.some((f) => f.id === field)) { problem = `workflow has no image field "${field}"`; break; }
      if (isUrl(source)) { sources[field] = source; hashes.push(`${field}=${source}`); continue; }
      const path = resolve(source);
      sources[field] = path;
      const verdict = classifyInputFile(path);
      if (!verdict.ok) { problem = `${basename(path)}: ${verdict.reason}`; break; }
      const refusal = await rawRefusalOf(path);
      if (refusal) { problem = `${basename(path)}: ${refusal}`; break; }
      try {
        hashes.push(`${field}=${await facts.contentHash(path)}`);
      } catch (error) {
        problem = `${basename(path)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : 'cannot be read'}`;
        break;
      }
    }
    const label = Object.values(mapping).map((s) => basename(s)).join(' + ');
    if (problem) {
      skipped.push({ path: label, reason: problem });
      push(sources, '', label, null, problem);
      continue;
    }
    // One local image is the same photo for the ledger however it was given (a path or a one-field mapping).
    const single = hashes.length === 1 ? /^[^=]+=([0-9a-f]{64})$/.exec(hashes[0]!)?.[1] : undefined;
    const hash = single ?? createHash('sha256').update(hashes.join('\n')).digest('hex');
    await addRunnable(sources, '', label, hash, label);
  }

  for (const item of deferred) {
    item.position = position++;
    items.push(item);
  }
  return { items, workCount: keys.size, skipped, duplicates, keys, alreadyDone, resultsGone, following };
}
