import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, ndjson, runCli } from './run-cli';
import { canMountTmpfs } from '../../helpers/tmpfs';

// `batchroom run` onto a real 400 KB tmpfs, then `batchroom resume` once the disk has room — the real command, a
// real full disk. The run stops with exit 1 and the batch paused with code output-unwritable (its message names the
// folder and the free space), no item failed; the resume saves every result without a new execution or a second
// download. Before: 0 saved and every item "failed" although paid, and running the command again paid again.
// Root only (mount); skipped with a message elsewhere.

const PHOTOS = 8;

const mountable = canMountTmpfs();
if (!mountable) console.warn('cli-output-disk: skipped — mounting a tmpfs is not permitted here (needs root on Linux)');

describe.skipIf(!mountable)('batchroom run onto a disk that fills up, then resume', () => {
  let dir: string;
  let mnt: string;
  let mounted = false;
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-disk-'));
    mnt = join(dir, 'mnt');
    await mkdir(mnt);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=400k', 'tmpfs', mnt]);
    mounted = true;
    sandbox = await startTestSandbox({ executionDurationMs: 200 });
  });
  afterAll(async () => {
    if (mounted) {
      try { execFileSync('umount', [mnt]); } catch { execFileSync('umount', ['-l', mnt]); }
    }
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 1 with the batch paused output-unwritable and nothing failed; resume saves all, paid once', { timeout: 120_000 }, async () => {
    const photos = join(dir, 'photos');
    await mkdir(photos);
    for (let i = 0; i < PHOTOS; i++) {
      await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 30 * i, g: 90, b: 120 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
        .jpeg({ quality: 92 }).toFile(join(photos, `p${i}.jpg`));
    }
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const out = join(mnt, 'out');
    const run = await runCli(['--service-url', sandbox.url, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--out', out, photos], env);
    expect(run.code).toBe(1);
    const lines = ndjson(run.stdout);
    const summary = lines.find((l) => l.type === 'summary')!;
    expect(summary).toMatchObject({ failed: 0, unknown: 0, chargedNoResult: 0 });
    expect(summary.saved as number).toBeLessThan(PHOTOS);
    const paused = lines.filter((l) => l.type === 'progress' && l.state === 'paused').pop()!;
    expect(paused.pauseCode).toBe('output-unwritable');
    expect(paused.pausedReason).toMatch(/^Output disk full: \d+ KB free on .*\/mnt\/out\. Free space, then Resume\.$/);
    const executions = sandbox.stats().executionsCreated;
    expect(executions).toBeLessThanOrEqual(PHOTOS);

    execFileSync('mount', ['-o', 'remount,size=20m', mnt]);
    const resume = await runCli(['--service-url', sandbox.url, '--json', 'resume'], env);
    expect(resume.code).toBe(0);
    expect(ndjson(resume.stdout).find((l) => l.type === 'summary')).toMatchObject({ saved: PHOTOS, failed: 0 });
    expect(sandbox.stats().executionsCreated).toBe(PHOTOS);
    expect(sandbox.stats().resultDownloads).toBe(PHOTOS);
    const files = await readdir(out);
    expect(files.filter((n) => n.endsWith('.jpg'))).toHaveLength(PHOTOS);
    expect(files.filter((n) => n.startsWith('.batchroom-'))).toEqual([]);
  });
});
