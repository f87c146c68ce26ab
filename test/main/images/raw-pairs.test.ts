import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawPairs } from '../../../shared/engine/model';
import { describeRawPairs } from '../../../shared/engine/skip-text';
import { startSandboxRig, type SandboxRig } from '../engine/sandbox-rig';
import { waitForBatch } from '../engine/helpers';
import { buildDng, previewJpeg } from './dng-kit';

// RAW+JPEG shooting: IMG_n.DNG + IMG_n.JPG are one photo, estimated, paid and saved once (unless `both`).

describe('RAW+JPEG pairs', () => {
  let rig: SandboxRig;
  let shoot: string;
  beforeAll(async () => {
    rig = await startSandboxRig({ credits: 100 });
    shoot = join(rig.dir.path, 'shoot');
    await mkdir(shoot);
    const preview = await previewJpeg(1200, 800);
    // each RAW its own bytes (another capture time), or the duplicate check would send identical files once
    const dng = (i: number) => buildDng({ previews: [preview], dateTimeOriginal: `2024:06:01 14:22:0${i}` });
    for (let i = 1; i <= 3; i++) {
      await writeFile(join(shoot, `IMG_${i}.DNG`), dng(i));
      // the camera's JPEG of the same shot: different bytes from the preview, so the duplicate check cannot pair them
      await writeFile(join(shoot, `IMG_${i}.JPG`), await sharp(preview).modulate({ brightness: 1 + i / 10 }).jpeg().toBuffer());
    }
    await writeFile(join(shoot, 'IMG_9.dng'), dng(9)); // a RAW alone (its JPEG deleted): not a pair
    await writeFile(join(shoot, 'img_4.jpg'), await previewJpeg(300, 200, '#802020')); // a JPEG alone
  });
  afterAll(async () => {
    await rig.close();
  });

  const estimate = (rawPairs?: RawPairs) => rig.engine.estimate({
    workflowId: 'upscale', inputs: { paths: [shoot], ...(rawPairs ? { rawPairs } : {}) }, output: { outputFolder: join(rig.dir.path, `out-${rawPairs ?? 'default'}`) },
  });
  const names = (paths: readonly string[]) => paths.map((p) => basename(p)).sort();

  it('jpeg (the default): each pair is edited once from its JPEG; the RAW is listed with the reason', async () => {
    const e = await estimate();
    expect(e.itemCount).toBe(5);
    expect(e.totalCost).toBe(5);
    expect(names(e.namingPreview.map((n) => n.source))).toEqual(['IMG_1.JPG', 'IMG_2.JPG', 'IMG_3.JPG', 'IMG_9.dng', 'img_4.jpg']);
    const pairs = e.skipped.filter((s) => s.rawPair);
    expect(names(pairs.map((s) => s.path))).toEqual(['IMG_1.DNG', 'IMG_2.DNG', 'IMG_3.DNG']);
    expect(pairs.find((s) => s.path.endsWith('IMG_2.DNG'))!.reason).toBe('RAW+JPEG pair: edited once, from IMG_2.JPG');
    expect(describeRawPairs(e.skipped)).toBe('3 RAW+JPEG pairs counted once');
    expect((await estimate('jpeg')).itemCount).toBe(5);
  });

  it('raw: each pair is edited once from its RAW', async () => {
    const e = await estimate('raw');
    expect(e.itemCount).toBe(5);
    expect(names(e.namingPreview.map((n) => n.source))).toEqual(['IMG_1.DNG', 'IMG_2.DNG', 'IMG_3.DNG', 'IMG_9.dng', 'img_4.jpg']);
    expect(names(e.skipped.filter((s) => s.rawPair).map((s) => s.path))).toEqual(['IMG_1.JPG', 'IMG_2.JPG', 'IMG_3.JPG']);
    expect(describeRawPairs(e.skipped)).toBe('3 RAW+JPEG pairs counted once');
  });

  it('both: every file is its own photo, nothing is said about pairs', async () => {
    const e = await estimate('both');
    expect(e.itemCount).toBe(8);
    expect(e.skipped.filter((s) => s.rawPair)).toEqual([]);
    expect(describeRawPairs(e.skipped)).toBeNull();
  });

  it('a run pays and saves each pair once', async () => {
    const spec = { workflowId: 'upscale', inputs: { paths: [shoot] }, output: { outputFolder: join(rig.dir.path, 'out-run'), namingTemplate: '{name}{ext}' } };
    const batch = await rig.engine.createBatch(spec);
    const summary = await waitForBatch(rig.engine, batch.id);
    expect(summary.counts.saved).toBe(5);
    expect(summary.creditsSpent).toBe(5);
    const outputs = rig.engine.listItems({ batchId: batch.id }).items.flatMap((i) => i.outputs);
    expect(names(outputs)).toEqual(['IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg', 'IMG_9.jpg', 'img_4.jpg']);
  });

  it('hot folders pair a file with its partner already in the folder; a run of one file given alone does not', async () => {
    const alone = { workflowId: 'upscale', inputs: { paths: [join(shoot, 'IMG_2.DNG')] }, output: { outputFolder: join(rig.dir.path, 'out-alone') } };
    expect((await rig.engine.estimate(alone)).itemCount).toBe(1);
    const arrived = await rig.engine.estimate({ ...alone, source: { kind: 'hotFolder', hotFolderId: 'h1' }, rerun: true });
    expect(arrived.itemCount).toBe(0);
    expect(arrived.skipped).toEqual([{ path: join(shoot, 'IMG_2.DNG'), reason: 'RAW+JPEG pair: edited once, from IMG_2.JPG', rawPair: true }]);
    // under `raw` the RAW arriving is the one edited; the lone RAW has no partner to pair with
    const raw = { ...alone, inputs: { paths: [join(shoot, 'IMG_2.DNG'), join(shoot, 'IMG_9.dng')], rawPairs: 'raw' as const }, source: { kind: 'hotFolder' as const, hotFolderId: 'h1' }, rerun: true };
    expect((await rig.engine.estimate(raw)).itemCount).toBe(2);
  });

  it('says 1 pair in the singular', () => {
    expect(describeRawPairs([{ path: '/a.CR3', reason: 'x', rawPair: true }, { path: '/b.txt', reason: 'y' }])).toBe('1 RAW+JPEG pair counted once');
  });
});
