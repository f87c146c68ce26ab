import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeForUpload } from '../../../main/core/images/encode';
import { finishResult, readOriginalLook } from '../../../main/core/images/finish-result';
import { heifColourOf, pixelsWithProfile } from '../../../main/core/images/heif-colour';
import { wideGamutOf } from '../../../main/core/images/icc';
import { waitForBatch } from '../engine/helpers';
import { startSandboxRig, type SandboxRig } from '../engine/sandbox-rig';
import { ADOBE_RGB, convert, DISPLAY_P3, matrixProfile, PATCH_SIZE, PATCHES, patchStrip, PROPHOTO, SRGB, worstDeltaE, type MatrixSpace } from './colour-kit';

// Colour through the whole pipeline, measured as CIEDE2000 against colours computed independently (colour-kit.ts):
// the upload (16-bit and profiled inputs), the HEIC decoder's lost profile, and the saved result's profile,
// format and DPI. ΔE ≤ 1.0 is below what a trained eye sees side by side.

type Container = 'jpeg' | 'png' | 'tiff';
const CASES: [string, MatrixSpace, 8 | 16, Container][] = [
  ['8-bit sRGB JPEG', SRGB, 8, 'jpeg'],
  ['8-bit Display P3 JPEG', DISPLAY_P3, 8, 'jpeg'],
  ['8-bit Adobe RGB JPEG', ADOBE_RGB, 8, 'jpeg'],
  ['16-bit sRGB TIFF', SRGB, 16, 'tiff'],
  ['16-bit ProPhoto TIFF', PROPHOTO, 16, 'tiff'],
  ['16-bit Adobe RGB PNG', ADOBE_RGB, 16, 'png'],
];

/** The patch strip in a container, its profile kept as it is (no conversion). */
async function fixture(space: MatrixSpace, depth: 8 | 16, container: Container): Promise<Buffer> {
  const png = await patchStrip(space, depth);
  if (container === 'png') return png;
  const kept = sharp(png).keepIccProfile();
  return container === 'tiff' ? kept.tiff({ compression: 'lzw' }).toBuffer() : kept.jpeg({ quality: 100, chromaSubsampling: '4:4:4' }).toBuffer();
}

let rig: SandboxRig;
beforeAll(async () => {
  rig = await startSandboxRig({ credits: 1000 });
});
afterAll(() => rig.close());

