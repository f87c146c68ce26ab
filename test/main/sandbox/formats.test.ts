import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../main/sandbox/inputs';
import { DEFAULT_LIMITS } from '../../../main/sandbox/options';
import { sniffImageType } from '../../../main/sandbox/sniff';

// Input formats and pixel layouts the sandbox accepts: every one decodes to the same RGBA working raster.

const base = () => sharp({ create: { width: 40, height: 30, channels: 3, background: '#884422' } });

describe('decodeImage', () => {
  it.each([
    ['CMYK JPEG', () => base().toColourspace('cmyk').jpeg().toBuffer(), 40, 30],
    ['16-bit PNG', () => base().toColourspace('rgb16').png().toBuffer(), 40, 30],
    ['greyscale PNG', () => base().greyscale().png().toBuffer(), 40, 30],
    ['grey + alpha PNG', () => base().greyscale().ensureAlpha(0.5).png().toBuffer(), 40, 30],
    ['GIF', () => base().gif().toBuffer(), 40, 30],
    ['TIFF', () => base().tiff().toBuffer(), 40, 30],
    ['WebP', () => base().webp().toBuffer(), 40, 30],
    ['AVIF', () => base().avif().toBuffer(), 40, 30],
    ['EXIF-rotated JPEG (orientation 6)', () => base().jpeg().withMetadata({ orientation: 6 }).toBuffer(), 30, 40],
    ['large JPEG (reduced to 2048 on the long edge)', () => sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#123456' } }).jpeg().toBuffer(), 2048, 683],
  ])('%s', async (_name, make, width, height) => {
    const bytes = await make();
    const type = sniffImageType(bytes);
    expect(type).toBeDefined();
    const raster = await decodeImage('images.photo', { bytes, type: type! }, DEFAULT_LIMITS);
    expect([raster.width, raster.height]).toEqual([width, height]);
    expect(raster.data.length).toBe(width * height * 4);
  });
});
