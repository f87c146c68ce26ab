import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isTempName } from '../../../../main/core/images/save';
import { openJournal, type ItemRecord } from '../../../../main/core/journal';
import { fetchSandboxStats } from '../../../helpers/sandbox';
import { writePhotos } from '../helpers';

// Crash trial: run a batch in a child engine process, SIGKILL it at random moments, restart it on the same journal
// until the batch ends, then check the invariants the issue asks for against the sandbox's own stats.

const CHILD = fileURLToPath(new URL('./engine-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface CrashTrialOptions {
  sandbox: { url: string; apiKey: string };
  images: number;
  kills: number;
  /** Kill window after the child reports `started` (ms). */
  minKillMs?: number;
  maxKillMs?: number;
  random?: () => number;
  concurrency?: number;
  /** Reuse a folder of input photos across trials. */
  inputFolder?: string;
  /** Balance evidence's pause between its two reads (the app's 3 s is realistic but slow for tests). */
  evidenceSettleMs?: number;
  /**
   * resume (default): each restart carries the batch on. again: each restart is the same command again — a new batch
   * of the same photos beside what the kill left (issue 29: "interrupt, then the same command again").
   */
  mode?: 'resume' | 'again';
}

export interface CrashTrialResult {
  kills: number;
  items: number;
  saved: number;
  failed: number;
  /** Items whose submission was lost at some point (a kill mid-submit): unknown before the balance judged them. */
  lost: number;
  /** Left unknown after balance evidence (it decides only when the balance proves all or none were charged). */
  unknown: number;
  /** Lost ones the balance proved charged (charged-no-result, no execution id known). */
  chargedByEvidence: number;
  /** Lost ones the balance proved uncharged and that were sent once more. */
  resentByEvidence: number;
  executionsCreated: number;
  itemsWithExecution: number;
  /** Batches the trial made (again mode: one per start that had something to do). */
  batches: number;
  resultFiles: number;
  tempFiles: number;
  problems: string[];
}

interface ChildRun { done: boolean; killed: boolean }

function runChild(args: string[], killAfterStartMs: number | null, killBeforeStartMs: number | null): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let done = false;
    let killed = false;
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
    const kill = () => { if (child.exitCode === null) { killed = true; child.kill('SIGKILL'); } };
    const early = killBeforeStartMs !== null ? setTimeout(kill, killBeforeStartMs) : null;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'started' && killAfterStartMs !== null) setTimeout(kill, killAfterStartMs);
      if (line.startsWith('done')) done = true;
    });
    const guard = setTimeout(kill, 120_000);
    child.once('exit', (code) => {
      if (early) clearTimeout(early);
      clearTimeout(guard);
      if (!killed && !done) reject(new Error(`engine child exited with ${code} without finishing: ${stderr.slice(-2000)}`));
      else resolve({ done, killed });
    });
  });
}

