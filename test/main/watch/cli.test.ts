import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HotFolderConfigSchema } from '../../../shared/hotfolders/model';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { cliEnv, ndjson, runCli, startCli } from '../cli/run-cli';
import { removeDir, tempDir } from './fakes';

// `batchroom watch` as a user runs it: a separate process against a sandbox in this one, stopped with Ctrl-C.

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await tempDir('br-watch-cli-');
  sandbox = await startTestSandbox({ executionDurationMs: 100 });
});

afterAll(async () => {
  await sandbox?.close();
  await removeDir(dir);
});

const env = () => cliEnv(join(dir, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });

describe('batchroom watch', () => {
  it('processes existing and new photos, prints NDJSON, and stops cleanly on Ctrl-C', { timeout: 120_000 }, async () => {
    const inbox = join(dir, 'in');
    await mkdir(inbox);
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#226688' } }).jpeg().toFile(join(inbox, 'before.jpg'));
    const cli = startCli(['--service-url', sandbox.url, '--json', 'watch', inbox, '--workflow', 'color-grade', '--text', 'look=warm',
      '--out', join(inbox, 'results'), '--move-originals'], env());
    const records: Array<Record<string, unknown>> = [];
    let resolveSaved: () => void;
    const twoSaved = new Promise<void>((resolve) => {
      resolveSaved = resolve;
    });
    let watching: () => void;
    const started = new Promise<void>((resolve) => {
      watching = resolve;
    });
    cli.onLine((line) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      records.push(record);
      if (record.type === 'watching') watching();
      if (records.filter((r) => r.kind === 'saved').length === 2) resolveSaved();
    });
    await Promise.race([started, cli.done.then((r) => Promise.reject(new Error(`watch exited early: ${r.stderr}`)))]);
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#aa3311' } }).jpeg().toFile(join(inbox, 'after.jpg'));
    await twoSaved;
    cli.child.kill('SIGINT');
    const result = await cli.done;
    expect(result.code).toBe(0);
    const summary = ndjson(result.stdout).at(-1);
    expect(summary).toMatchObject({ type: 'summary', processed: 2, failed: 0 });
    expect((await readdir(join(inbox, 'results'))).sort()).toEqual(['after_color-grade.jpg', 'before_color-grade.jpg']);
    expect((await readdir(join(inbox, 'Done'))).sort()).toEqual(['after.jpg', 'before.jpg']);
    expect(sandbox.stats().executionsCreated).toBe(2);
  });

  it('--all runs the hot folders configured in settings', { timeout: 120_000 }, async () => {
    const inbox = join(dir, 'configured');
    await mkdir(inbox);
    const { createCore } = await import('../../../main/core/app/create-core');
    const core = await createCore({
      host: { host: 'cli', platform: process.platform, previewUrlFor: (p) => p },
      stateDir: join(dir, 'state'), env: { BATCHROOM_API_KEY: sandbox.apiKey }, serviceUrl: sandbox.url,
    });
    await core.handlers['hotFolders:save'](HotFolderConfigSchema.parse({
      id: 'configured', path: inbox, outputFolder: join(dir, 'configured-out'), workflowId: 'color-grade',
      parameters: { texts: { look: 'cool' } }, enabled: true, existingFiles: 'process',
    }));
    await core.shutdown({ graceful: true });
    const before = sandbox.stats().executionsCreated;
    const cli = startCli(['--service-url', sandbox.url, '--json', 'watch', '--all'], env());
    const saved = new Promise<void>((resolve) => cli.onLine((line) => {
      if ((JSON.parse(line) as { kind?: string }).kind === 'saved') resolve();
    }));
    const started = new Promise<void>((resolve) => cli.onLine((line) => {
      if ((JSON.parse(line) as { type?: string }).type === 'watching') resolve();
    }));
    await started;
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#118833' } }).jpeg().toFile(join(inbox, 'new.jpg'));
    await saved;
    cli.child.kill('SIGINT');
    const result = await cli.done;
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout).at(-1)).toMatchObject({ type: 'summary', processed: 1 });
    expect(await readdir(join(dir, 'configured-out'))).toEqual(['new_color-grade.jpg']);
    expect(sandbox.stats().executionsCreated).toBe(before + 1);
  });

  it('answers usage errors with exit code 2', async () => {
    const noWorkflow = await runCli(['watch', dir], env());
    expect(noWorkflow.code).toBe(2);
    expect(noWorkflow.stderr).toMatch(/--workflow/);
    const badPolicy = await runCli(['watch', dir, '--workflow', 'color-grade', '--existing', 'sometimes'], env());
    expect(badPolicy.code).toBe(2);
  });
});
