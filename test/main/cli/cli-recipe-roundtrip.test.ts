import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { writePhotos } from '../engine/helpers';
import { cliEnv, runCli } from './run-cli';

// A recipe exported on one machine and imported on another (another state folder) makes the same deliverables: the
// same file names in the same folders, the same formats and sizes, the same pixels.

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-roundtrip-'));
  sandbox = await startTestSandbox({ executionDurationMs: 50 });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(jpg|png|webp|tif)$/.test(entry.name)) out.push(relative(root, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

describe('recipe round trip, real CLI and sandbox', { timeout: 120_000 }, () => {
  it('export → import on another state folder → byte-identical pixels, names, formats and sizes', async () => {
    const shoot = join(dir, 'shoot');
    await mkdir(shoot, { recursive: true });
    await writePhotos(shoot, 2);
    const original = join(dir, 'client.batchroom-recipe.json');
    await writeFile(original, JSON.stringify({
      kind: 'batchroom-recipe', version: 1, name: 'Client', workflowId: 'color-grade', parameters: { texts: { look: 'warm' } },
      deliverables: [
        { format: 'jpeg', folder: 'full', namingTemplate: '{name}{ext}', quality: 90 },
        { format: 'png', folder: 'web', namingTemplate: '{name}_web{ext}', size: { fit: 'contain', width: 64, height: 64 } },
      ],
    }));
    const machine = (name: string) => {
      const env = cliEnv(join(dir, name, 'state'), { BATCHROOM_API_KEY: sandbox.apiKey });
      return (...args: string[]) => runCli(['--service-url', sandbox.url, ...args], env);
    };
    const a = machine('a');
    const b = machine('b');
    expect((await a('recipes', 'import', original)).code).toBe(0);
    const exported = join(dir, 'shared.batchroom-recipe.json');
    const exportRun = await a('recipes', 'export', 'client', '--out', exported);
    expect(exportRun.code, exportRun.stderr).toBe(0);
    expect((await b('recipes', 'import', exported)).code).toBe(0);
    // The file written on B says the same as A's, byte for byte.
    const again = join(dir, 'again.batchroom-recipe.json');
    expect((await b('recipes', 'export', 'Client', '--out', again)).code).toBe(0);
    expect(await readFile(again, 'utf8')).toBe(await readFile(exported, 'utf8'));

    for (const [run, name] of [[a, 'a'], [b, 'b']] as const) {
      const result = await run('run', '--recipe', 'Client', '--out', join(dir, name, 'out'), '--yes', '--rerun', shoot);
      expect(result.code, result.stderr).toBe(0);
    }
    const [onA, onB] = [await filesUnder(join(dir, 'a', 'out')), await filesUnder(join(dir, 'b', 'out'))];
    expect(onA).toHaveLength(4);
    expect(onB).toEqual(onA);
    for (const file of onA) {
      const [x, y] = await Promise.all(['a', 'b'].map((m) => sharp(join(dir, m, 'out', file)).raw().toBuffer({ resolveWithObject: true })));
      expect([y!.info.width, y!.info.height, y!.info.channels]).toEqual([x!.info.width, x!.info.height, x!.info.channels]);
      expect(y!.data.equals(x!.data)).toBe(true);
    }
  });
});
