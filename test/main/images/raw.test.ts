import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeForUpload } from '../../../main/core/images/encode';
import { NO_USABLE_PREVIEW } from '../../../main/core/images/raw-preview';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { classifyInputName } from '../../../shared/media/input-policy';
import { startSandboxRig, type SandboxRig } from '../engine/sandbox-rig';
import { makeTempDir, waitForBatch } from '../engine/helpers';
import { buildDng, previewJpeg } from './dng-kit';

const fit = { policy: 'fit' as const, stripMetadata: true };

/** The colour of the pixel near a corner of an encoded upload (to see which way up the preview went). */
async function cornerColour(data: Buffer, corner: 'top-left' | 'top-right'): Promise<[number, number, number]> {
  const { data: px, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
  const x = corner === 'top-left' ? 2 : info.width - 3;
  const at = (2 * info.width + x) * info.channels;
  return [px[at]!, px[at + 1]!, px[at + 2]!];
}

describe('RAW files: accepted everywhere, sent as their largest embedded preview', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let tool: ResultMetadataWriter;
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-raw-');
    tool = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
  });
  afterAll(async () => {
    await tool.end();
    await dir.cleanup();
  });

  it('accepts every common RAW extension, in any case', () => {
    for (const name of ['a.cr2', 'a.CR3', 'a.nef', 'a.arw', 'a.DNG', 'a.raf', 'a.orf', 'a.rw2']) expect(classifyInputName(name)).toEqual({ ok: true });
    expect(classifyInputName('a.x3f').ok).toBe(false);
  });

  it('picks the largest preview, not the first, and turns it by the RAW\'s orientation', async () => {
    const path = join(dir.path, 'rotated.dng');
    // a thumbnail first (JpgFromRaw), the real preview second (OtherImage); orientation 6 = rotate 90° clockwise
    await writeFile(path, buildDng({ previews: [await previewJpeg(320, 213), await previewJpeg(1600, 1067)], orientation: 6 }));
    const out = await encodeForUpload(path, { ...fit, exiftool: tool.command });
    expect(out.mime).toBe('image/jpeg');
    expect([out.width, out.height]).toEqual([683, 1024]);
    // the red block stored top-left is top-right once turned 90° clockwise
    const [r, g] = await cornerColour(out.data, 'top-right');
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    const [r2] = await cornerColour(out.data, 'top-left');
    expect(r2).toBeLessThan(100);
  });

  it('the RAW\'s orientation wins over one the preview carries itself', async () => {
    const path = join(dir.path, 'tagged.dng');
    // the preview says 180°, the RAW says 90° clockwise: the RAW is the truth (the camera's sensor was turned)
    const tagged = await sharp(await previewJpeg(1600, 1067)).withMetadata({ orientation: 3 }).jpeg().toBuffer();
    expect((await sharp(tagged).metadata()).orientation).toBe(3);
    await writeFile(path, buildDng({ previews: [tagged], orientation: 6 }));
    const out = await encodeForUpload(path, { ...fit, exiftool: tool.command });
    expect([out.width, out.height]).toEqual([683, 1024]);
    expect((await cornerColour(out.data, 'top-right'))[0]).toBeGreaterThan(200);
  });

  it('an upright RAW goes as its preview, at the size asked', async () => {
    const path = join(dir.path, 'upright.dng');
    await writeFile(path, buildDng({ previews: [await previewJpeg(2400, 1600)] }));
    const out = await encodeForUpload(path, { policy: 'fit', imageSize: '2K', stripMetadata: true, exiftool: tool.command });
    expect([out.width, out.height]).toEqual([2048, 1365]);
    const [r] = await cornerColour(out.data, 'top-left');
    expect(r).toBeGreaterThan(200);
  });

  it('a RAW whose previews are all thumbnails fails with a plain reason', async () => {
    const path = join(dir.path, 'tiny.dng');
    await writeFile(path, buildDng({ previews: [await previewJpeg(160, 120), await previewJpeg(1000, 667)] }));
    await expect(encodeForUpload(path, { ...fit, exiftool: tool.command })).rejects.toThrow(NO_USABLE_PREVIEW);
    const junk = join(dir.path, 'junk.nef');
    await writeFile(junk, Buffer.from('not a raw file at all'));
    await expect(encodeForUpload(junk, { ...fit, exiftool: tool.command })).rejects.toThrow(/RAW file/);
  });
});

