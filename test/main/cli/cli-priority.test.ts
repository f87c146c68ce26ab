import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../main/cli/errors';
import { buildRunSpec, type RunFlags } from '../../../main/cli/run-spec';
import { openJournal } from '../../../main/core/journal';
import { folderBatchSpec } from '../../../main/core/watch/submitter';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { HotFolderConfigSchema } from '../../../shared/hotfolders/model';
import { WorkflowDetailSchema } from '../../../shared/service/model';
import { DEFAULT_SETTINGS } from '../../../shared/settings/schema';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { cliEnv, runCli } from './run-cli';

// Queue priority (issue 32 #5): `run --priority N`, `watch --priority N` and a hot folder's priority reach the batch
// the engine queues.

const workflow = WorkflowDetailSchema.parse({ id: 'grade', name: 'Grade', creditCost: 2, inputSchema: { imageFields: [{ id: 'photo', label: 'Photo' }], textFields: [], switchFields: [] } });
const build = (extra: Partial<RunFlags>) =>
  BatchSpecSchema.parse(buildRunSpec({ workflow: 'grade', text: [], switch: [], mapping: [], out: 'out', ...extra }, ['photos'], workflow, DEFAULT_SETTINGS, '/work'));

describe('--priority', () => {
  it('goes into the batch spec; without it the batch has priority 0', () => {
    expect(build({ priority: '7' }).priority).toBe(7);
    expect(build({ priority: ' -100 ' }).priority).toBe(-100);
    expect(build({}).priority).toBe(0);
  });

  it('anything but a whole number from -100 to 100 is a usage error naming the flag', () => {
    for (const bad of ['101', '-101', '1.5', 'high', '', '0x10']) {
      expect(() => build({ priority: bad }), bad).toThrow(UsageError);
      expect(() => build({ priority: bad }), bad).toThrow(/--priority must be a whole number from -100 to 100/);
    }
  });

  it('a hot folder\'s priority goes into every batch it sends (settings written before it load as 0)', () => {
    const config = (extra: object) => HotFolderConfigSchema.parse({ id: 'f', path: '/in', workflowId: 'grade', outputFolder: '/out', ...extra });
    expect(folderBatchSpec(config({ priority: 20 }), ['/in/a.jpg'], '').priority).toBe(20);
    expect(config({}).priority).toBe(0);
    expect(folderBatchSpec(config({}), ['/in/a.jpg'], '').priority).toBe(0);
    expect(() => config({ priority: 101 })).toThrow();
  });
});

describe('batchroom run|watch --priority', { timeout: 120_000 }, () => {
  let dir: string;
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-priority-'));
    sandbox = await startTestSandbox({ executionDurationMs: 20 });
  });
  afterAll(async () => {
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('run journals the batch with that priority (a negative value is the flag\'s, not an option)', async () => {
    const shoot = join(dir, 'shoot');
    await mkdir(shoot);
    await writePhotos(shoot, 1);
    const state = join(dir, 'state');
    const env = cliEnv(state, { BATCHROOM_API_KEY: sandbox.apiKey });
    const run = await runCli(['--service-url', sandbox.url, 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--priority', '-5', '--yes', '--out', join(dir, 'out'), shoot], env);
    expect(run.code, run.stderr).toBe(0);
    const journal = openJournal(state);
    try {
      expect(journal.listBatches().map((b) => b.priority)).toEqual([-5]);
    } finally {
      journal.close();
    }
  });

  it('watch refuses a priority out of range before watching anything (exit 2)', async () => {
    const inbox = join(dir, 'inbox');
    await mkdir(inbox);
    const env = cliEnv(join(dir, 'state-watch'), { BATCHROOM_API_KEY: sandbox.apiKey });
    const watch = await runCli(['--service-url', sandbox.url, 'watch', inbox, '--workflow', 'color-grade', '--text', 'look=warm', '--priority', '300', '--out', join(dir, 'out-watch')], env);
    expect(watch.code).toBe(2);
    expect(watch.stderr).toMatch(/--priority must be a whole number from -100 to 100 \(got "300"\)/);
  });
});
