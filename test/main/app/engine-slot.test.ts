import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineSlot } from '../../../main/core/app/engine-slot';
import { createEventBus } from '../../../main/core/app/event-bus';
import { createLogger } from '../../../main/core/log';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { until } from '../../helpers/until';
import { listFilesDeep, makeTempDir, tempFilesIn, waitForBatch, writePhotos, type TempDir } from '../engine/helpers';

// The host's stop: a graceful stop that outlasts its time limit (a result crawling down a slow link) becomes a hard
// one before the journal closes, so nothing keeps downloading into a folder the app has let go of.

let sandbox: RunningSandbox | null = null;
let dir: TempDir | null = null;
afterEach(async () => {
  await sandbox?.close();
  await dir?.cleanup();
  sandbox = null;
  dir = null;
});

/** Temps of results being written: in the output folder, and the result cache's puts (a download streams there first). */
async function partials(out: string, stateDir: string): Promise<string[]> {
  const cache = join(stateDir, 'result-cache');
  const cached = (await readdir(cache).catch(() => [] as string[])).filter((n) => n.endsWith('.tmp')).map((n) => join(cache, n));
  return [...await tempFilesIn(out).catch(() => [] as string[]), ...cached];
}

async function tempBytes(out: string, stateDir: string): Promise<number> {
  let bytes = 0;
  for (const path of await partials(out, stateDir)) bytes += (await stat(path).catch(() => null))?.size ?? 0;
  return bytes;
}

describe('engine slot stop', () => {
  it('a graceful stop past its time limit cuts the download in progress; the next start saves it once', { timeout: 60_000 }, async () => {
    dir = await makeTempDir();
    sandbox = await startTestSandbox({ executionDurationMs: 50, credits: 100 });
    sandbox.setFaults({ slowDownloadRate: 1, slowDownloadBytesPerSecond: 400 });
    const warnings: string[] = [];
    const logger = createLogger({ sink: (entry) => { if (entry.level === 'warn') warnings.push(entry.message); }, minLevel: 'warn' });
    const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    const deps = { mode: 'eager' as const, stateDir: join(dir.path, 'state'), client, concurrency: () => 1, bus: createEventBus(), logger };
    const input = join(dir.path, 'in');
    const out = join(dir.path, 'out');
    await mkdir(input);
    await mkdir(deps.stateDir, { recursive: true });
    await writePhotos(input, 1, { width: 320, height: 240 });

    const slot = createEngineSlot(deps);
    const { engine } = await slot.ensure();
    const batch = await engine.createBatch({ workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: out } });
    await until(async () => (await tempBytes(out, deps.stateDir)) > 0, 'the result to start streaming into its temp file');
    const stopAt = Date.now();
    await slot.stop(true, 300);
    expect(Date.now() - stopAt).toBeLessThan(3_000);
    expect(warnings).toContain('engine did not stop in time');
    expect(await partials(out, deps.stateDir)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // and nothing goes on streaming behind the scenes
    expect(await partials(out, deps.stateDir)).toEqual([]);

    sandbox.setFaults({ slowDownloadRate: 0 });
    const next = createEngineSlot(deps);
    const restarted = await next.ensure();
    const done = await waitForBatch(restarted.engine, batch.id, { timeoutMs: 20_000 });
    expect(done.counts.saved).toBe(1);
    expect(await listFilesDeep(out)).toHaveLength(1);
    expect(sandbox.stats().executionsCreated).toBe(1);
    await next.stop(true, 5_000);
  });
});
