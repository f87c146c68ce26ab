import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, ndjson, startCli } from './run-cli';

// `batchroom run --json` through a service outage: the progress lines say pausedReason "service-unreachable" with
// the next try time, the command keeps waiting (an outage pause is not "settled"), and finishes with every photo.

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-outage-'));
  sandbox = await startTestSandbox({ executionDurationMs: 1_200 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom run through an outage', () => {
  it('reports service-unreachable in --json progress and resumes by itself', { timeout: 90_000 }, async () => {
    const photos = join(dir, 'photos');
    await mkdir(photos);
    for (let i = 0; i < 6; i++) {
      await sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 40 * i, g: 80, b: 120 } } }).jpeg().toFile(join(photos, `p${i}.jpg`));
    }
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const cli = startCli(['--service-url', sandbox.url, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--out', join(dir, 'out'), photos], env);
    let started = false;
    cli.onLine((line) => {
      if (started || !line.includes('"type":"item"') || !line.includes('"state":"saved"')) return;
      started = true;
      sandbox.setOutage(5_000);
    });
    const result = await cli.done;
    expect(result.code, result.stderr).toBe(0);
    const lines = ndjson(result.stdout);
    const outage = lines.find((l) => l.type === 'progress' && l.pausedReason === 'service-unreachable');
    expect(outage, result.stdout).toBeDefined();
    expect(typeof outage!.nextTryAt).toBe('number');
    expect(lines.at(-1)).toMatchObject({ type: 'summary', saved: 6, failed: 0, unknown: 0, creditsSpent: 6 });
    expect(sandbox.stats().executionsCreated).toBe(6);
  });
});
