import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeForUpload } from '../../../main/core/images/encode';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { makeTempDir } from '../engine/helpers';
import { buildDng } from './dng-kit';

// Issue 31 #2: a RAW's orientation is IFD0's. D70 NEFs and A330 ARWs also carry Orientation 1 in the full-resolution
// (sensor) SubIFD, which ExifTool's default pick prefers — the result came out sideways.

const fit = { policy: 'fit' as const, stripMetadata: true };

/** A preview no turn or mirror maps onto itself: red top-left, blue along the right half of the top, grey elsewhere. */
async function asymmetricJpeg(width: number, height: number): Promise<Buffer> {
  const block = (w: number, h: number, colour: string) => sharp({ create: { width: w, height: h, channels: 3, background: colour } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#808080' } })
    .composite([
      { input: await block(width / 4, height / 4, '#ff0000'), left: 0, top: 0 },
      { input: await block(width / 2, height / 8, '#0000ff'), left: width / 2, top: 0 },
    ])
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** Mean absolute difference per channel between two images of the same size (Infinity when the sizes differ). */
async function meanDiff(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((i) => sharp(i).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  if (x!.info.width !== y!.info.width || x!.info.height !== y!.info.height) return Infinity;
  let sum = 0;
  for (let i = 0; i < x!.data.length; i++) sum += Math.abs(x!.data[i]! - y!.data[i]!);
  return sum / x!.data.length;
}

/** What libvips makes of the preview tagged with `orientation`: the upright (or mirrored) reference. */
async function reference(preview: Buffer, orientation: number): Promise<Buffer> {
  const tagged = await sharp(preview).withMetadata({ orientation }).jpeg({ quality: 100 }).toBuffer();
  return sharp(tagged).rotate().resize(1024, 1024, { fit: 'inside' }).png().toBuffer();
}

describe('RAW orientation: IFD0 first, mirrored orientations exact', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let tool: ResultMetadataWriter;
  let preview: Buffer;
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-raw-orient-');
    tool = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
    preview = await asymmetricJpeg(1600, 1072);
  });
  afterAll(async () => {
    await tool.end();
    await dir.cleanup();
  });

  it('IFD0 says 6, the sensor SubIFD says 1 (a D70 NEF\'s shape): the result is turned by IFD0', async () => {
    const path = join(dir.path, 'DSC_0001.NEF');
    await writeFile(path, buildDng({ previews: [preview], orientation: 6, make: 'NIKON CORPORATION', model: 'NIKON D70' }));
    // the SubIFD becomes the full-resolution one, with its own Orientation 1, as in the camera's file
    await tool.command(['-overwrite_original', '-n', '-SubIFD:SubfileType=0', '-SubIFD:Orientation=1', path]);
    const tags = JSON.parse(await tool.command(['-j', '-n', '-a', '-G1', '-Orientation', '-JpgFromRaw', path])) as Record<string, unknown>[];
    expect(tags[0]).toMatchObject({ 'IFD0:Orientation': 6, 'SubIFD:Orientation': 1 });
    expect(JSON.parse(await tool.command(['-j', '-n', '-Orientation', path]))[0].Orientation).toBe(1); // ExifTool's pick
    const out = await encodeForUpload(path, { ...fit, exiftool: tool.command });
    expect([out.width, out.height]).toEqual([686, 1024]); // portrait: turned;
    expect(await meanDiff(out.data, await reference(preview, 6))).toBeLessThan(4);
  });

  for (const orientation of [2, 4, 5, 7, 8, 3]) {
    it(`orientation ${orientation} in IFD0 (SubIFD 1): pixels match sharp's own turn of the preview`, async () => {
      const path = join(dir.path, `DSC_${orientation}.ARW`);
      await writeFile(path, buildDng({ previews: [preview], orientation, make: 'SONY', model: 'DSLR-A330' }));
      await tool.command(['-overwrite_original', '-n', '-SubIFD:SubfileType=0', '-SubIFD:Orientation=1', path]);
      const out = await encodeForUpload(path, { ...fit, exiftool: tool.command });
      const ref = await reference(preview, orientation);
      expect(await meanDiff(out.data, ref)).toBeLessThan(4);
      // and not merely "close to anything": the unturned preview is far off
      if (orientation === 2 || orientation === 4) expect(await meanDiff(out.data, await reference(preview, 1))).toBeGreaterThan(10);
    });
  }
});
