import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../main/core/engine';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// Whatever the host (app, CLI, hot folder), a value over a field's limit is refused before pricing, and a batch that
// does not start leaves no output folder behind (issue 31 #19: an empty `Batchroom/` was left next to the photos).

describe('engine: field limits and the output folder', () => {
  let rig: SandboxRig;
  let sandbox: RunningSandbox;
  let dir: SandboxRig['dir'];
  let engine: Engine;

  beforeEach(async () => {
    rig = await startSandboxRig({ credits: 100 });
    ({ sandbox, dir, engine } = rig);
  });

  afterEach(() => rig.close());

  const captionSpec = async (caption: string) => {
    const input = join(dir.path, 'in');
    await mkdir(input, { recursive: true });
    await writePhotos(input, 1);
    return { workflowId: 'caption-watermark', parameters: { texts: { caption } }, inputs: { paths: [input] }, output: { outputFolder: '' } };
  };

  it('a 250-character caption on a 200-character field: estimate and Start refused (validation), nothing sent or created', async () => {
    const spec = await captionSpec('x'.repeat(250));
    await expect(engine.estimate(spec)).rejects.toMatchObject({ code: 'validation', message: expect.stringMatching(/texts\.caption is longer than 200 characters/) });
    await expect(engine.createBatch(spec)).rejects.toMatchObject({ code: 'validation' });
    expect(await readdir(join(dir.path, 'in'))).toEqual(['photo-000.jpg']);
    expect(sandbox.stats().executionsCreated).toBe(0);
  });

  it('a Start given up while it planned leaves no output folder it created', async () => {
    const spec = await captionSpec('Hello');
    const outputFolder = join(dir.path, 'new', 'results');
    const aborted = AbortSignal.abort();
    await expect(engine.createBatch({ ...spec, output: { outputFolder } }, { signal: aborted })).rejects.toThrow();
    expect(await readdir(dir.path)).not.toContain('new');
  });
});
