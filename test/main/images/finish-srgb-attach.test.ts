import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { finishResult } from '../../../main/core/images/finish-result';

// An untagged 8-bit result (what the sandbox returns) finished as a JPEG in sRGB gets sRGB's profile attached after
// encoding, not through libvips' sRGB → sRGB transform (issue 34 #6: a third of a 1K result's finishing time). The
// file must be the one the transform made, byte for byte: same pixels, same profile, same DPI, same tags.

const root = await mkdtemp(join(tmpdir(), 'batchroom-finish-srgb-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** A noisy untagged JPEG with an EXIF block, as a service might send it. */
async function untaggedResult(): Promise<string> {
  const width = 320, height = 213;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = ((i * 2654435761) >>> 24) & 255;
  const path = join(root, 'result.jpg');
  await writeFile(path, await sharp(raw, { raw: { width, height, channels: 3 } }).withExif({ IFD0: { Software: 'service 1.0' } }).jpeg({ quality: 88 }).toBuffer());
  return path;
}

/** The transform's file: what finishResult wrote for such a result before. */
async function throughTransform(source: string, quality: number, density: number | null): Promise<Buffer> {
  let pipeline = sharp(source).toColourspace('srgb').autoOrient();
  pipeline = density ? pipeline.withMetadata({ density, icc: 'srgb' }) : pipeline.withIccProfile('srgb');
  return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, chromaSubsampling: quality >= 90 ? '4:4:4' : '4:2:0' }).toBuffer();
}

describe('finishResult, untagged result to an sRGB JPEG', () => {
  it.each([[85, null], [92, null], [85, 300], [92, 240]] as const)('q%i, DPI %s: the same file as through the sRGB transform', async (quality, density) => {
    const source = await untaggedResult();
    const target = join(root, `out-${quality}-${density}.jpg`);
    const finished = await finishResult(source, target, { format: 'jpeg', quality, colour: 'srgb' }, { icc: null, density });
    const written = await readFile(target);
    expect(written.equals(await throughTransform(source, quality, density))).toBe(true);
    const meta = await sharp(written).metadata();
    expect(meta.icc?.length).toBeGreaterThan(0);
    expect(meta.density).toBe(density ?? 72);
    expect({ width: finished.width, height: finished.height, profile: finished.profile }).toEqual({ width: 320, height: 213, profile: 'srgb' });
  });
});
