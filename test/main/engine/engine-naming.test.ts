import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../main/core/engine';
import { waitForBatch, writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// The estimate's naming preview and the saver use the one namer: what the preview shows is what lands on disk,
// collision suffixes included, whatever order the downloads finish in.

describe('output names: preview equals disk', () => {
  let rig: SandboxRig;
  let dir: SandboxRig['dir'];
  let engine: Engine;

  beforeEach(async () => {
    rig = await startSandboxRig({ credits: 1000 });
    ({ dir, engine } = rig);
  });

  afterEach(() => rig.close());

  it('same-named photos from two folders and a file already there: suffixes in sorted source order, as previewed', async () => {
    const [a, b] = [join(dir.path, 'a'), join(dir.path, 'b')];
    await mkdir(a, { recursive: true });
    await mkdir(b, { recursive: true });
    const [fromA] = await writePhotos(a, 1);
    const [fromB] = await writePhotos(b, 1, { offset: 7 });
    const output = join(dir.path, 'out');
    await mkdir(output);
    await writeFile(join(output, 'photo-000_color-grade.jpg'), 'an earlier result');
    // b's photo is listed first: the order given does not decide who gets which name, the sorted source path does.
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [fromB!, fromA!] }, output: { outputFolder: output } };

    const estimate = await engine.estimate(spec);
    expect(estimate.namingPreview.map((n) => [basename(n.source), basename(n.output)])).toEqual([
      ['photo-000.jpg', 'photo-000_color-grade (3).jpg'],
      ['photo-000.jpg', 'photo-000_color-grade (2).jpg'],
    ]);
    expect(estimate.namingPreview.map((n) => n.source)).toEqual([fromB, fromA]);
    expect(estimate.namingPreviewMore).toBe(0);

    const batch = await engine.createBatch(spec);
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(2);
    const written = new Map(engine.listItems({ batchId: batch.id }).items.map((i) => [Object.values(i.sources)[0], i.outputs[0]]));
    for (const preview of estimate.namingPreview) expect(written.get(preview.source)).toBe(preview.output);
  });

  it('saves in the format the preview promised, whatever the service returns, and settles names in source order', async () => {
    // color-grade answers JPEG for a PNG: under format `source` the result is converted back to PNG, so the preview's
    // .png is what lands on disk; an explicit `jpeg` names and writes .jpg.
    const sources: string[] = [];
    for (const folder of ['a', 'b', 'c']) {
      await mkdir(join(dir.path, folder), { recursive: true });
      const path = join(dir.path, folder, 'photo.png');
      await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: folder.charCodeAt(0), g: 80, b: 40 } } }).png().toFile(path);
      sources.push(path);
    }
    const output = join(dir.path, 'out');
    const spec = { workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [...sources].reverse() }, output: { outputFolder: output } };
    const previewed = new Map((await engine.estimate(spec)).namingPreview.map((n) => [n.source, basename(n.output)]));
    expect(sources.map((s) => previewed.get(s))).toEqual(['photo_color-grade.png', 'photo_color-grade (2).png', 'photo_color-grade (3).png']);
    const batch = await engine.createBatch(spec);
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(3);
    const written = new Map(engine.listItems({ batchId: batch.id }).items.map((i) => [Object.values(i.sources)[0], i.outputs[0]!]));
    expect(sources.map((s) => basename(written.get(s)!))).toEqual(['photo_color-grade.png', 'photo_color-grade (2).png', 'photo_color-grade (3).png']);
    const meta = await sharp(written.get(sources[0]!)!).metadata();
    expect(meta.format).toBe('png');
    expect(meta.icc).toBeDefined();

    const asJpeg = await engine.createBatch({ ...spec, inputs: { paths: [sources[0]!] }, rerun: true, output: { outputFolder: join(dir.path, 'jpeg'), format: 'jpeg', quality: 80 } });
    await waitForBatch(engine, asJpeg.id);
    const jpeg = engine.listItems({ batchId: asJpeg.id }).items[0]!.outputs[0]!;
    expect(basename(jpeg)).toBe('photo_color-grade.jpg');
    expect((await sharp(jpeg).metadata()).format).toBe('jpeg');
  });

  it('lists five names and says how many more', async () => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 8);
    const estimate = await engine.estimate({ workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out') } });
    expect(estimate.namingPreview).toHaveLength(5);
    expect(estimate.namingPreviewMore).toBe(3);
    // What the files will be: the service's 1K output (the originals are smaller), JPEG like the originals, sRGB.
    expect(estimate.resultFile).toEqual({ longEdge: 1024, largestOriginalEdge: 96, formats: ['jpeg'], colour: 'srgb', metadata: 'keep' });
    const big = await engine.estimate({
      workflowId: 'upscale', parameters: { globalOverrides: { imageSize: '2K' } }, inputs: { paths: [input] },
      output: { outputFolder: join(dir.path, 'out'), format: 'tiff', colour: 'source', metadata: 'strip' },
    });
    expect(big.resultFile).toMatchObject({ longEdge: 2048, formats: ['tiff'], colour: 'source', metadata: 'strip' });
  });

  it('names a two-image item after the file in the workflow\'s first image field', async () => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    const [first, second] = await writePhotos(input, 2);
    const output = join(dir.path, 'out');
    // 'before' is the workflow's first image field; alphabetically 'after' would come first.
    const spec = { workflowId: 'before-after', inputs: { mappings: [{ after: first!, before: second! }] }, output: { outputFolder: output } };
    const estimate = await engine.estimate(spec);
    expect(basename(estimate.namingPreview[0]!.output)).toBe('photo-001_before-after.jpg');
    const batch = await engine.createBatch(spec);
    await waitForBatch(engine, batch.id);
    expect(engine.listItems({ batchId: batch.id }).items[0]!.outputs).toEqual([join(output, 'photo-001_before-after.jpg')]);
  });

  it('names several results of one photo after the labels the service gives them (the looks)', async () => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writePhotos(input, 2);
    const output = join(dir.path, 'out');
    const spec = {
      workflowId: 'look-variations', parameters: { switchSelections: { looks: ['mono', 'warm', 'cool'] } },
      inputs: { paths: [input] }, output: { outputFolder: output },
    };
    const batch = await engine.createBatch(spec);
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(2);
    const outputs = engine.listItems({ batchId: batch.id }).items.flatMap((item) => item.outputs.map((o) => basename(o))).sort();
    // The sandbox labels each result with its look's name, as services that return several results do.
    expect(outputs).toEqual([
      'photo-000_look-variations_Black & white.jpg', 'photo-000_look-variations_Cool.jpg', 'photo-000_look-variations_Warm.jpg',
      'photo-001_look-variations_Black & white.jpg', 'photo-001_look-variations_Cool.jpg', 'photo-001_look-variations_Warm.jpg',
    ]);
  });
});