describe('uploads keep their colours', () => {
  it.each(CASES)('%s', async (_name, space, depth, container) => {
    const path = join(rig.dir.path, `upload-${space.gamma}-${depth}.${container}`);
    const bytes = await fixture(space, depth, container);
    await writeFile(path, bytes);
    expect(await worstDeltaE(bytes)).toBeLessThan(0.75); // the fixture itself is right (8 bits in a wide space: ≈ 0.5)
    const upload = await encodeForUpload(path, { policy: 'fit', stripMetadata: true });
    expect(await worstDeltaE(upload.data)).toBeLessThanOrEqual(1.0);
  });

  it('a Display P3 HEIC: the profile the decoder drops is read from the file and applied', async () => {
    const width = PATCHES.length * PATCH_SIZE;
    const rgba = Buffer.alloc(width * PATCH_SIZE * 4, 255);
    const p3 = PATCHES.map((p) => convert(p, DISPLAY_P3).map((v) => Math.round(v * 255)));
    for (let i = 0; i < width * PATCH_SIZE; i++) p3[Math.floor((i % width) / PATCH_SIZE)]!.forEach((v, c) => (rgba[i * 4 + c] = v));
    // What a HEIF file says of its colour: an embedded profile (`colr`/`prof`) or an nclx code 12 (Display P3).
    const profile = matrixProfile(DISPLAY_P3);
    const box = (type: string, body: Buffer) => {
      const b = Buffer.concat([Buffer.alloc(4), Buffer.from(type, 'latin1'), body]);
      b.writeUInt32BE(b.length, 0);
      return b;
    };
    const colr = (payload: Buffer) => box('colr', payload);
    const heif = (property: Buffer) => Buffer.concat([box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1')), box('meta', Buffer.concat([Buffer.alloc(4), box('iprp', box('ipco', property))]))]);
    const withProfile = heifColourOf(heif(colr(Buffer.concat([Buffer.from('prof', 'latin1'), profile]))));
    expect(withProfile && 'icc' in withProfile && withProfile.icc.equals(profile)).toBe(true);
    expect(heifColourOf(heif(colr(Buffer.from([...Buffer.from('nclx', 'latin1'), 0, 12, 0, 13, 0, 6, 0x80]))))).toEqual({ named: 'p3' });
    expect(heifColourOf(heif(colr(Buffer.from([...Buffer.from('nclx', 'latin1'), 0, 1, 0, 13, 0, 6, 0x80]))))).toBeNull();

    expect(await worstDeltaE(await sharp(rgba, { raw: { width, height: PATCH_SIZE, channels: 4 } }).png().toBuffer())).toBeGreaterThan(2); // taken as sRGB: wrong
    for (const colour of [withProfile, { named: 'p3' as const }]) {
      const tagged = await pixelsWithProfile(rgba, width, PATCH_SIZE, colour);
      expect(await worstDeltaE(tagged!)).toBeLessThanOrEqual(1.0);
    }
  });
});

describe('results carry a profile, their format and the original\'s DPI', () => {
  it.each(['jpeg', 'png', 'tiff', 'webp'] as const)('an untagged sRGB result saved as %s: sRGB profile embedded, colours unchanged, 300 dpi', async (format) => {
    const result = join(rig.dir.path, `result-${format}.part`);
    await sharp(await patchStrip(SRGB, 8)).withIccProfile('srgb', { attach: false }).png().toFile(result);
    expect((await sharp(result).metadata()).icc).toBeUndefined();
    const finished = await finishResult(result, result, { format, quality: 92, colour: 'srgb' }, { icc: null, density: 300 });
    const meta = await sharp(result).metadata();
    expect({ format: meta.format, profile: finished.profile, hasIcc: Boolean(meta.icc) }).toEqual({ format: format === 'tiff' ? 'tiff' : format, profile: 'srgb', hasIcc: true });
    if (format !== 'webp') expect(Math.round(meta.density ?? 0)).toBe(300);
    expect(await worstDeltaE(result)).toBeLessThanOrEqual(1.0);
  });

  it.each([['Display P3', DISPLAY_P3, 'p3'], ['Adobe RGB', ADOBE_RGB, 'adobe-rgb'], ['ProPhoto', PROPHOTO, 'prophoto']] as const)(
    'colour policy "source": back into the original\'s %s, same colours', async (_name, space, gamut) => {
      const result = join(rig.dir.path, `source-${gamut}.part`);
      await sharp(await patchStrip(SRGB, 8)).png().toFile(result);
      const finished = await finishResult(result, result, { format: 'tiff', quality: 92, colour: 'source' }, { icc: matrixProfile(space), density: null });
      expect(finished.profile).toBe(gamut);
      expect(wideGamutOf((await sharp(result).metadata()).icc)).toBe(gamut);
      expect(await worstDeltaE(result)).toBeLessThanOrEqual(1.0);
    });

  it('reads what it needs of the original from its header, and copes with what it cannot read', async () => {
    const original = join(rig.dir.path, 'original.jpg');
    await sharp(await patchStrip(SRGB, 8)).withMetadata({ density: 240 }).jpeg().toFile(original);
    expect(await readOriginalLook(original)).toMatchObject({ density: 240 });
    expect(await readOriginalLook(join(rig.dir.path, 'gone.jpg'))).toEqual({ icc: null, density: null });
  });
});

describe('the whole pipeline: original → upload → service (upscale) → saved result', () => {
  it.each(CASES)('%s', async (name, space, depth, container) => {
    const input = join(rig.dir.path, 'in', name.replace(/\W+/g, '-'));
    const path = join(input, `patches.${container === 'jpeg' ? 'jpg' : container === 'tiff' ? 'tif' : 'png'}`);
    await mkdir(input, { recursive: true });
    await writeFile(path, await fixture(space, depth, container));
    const output = join(rig.dir.path, 'out', name.replace(/\W+/g, '-'));
    for (const colour of ['srgb', 'source'] as const) {
      const batch = await rig.engine.createBatch({ workflowId: 'upscale', inputs: { paths: [path] }, rerun: true, output: { outputFolder: join(output, colour), colour } });
      const done = await waitForBatch(rig.engine, batch.id);
      expect(done.counts.saved).toBe(1);
      const saved = rig.engine.listItems({ batchId: batch.id }).items[0]!.outputs[0]!;
      const meta = await sharp(saved).metadata();
      // Format `source`: a TIFF stays a TIFF, a PNG a PNG, a JPEG a JPEG — with a profile embedded.
      expect(meta.format).toBe(container === 'tiff' ? 'tiff' : container);
      expect(meta.icc).toBeDefined();
      expect(wideGamutOf(meta.icc)).toBe(colour === 'source' ? wideGamutOf(matrixProfile(space)) : null);
      expect(await worstDeltaE(saved)).toBeLessThanOrEqual(1.0);
    }
  });

  it('a copy of the original is never touched', async () => {
    const path = join(rig.dir.path, 'untouched.tif');
    await writeFile(path, await fixture(PROPHOTO, 16, 'tiff'));
    await copyFile(path, `${path}.copy`);
    const before = await stat(path);
    const batch = await rig.engine.createBatch({ workflowId: 'upscale', inputs: { paths: [path] }, rerun: true, output: { outputFolder: join(rig.dir.path, 'untouched-out') } });
    await waitForBatch(rig.engine, batch.id);
    expect((await readFile(path)).equals(await readFile(`${path}.copy`))).toBe(true);
    expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
  });
});
