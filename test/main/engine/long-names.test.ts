import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempPathFor } from '../../../main/core/images/save';
import { tempFilesIn, waitForBatch } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// Issue 30 item 11: a photo with a 240-character name. Its result name was cut to exactly 255 bytes, so the JSON
// sidecar `<result>.json` could not be named (ENAMETOOLONG) — and until the temp clean-up, its `.batchroom-*.part`
// stayed in the output folder. Every file Batchroom names there, temps included, must fit 255 bytes.

const bytes = (name: string) => Buffer.byteLength(name);

describe('long source names', () => {
  let rig: SandboxRig;
  beforeEach(async () => {
    rig = await startSandboxRig({ credits: 1000 });
  });
  afterEach(() => rig.close());

  it.each([
    ['240 ASCII characters', 'a'.repeat(236), 'json'],
    ['250 bytes of é', 'é'.repeat(125), 'json'],
    ['249 bytes of CJK', '日'.repeat(83), 'xmp'],
  ] as const)('%s: saved with its %s sidecar, every name ≤ 255 bytes, no temp left', async (_what, stem, sidecar) => {
    const input = join(rig.dir.path, 'in');
    await mkdir(input, { recursive: true });
    const source = join(input, `${stem}.jpg`);
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#345678' } }).jpeg().toFile(source);
    const output = join(rig.dir.path, 'out');
    await mkdir(output);
    const batch = await rig.engine.createBatch({
      workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [source] }, output: { outputFolder: output, sidecar },
    } as Parameters<typeof rig.engine.createBatch>[0]);
    expect((await waitForBatch(rig.engine, batch.id)).counts.saved).toBe(1);
    const [item] = rig.engine.listItems({ batchId: batch.id }).items;
    expect(item!.reason).toBeNull(); // no "saved, but the JSON sidecar … was not written (ENAMETOOLONG)"
    const names = await readdir(output);
    expect(names).toHaveLength(2);
    for (const name of names) expect(bytes(name)).toBeLessThanOrEqual(255);
    if (sidecar === 'json') expect(JSON.parse(await readFile(`${item!.outputs[0]}.json`, 'utf8'))).toMatchObject({ generator: 'Batchroom' });
    expect(await tempFilesIn(output)).toEqual([]);
  });

  it('a temp name fits 255 bytes with its longest second file, whatever id it is given', () => {
    for (const id of ['x'.repeat(400), 'é'.repeat(200), '👨‍👩‍👧'.repeat(40)]) {
      const name = tempPathFor('/out', id).slice('/out/'.length);
      expect(bytes(`${name}_exiftool_tmp`)).toBeLessThanOrEqual(255);
      expect(name).toMatch(/^\.batchroom-.+-[0-9a-f]{8}\.part$/);
      expect(Buffer.from(name).toString('utf8')).toBe(name); // cut on a character boundary
    }
  });
});
