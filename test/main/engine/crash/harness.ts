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
    const args = [stateDir, options.sandbox.url, options.sandbox.apiKey, JSON.stringify(spec), String(options.concurrency ?? 8), String(options.evidenceSettleMs ?? 300)];
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
  let items: ItemRecord[] = [];
  const lostIds = new Set<string>();
  try {
    const batch = journal.listBatches()[0];
    if (!batch) throw new Error('no batch was created');
    if (batch.state !== 'completed') problems.push(`batch ended ${batch.state}`);
    items = journal.listItems({ batchId: batch.id, limit: 100_000 }).items;
    // Every attempt's outcome is in the outbox: an `unknown` one is a lost submission, whatever the balance said later.
    for (const outcome of journal.outcomesAfter(0, 1_000_000)) if (outcome.state === 'unknown') lostIds.add(outcome.itemId);
  } finally {
    journal.close();
  }
  const withExecution = items.filter((i) => i.executionId !== null).length;
  const unknown = items.filter((i) => i.state === 'unknown').length;
  const chargedByEvidence = items.filter((i) => i.state === 'charged-no-result' && i.executionId === null).length;
  const resentByEvidence = items.filter((i) => lostIds.has(i.id) && i.state !== 'unknown' && i.state !== 'charged-no-result').length;
  if (executionsCreated < withExecution + chargedByEvidence) {
    problems.push(`sandbox created ${executionsCreated} executions but ${withExecution} items hold one and the balance proved ${chargedByEvidence} more`);
  }
  if (executionsCreated > withExecution + unknown + chargedByEvidence) {
    problems.push(`sandbox created ${executionsCreated} executions, more than ${withExecution} known + ${unknown} unknown + ${chargedByEvidence} proved charged: something was submitted twice`);
  }
  const outputs = new Set<string>();
  for (const item of items) {
    if (item.state === 'saved') {
      if (item.outputs.length !== 1) problems.push(`${item.displayName}: saved with ${item.outputs.length} outputs`);
      for (const out of item.outputs) {
        if (outputs.has(out)) problems.push(`${out} claimed twice`);
        outputs.add(out);
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
    executionsCreated, itemsWithExecution: withExecution,
    resultFiles: results.length, tempFiles: temps.length, problems,
  };
}
