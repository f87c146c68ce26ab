import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSandbox, type SpawnedSandbox } from '../../helpers/sandbox';
import { runCrashTrial } from './crash/harness';

// kill -9 of the engine at random points, restart, repeat (the soak version with ≥ 20 trials of 200 images is
// bench/engine-crash-soak.ts). The sandbox lives in its own process so its stats survive every engine death.

describe('engine crash safety (kill -9 and restart)', () => {
  let sandbox: SpawnedSandbox;

  beforeAll(async () => {
    sandbox = await spawnSandbox(['--duration-ms', '400', '--credits', '100000', '--seed', '7']);
  });

  afterAll(async () => {
    await sandbox?.kill();
  });

  it('never submits twice, saves every result once, leaves no temp file', async () => {
    let seed = 12345;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    let lost = 0;
    let left = 0;
    for (let trial = 0; trial < 2; trial++) {
      const result = await runCrashTrial({ sandbox, images: 24, kills: 3, random, minKillMs: 100, maxKillMs: 1600 });
      expect(result.problems).toEqual([]);
      expect(result.kills).toBeGreaterThan(0);
      expect(result.saved + result.failed + result.unknown + result.chargedByEvidence).toBe(result.items);
      expect(result.saved).toBeGreaterThan(0);
      // Judged by the balance: every lost submission was resent, proved charged, or is still unknown with evidence.
      expect(result.resentByEvidence + result.chargedByEvidence + result.unknown).toBe(result.lost);
      lost += result.lost;
      left += result.unknown;
    }
    process.stdout.write(`crash trials: ${lost} lost submissions, ${left} left unknown after balance evidence\n`);
  }, 170_000);

  it('interrupted, then the same command again (a new batch of the same photos each start): each photo paid once, one file each, no temp file', async () => {
    let seed = 777;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    const result = await runCrashTrial({ sandbox, images: 16, kills: 3, random, minKillMs: 100, maxKillMs: 1600, mode: 'again' });
    // The harness's checks: executions ≤ photos (+ what a kill left unknown or the balance judged), one file per
    // photo shared by every batch of it, no temp file, every batch completed.
    expect(result.problems).toEqual([]);
    expect(result.kills).toBeGreaterThan(0);
    expect(result.batches).toBeGreaterThan(1);
    expect(result.resultFiles).toBe(result.saved > 0 ? result.resultFiles : 0);
    expect(result.resultFiles).toBeLessThanOrEqual(16);
    expect(result.executionsCreated).toBeLessThanOrEqual(16 + result.unknown + result.chargedByEvidence + result.resentByEvidence);
    process.stdout.write(`again trial: ${result.batches} batches, ${result.executionsCreated} executions for 16 photos, ${result.resultFiles} files\n`);
  }, 170_000);
});
