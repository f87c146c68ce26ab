import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, runCli } from './run-cli';

// The real command against a sandbox in this process: a value over a field's limit is the user's to fix before
// anything is priced, sent or written (it used to start the batch, fail every item and leave an empty Batchroom/).

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-limits-'));
  sandbox = await startTestSandbox();
  await mkdir(join(dir, 'photos'));
  await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 90, b: 160 } } }).jpeg().toFile(join(dir, 'photos', 'a.jpg'));
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom run: field limits', { timeout: 60_000 }, () => {
  it('a 250-character caption on a 200-character field exits 2 naming the field and the limit; nothing is created', async () => {
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const result = await runCli(['--service-url', sandbox.url, 'run', '--workflow', 'caption-watermark', '--text', `caption=${'x'.repeat(250)}`, '--yes', join(dir, 'photos')], env);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('--text caption (250 characters) is longer than 200 characters');
    expect(result.stdout).not.toContain('×'); // no estimate: not priced
    expect(await readdir(join(dir, 'photos'))).toEqual(['a.jpg']); // no Batchroom/ next to the photos
    expect(sandbox.stats().executionsCreated).toBe(0);
  });
});