describe('a RAW through the whole pipeline (sandbox)', () => {
  let rig: SandboxRig;
  beforeAll(async () => {
    rig = await startSandboxRig({ credits: 50 });
  });
  afterAll(async () => {
    await rig.close();
  });

  it('the estimate gives a RAW original\'s size as its sensor\'s, not its preview\'s', async () => {
    const input = join(rig.dir.path, 'sized');
    await mkdir(input);
    await writeFile(join(input, 'R5_0001.CR3'), buildDng({ previews: [await previewJpeg(1620, 1080)], sensor: { width: 8192, height: 5464 } }));
    const estimate = await rig.engine.estimate({ workflowId: 'upscale', inputs: { paths: [input] }, output: { outputFolder: join(rig.dir.path, 'sized-out') } });
    expect(estimate.resultFile?.largestOriginalEdge).toBe(8192);
  });

  it('is edited from its preview and the result keeps the RAW\'s metadata; a RAW without a usable preview costs nothing', async () => {
    const input = join(rig.dir.path, 'shoot');
    await mkdir(input);
    const good = join(input, 'DSC_0001.DNG');
    await writeFile(good, buildDng({ previews: [await previewJpeg(1600, 1067)], model: 'Z 8', make: 'NIKON', copyright: '(c) Ana Photographer' }));
    await writeFile(join(input, 'DSC_0002.dng'), buildDng({ previews: [await previewJpeg(640, 427)] }));
    const before = { bytes: await readFile(good), mtimeMs: (await stat(good)).mtimeMs };
    const balanceBefore = (await rig.client.getBalance()).apiCredits;
    const out = join(rig.dir.path, 'out');
    const batch = await rig.engine.createBatch({ workflowId: 'upscale', inputs: { paths: [input] }, output: { outputFolder: out, namingTemplate: '{name}{ext}' } });
    const summary = await waitForBatch(rig.engine, batch.id);
    expect(summary.counts.saved).toBe(1);
    // Refused while planning (issue 31 #9): never priced, never sent.
    expect(summary.counts.skipped).toBe(1);
    const items = rig.engine.listItems({ batchId: batch.id }).items;
    const failed = items.find((i) => i.state === 'skipped')!;
    expect(failed.reason).toContain(NO_USABLE_PREVIEW);
    expect(failed.creditsCharged).toBe(0);
    expect(failed.executionId).toBeNull();
    // one execution of 1 credit: the upscale of the good RAW, nothing for the other
    expect(balanceBefore - (await rig.client.getBalance()).apiCredits).toBe(1);

    const saved = items.find((i) => i.state === 'saved')!;
    expect(saved.outputs).toEqual([join(out, 'DSC_0001.jpg')]);
    const meta = await sharp(saved.outputs[0]!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1024, 683]);
    const tool = createResultMetadataWriter({ configDir: join(rig.dir.path, 'cfg2'), creatorTool: 'test' });
    try {
      const tags = (JSON.parse(await tool.command(['-j', '-n', '-Make', '-Model', '-Copyright', '-DateTimeOriginal', '-Orientation', '-ExifImageWidth', '-XMP-batchroom:SourceName', '-JpgFromRaw', '-DNGVersion', saved.outputs[0]!])) as Record<string, unknown>[])[0]!;
      expect(tags).toMatchObject({ Make: 'NIKON', Model: 'Z 8', Copyright: '(c) Ana Photographer', DateTimeOriginal: '2024:06:01 14:22:33', Orientation: 1, ExifImageWidth: 1024 });
      // the RAW's own previews and DNG structure stay behind
      expect(tags.JpgFromRaw).toBeUndefined();
      expect(tags.DNGVersion).toBeUndefined();
    } finally {
      await tool.end();
    }
    // the original RAW is only ever read
    expect(Buffer.compare(await readFile(good), before.bytes)).toBe(0);
    expect((await stat(good)).mtimeMs).toBe(before.mtimeMs);
  });
});