export async function runCrashTrial(options: CrashTrialOptions): Promise<CrashTrialResult> {
  const random = options.random ?? Math.random;
  const root = await mkdtemp(join(tmpdir(), 'batchroom-crash-'));
  try {
    const input = options.inputFolder ?? join(root, 'in');
    if (!options.inputFolder) {
      await mkdir(input, { recursive: true });
      await writePhotos(input, options.images);
    }
    const output = join(root, 'out');
    const stateDir = join(root, 'state');
    const before = (await fetchSandboxStats(options.sandbox.url)) as { executionsCreated: number };
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: output } };
    const args = [stateDir, options.sandbox.url, options.sandbox.apiKey, JSON.stringify(spec), String(options.concurrency ?? 8), String(options.evidenceSettleMs ?? 300), options.mode ?? 'resume'];
    let kills = 0;
    for (let run = 0; run < options.kills + 5; run++) {
      const killNow = kills < options.kills;
      // Mostly mid-batch kills; some land during startup (recovery, batch creation).
      const beforeStart = killNow && random() < 0.2 ? 150 + random() * 900 : null;
      const afterStart = killNow && beforeStart === null
        ? (options.minKillMs ?? 100) + random() * ((options.maxKillMs ?? 1500) - (options.minKillMs ?? 100))
        : null;
      const result = await runChild(args, afterStart, beforeStart);
      if (result.killed) kills++;
      if (result.done) break;
    }
    const after = (await fetchSandboxStats(options.sandbox.url)) as { executionsCreated: number };
    return await verify(stateDir, output, kills, after.executionsCreated - before.executionsCreated);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function verify(stateDir: string, output: string, kills: number, executionsCreated: number): Promise<CrashTrialResult> {
  const journal = openJournal(stateDir);
  const problems: string[] = [];
  const items: ItemRecord[] = [];
  let batches = 0;
  const lostIds = new Set<string>();
  try {
    const all = journal.listBatches();
    if (all.length === 0) throw new Error('no batch was created');
    batches = all.length;
    for (const batch of all) {
      if (batch.state !== 'completed') problems.push(`batch ${batch.id} ended ${batch.state}`);
      items.push(...journal.listItems({ batchId: batch.id, limit: 100_000 }).items);
    }
    // Every attempt's outcome is in the outbox: an `unknown` one is a lost submission, whatever the balance said later.
    for (const outcome of journal.outcomesAfter(0, 1_000_000)) if (outcome.state === 'unknown') lostIds.add(outcome.itemId);
  } finally {
    journal.close();
  }
  // A follower holds its owner's execution id: executions are counted once each, whichever items hold them.
  const withExecution = new Set(items.map((i) => i.executionId).filter((id) => id !== null)).size;
  const unknown = items.filter((i) => i.state === 'unknown').length;
  const chargedByEvidence = items.filter((i) => i.state === 'charged-no-result' && i.executionId === null).length;
  const resentByEvidence = items.filter((i) => lostIds.has(i.id) && i.state !== 'unknown' && i.state !== 'charged-no-result').length;
  if (executionsCreated < withExecution + chargedByEvidence) {
    problems.push(`sandbox created ${executionsCreated} executions but ${withExecution} are known and the balance proved ${chargedByEvidence} more`);
  }
  if (executionsCreated > withExecution + unknown + chargedByEvidence) {
    problems.push(`sandbox created ${executionsCreated} executions, more than ${withExecution} known + ${unknown} unknown + ${chargedByEvidence} proved charged: something was submitted twice`);
  }
  const photos = new Set(items.map((i) => i.contentHash).filter((h) => h !== null));
  if (executionsCreated > photos.size + unknown + chargedByEvidence + resentByEvidence) {
    problems.push(`sandbox created ${executionsCreated} executions for ${photos.size} photos: a photo was paid for twice`);
  }
  // One file per result: a follower may share its owner's file (same photo), never another photo's.
  const outputs = new Map<string, string | null>();
  for (const item of items) {
    if (item.state === 'saved') {
      if (item.outputs.length !== 1) problems.push(`${item.displayName}: saved with ${item.outputs.length} outputs`);
      for (const out of item.outputs) {
        if (outputs.has(out) && outputs.get(out) !== item.contentHash) problems.push(`${out} claimed by two photos`);
        outputs.set(out, item.contentHash);
        if (!existsSync(out) || (await stat(out)).size === 0) problems.push(`${out} missing or empty`);
      }
    } else if (item.state === 'failed' || item.state === 'unknown' || item.state === 'charged-no-result') {
      if (!item.reason) problems.push(`${item.displayName}: ${item.state} without a reason`);
    } else if (item.state !== 'skipped') {
      problems.push(`${item.displayName}: ended ${item.state}`);
    }
  }
  const files = existsSync(output) ? await readdir(output) : [];
  const temps = files.filter(isTempName);
  const results = files.filter((f) => !isTempName(f));
  if (temps.length > 0) problems.push(`temp files left: ${temps.join(', ')}`);
  if (results.length !== outputs.size) {
    const strays = results.filter((f) => !outputs.has(join(output, f)));
    problems.push(`${results.length} files in the output folder for ${outputs.size} saved results (not a saved result: ${strays.join(', ') || 'none'})`);
  }
  return {
    kills, items: items.length, saved: items.filter((i) => i.state === 'saved').length,
    failed: items.filter((i) => i.state === 'failed').length, lost: lostIds.size, unknown, chargedByEvidence, resentByEvidence,
    executionsCreated, itemsWithExecution: withExecution, batches,
    resultFiles: results.length, tempFiles: temps.length, problems,
  };
}
