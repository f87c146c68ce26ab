import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, startCli, type CliProcess } from './run-cli';

// The real command without a terminal (as in CI logs), against the built-in sandbox: progress lines keep coming while
// photos are in flight, every progress and summary line fits 80 columns, and a restarted `watch` says how many
// photos of its folder are already done.

let dir: string;
const started: CliProcess[] = [];

async function makePhotos(folder: string, count: number, prefix = 'p'): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (let i = 0; i < count; i++) {
    await sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 50 * i, g: 100, b: 140 } } }).jpeg().toFile(join(folder, `${prefix}${i}.jpg`));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'br-progress-'));
});

afterAll(async () => {
  for (const cli of started) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** Resolves with the first stdout line matching `pattern` (rejects if the command ends first, or after 30 s). */
function lineMatching(cli: CliProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} in 30 s`)), 30_000);
    cli.onLine((line) => {
      if (pattern.test(line)) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    void cli.done.then((r) => reject(new Error(`ended (${r.code}) before ${pattern}: ${r.stdout}\n${r.stderr}`)));
  });
}

describe('progress without a terminal', { timeout: 120_000 }, () => {
  it('writes progress lines while photos are in flight, and no line of the batch is longer than 80 columns', async () => {
    const photos = join(dir, 'photos');
    await makePhotos(photos, 2);
    // Every request to the sandbox waits 1.5 s: the batch runs for several seconds with nothing finishing.
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_SANDBOX_LATENCY_MS: '1500' });
    const result = await runCli(['run', '--workflow', 'color-grade', '--text', 'look=warm', '--out', join(dir, 'out'), '--yes', photos], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    const from = lines.findIndex((l) => l.startsWith('Batch '));
    expect(from).toBeGreaterThanOrEqual(0);
    const batchLines = lines.slice(from);
    const progress = batchLines.filter((l) => l.startsWith('progress  '));
    expect(progress.length, result.stdout).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toMatch(/^progress {2}\d+\/2 done/);
    for (const line of batchLines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(batchLines.some((l) => l.startsWith('SAVED'))).toBe(true);
  });
});

describe('watch, restarted', { timeout: 120_000 }, () => {
  it('says how many photos of the folder are already done', async () => {
    const inbox = join(dir, 'inbox');
    await makePhotos(inbox, 2, 'w');
    const env = cliEnv(join(dir, 'watch-state'));
    const args = ['watch', inbox, '--workflow', 'color-grade', '--text', 'look=warm', '--out', join(dir, 'watch-out')];

    const first = startCli(args, env);
    started.push(first);
    let saved = 0;
    const bothSaved = new Promise<void>((resolve) => first.onLine((line) => {
      if (/^\d\d:\d\d:\d\d {2}saved /.test(line) && ++saved === 2) resolve();
    }));
    await Promise.race([bothSaved, first.done.then((r) => Promise.reject(new Error(`watch ended early: ${r.stdout}\n${r.stderr}`)))]);
    first.child.kill('SIGINT');
    const firstResult = await first.done;
    expect(firstResult.code, firstResult.stderr).toBe(0);
    expect(firstResult.stdout).not.toMatch(/already done/);

    const second = startCli(args, env);
    started.push(second);
    const said = await lineMatching(second, /already done/).finally(() => second.child.kill('SIGINT'));
    const secondResult = await second.done;
    expect(secondResult.code, secondResult.stderr).toBe(0);
    expect(said.startsWith(`${inbox}: 2 photos are already done`)).toBe(true);
    for (const line of [...firstResult.stdout.split('\n'), ...secondResult.stdout.split('\n')]) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
