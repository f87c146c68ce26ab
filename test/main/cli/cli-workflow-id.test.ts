import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { closestId } from '../../../main/cli/workflow-lookup';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, runCli } from './run-cli';

// The real command: a mistyped or missing --workflow is the user's to fix (exit 2) and the message says how.

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-wf-'));
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom run --workflow', { timeout: 60_000 }, () => {
  it('an unknown id exits 2 with the closest catalog id; a missing one says where the ids are listed', async () => {
    const env = cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const flags = ['--service-url', sandbox.url];
    const [typo, missing, show] = await Promise.all([
      runCli([...flags, 'run', '--workflow', 'color-grad', '--yes', dir], env),
      runCli([...flags, 'run', '--yes', dir], env),
      runCli([...flags, 'workflow', 'colour-grade'], env),
    ]);
    expect(typo.code, typo.stderr).toBe(2);
    expect(typo.stderr).toContain('did you mean color-grade?');
    expect(show.code, show.stderr).toBe(2);
    expect(show.stderr).toContain('did you mean color-grade?');
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('--workflow is required');
    expect(missing.stderr).toContain('`batchroom workflows` lists them');
  });

  it('suggests only a plausible id', () => {
    const ids = ['color-grade', 'caption-watermark', 'upscale'];
    expect(closestId('color-grad', ids)).toBe('color-grade');
    expect(closestId('UPSCAEL', ids)).toBe('upscale');
    expect(closestId('xyz', ids)).toBeNull();
  });
});
