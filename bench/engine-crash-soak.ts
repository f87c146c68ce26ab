// Crash soak: ≥ 20 trials of a 200-image batch, each engine process SIGKILLed at random moments and restarted on
// the same journal until the batch ends. Checks after every trial, against the sandbox's own stats (it runs in its
// own process and outlives every engine): no execution created twice, every item saved once or failed/unknown with a
// reason, no temp file left. Every other trial is "interrupt, then the same command again": each restart makes a new
// batch of the same photos beside what the kill left (paid once: executions ≤ photos, one file per photo).
// Sizes: BENCH_SOAK_TRIALS (default 20), BENCH_SOAK_IMAGES (200), BENCH_SOAK_KILLS (5).
// Last line: one JSON object of metrics.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSandbox } from '../test/helpers/sandbox';
import { runCrashTrial } from '../test/main/engine/crash/harness';
import { writePhotos } from '../test/main/engine/helpers';

const trials = Number(process.env.BENCH_SOAK_TRIALS ?? '20');
const images = Number(process.env.BENCH_SOAK_IMAGES ?? '200');
const kills = Number(process.env.BENCH_SOAK_KILLS ?? '5');

const sandbox = await spawnSandbox(['--duration-ms', '500', '--credits', '10000000', '--rate-limit', '100000', '--max-concurrent', '64']);
const inputRoot = await mkdtemp(join(tmpdir(), 'batchroom-soak-'));
const input = join(inputRoot, 'in');
await mkdir(input);
await writePhotos(input, images);
// lost: submissions cut off by a kill (unknown before balance evidence); unknown: left so after it; resent/charged:
// what the balance proved (sent once more / charged-no-result).
const totals = {
  trials: 0, failedTrials: 0, kills: 0, items: 0, saved: 0, failed: 0, lost: 0, unknown: 0, resentByEvidence: 0, chargedByEvidence: 0,
  executionsCreated: 0, duplicates: 0, photosPaidTwice: 0, tempFilesLeft: 0,
};
const started = Date.now();
try {
  for (let trial = 1; trial <= trials; trial++) {
    const mode = trial % 2 === 0 ? 'again' : 'resume';
    const result = await runCrashTrial({ sandbox, images, kills, inputFolder: input, minKillMs: 200, maxKillMs: 6_000, mode });
    totals.trials++;
    totals.kills += result.kills;
    totals.items += result.items;
    totals.saved += result.saved;
    totals.failed += result.failed;
    totals.lost += result.lost;
    totals.unknown += result.unknown;
    totals.resentByEvidence += result.resentByEvidence;
    totals.chargedByEvidence += result.chargedByEvidence;
    totals.executionsCreated += result.executionsCreated;
    totals.duplicates += Math.max(0, result.executionsCreated - result.itemsWithExecution - result.unknown - result.chargedByEvidence);
    totals.photosPaidTwice += Math.max(0, result.executionsCreated - images - result.unknown - result.chargedByEvidence - result.resentByEvidence);
    totals.tempFilesLeft += result.tempFiles;
    if (result.problems.length > 0) totals.failedTrials++;
    process.stdout.write(`trial ${trial} (${mode}, ${result.batches} batches): ${result.kills} kills, ${result.saved} saved, ${result.failed} failed, ` +
      `${result.lost} lost → ${result.resentByEvidence} resent, ${result.chargedByEvidence} proved charged, ${result.unknown} unknown, ` +
      `${result.executionsCreated} executions${result.problems.length ? ` — PROBLEMS: ${result.problems.join('; ')}` : ''}\n`);
  }
} finally {
  await sandbox.kill();
  await rm(inputRoot, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ ...totals, minutes: Number(((Date.now() - started) / 60_000).toFixed(1)) })}\n`);
process.exitCode = totals.failedTrials > 0 ? 1 : 0;
