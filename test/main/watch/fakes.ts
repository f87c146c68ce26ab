import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { BatchSpec } from '../../../shared/engine/model';
import type { HotFolderActivity, HotFolderConfig, HotFolderConfigInput, HotFolderState } from '../../../shared/hotfolders/model';
import { HotFolderConfigSchema } from '../../../shared/hotfolders/model';
import { hashFile } from '../../../main/core/images/hash';
import { createHotFolderManager, type HotFolderManagerOptions } from '../../../main/core/watch';
import type { HotFolderEngine, HotFolderItemOutcome, HotFolderLedger, LedgerRecordInput } from '../../../main/core/watch';

/** A minimal JPEG-shaped file (SOI … EOI) with distinct content per seed. */
export function jpegBytes(seed: string, padding = 64): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(seed.padEnd(padding, '.')), Buffer.from([0xff, 0xd9])]);
}

export interface Submission {
  spec: BatchSpec;
  batchId: string;
  paths: string[];
  hashes: string[];
  at: number;
}

/**
 * Stands in for the engine: records every submitted batch, and (when `autoComplete`) "saves" each item by writing a
 * result file into the batch's output folder, then reports the outcome — like the real engine, asynchronously.
 */
export function createFakeEngine(options: { autoComplete?: boolean; delayMs?: number; fail?: (path: string) => boolean; refuse?: () => string | null } = {}) {
  const submissions: Submission[] = [];
  const listeners = new Set<(o: HotFolderItemOutcome) => void | Promise<void>>();
  const moved: { itemId: string; from: string; to: string }[] = [];
  let nextBatch = 1;
  const engine: HotFolderEngine & {
    submissions: Submission[]; moved: typeof moved; submittedPaths(): string[]; completeSubmission(index: number): Promise<void>;
    emit(outcome: HotFolderItemOutcome): Promise<void>;
  } = {
    submissions,
    moved,
    /** Delivers one outcome as the outbox consumer would: the next only after the folder handled this one. */
    emit: async (outcome) => { for (const l of listeners) await l(outcome); },
    sourceMoved: (itemId, from, to) => void moved.push({ itemId, from, to }),
    completeSubmission: async (index) => {
      const s = submissions[index]!;
      await complete(s.spec, s.batchId, s.paths, s.hashes);
    },
    submittedPaths: () => submissions.flatMap((s) => s.paths),
    async submit(spec) {
      const refusal = options.refuse?.();
      if (refusal) throw new Error(refusal);
      const batchId = `b${nextBatch++}`;
      const paths = [...spec.inputs.paths];
      const hashes = await Promise.all(paths.map((p) => hashFile(p)));
      submissions.push({ spec, batchId, paths, hashes, at: Date.now() });
      if (options.autoComplete !== false) {
        // The test may already have removed its folders when a late completion runs: that is not a failure.
        setTimeout(() => void complete(spec, batchId, paths, hashes).catch(() => undefined), options.delayMs ?? 10);
      }
      return { batchId };
    },
    onItemFinal(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    creditCost: async () => 2,
  };
  async function complete(spec: BatchSpec, batchId: string, paths: string[], hashes: string[]) {
    await mkdir(spec.output.outputFolder, { recursive: true });
    for (const [i, path] of paths.entries()) {
      const failed = options.fail?.(path) ?? false;
      let outputs: string[] = [];
      if (!failed) {
        const out = join(spec.output.outputFolder, `${basename(path, extname(path))}_${batchId}_${i}.jpg`);
        await writeFile(out, jpegBytes(`result ${path}`));
        outputs = [out];
      }
      for (const l of listeners) {
        l({
          batchId, sourcePath: path, state: failed ? 'failed' : 'saved', outputs, reason: failed ? 'corrupt image' : null,
          executionId: `e-${batchId}-${i}`, itemId: `i-${batchId}-${i}`, creditsCharged: failed ? 0 : 2,
          hotFolderId: spec.source.hotFolderId ?? null, contentHash: hashes[i] ?? null,
        });
      }
    }
  }
  return engine;
}

export function createFakeLedger(): HotFolderLedger & { entries: Map<string, LedgerRecordInput> } {
  const entries = new Map<string, LedgerRecordInput>();
  return {
    entries,
    get: (key) => entries.get(key) ?? null,
    record: (entry) => void entries.set(entry.key, entry),
  };
}

export function createMemoryConfigStore(initial: HotFolderConfig[] = []) {
  let configs = initial;
  return {
    load: () => configs,
    save: (next: HotFolderConfig[]) => void (configs = next.map((c) => ({ ...c }))),
    get current() {
      return configs;
    },
  };
}

export const FAST = {
  timings: { stabilityThresholdMs: 200, unprovenStableMs: 600, writePollMs: 25, pollingIntervalMs: 100, newFilePollMs: 50 },
  availabilityIntervalMs: 100,
  coalesceMs: 30,
  changedThrottleMs: 10,
  deferCheckMs: 100,
  maxDeferMs: 2_000,
  retryMs: 200,
  rawPairWaitMs: 300,
  // Tests assert the state right after save(): let arming finish however slow the CI machine is.
  respondWithinMs: 20_000,
} satisfies Partial<HotFolderManagerOptions>;

export async function tempDir(prefix = 'br-watch-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

export function folderConfig(input: Partial<HotFolderConfigInput> & { path: string; outputFolder: string }): HotFolderConfig {
  return HotFolderConfigSchema.parse({ id: 'f1', workflowId: 'wf-color', enabled: true, existingFiles: 'process', ...input });
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A manager wired to fakes, collecting activity; `close` also stops the manager. */
export function harness(extra: Partial<HotFolderManagerOptions> & { configs?: HotFolderConfig[] } = {}) {
  const engine = (extra.engine as ReturnType<typeof createFakeEngine> | undefined) ?? createFakeEngine();
  const ledger = (extra.ledger as ReturnType<typeof createFakeLedger> | undefined) ?? createFakeLedger();
  const configStore = createMemoryConfigStore(extra.configs ?? []);
  const activity: HotFolderActivity[] = [];
  const changed: HotFolderState[][] = [];
  const manager = createHotFolderManager({
    ...FAST,
    ...extra,
    engine,
    ledger,
    configStore,
    emit: ((channel: string, payload: unknown) => {
      if (channel === 'hotFolders:activity') activity.push(payload as HotFolderActivity);
      else changed.push(payload as HotFolderState[]);
    }) as HotFolderManagerOptions['emit'],
  });
  return { manager, engine, ledger, configStore, activity, changed };
}
