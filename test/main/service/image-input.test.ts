import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../main/core/service/errors';
import { sniffImageMime, toDataUrl, toImageInput } from '../../../main/core/service/image-input';

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));
const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + compatible.length * 4;
  return bytes(0, 0, 0, size, 'ftyp', major, 0, 0, 0, 0, ...compatible);
};

describe('sniffImageMime', () => {
  it.each([
    ['jpeg', bytes(0xff, 0xd8, 0xff, 0xe0), 'image/jpeg'],
    ['png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a), 'image/png'],
    ['gif87', bytes('GIF87a'), 'image/gif'],
    ['gif89', bytes('GIF89a'), 'image/gif'],
    ['webp', bytes('RIFF', 0, 0, 0, 0, 'WEBP'), 'image/webp'],
    ['tiff little-endian', bytes(0x49, 0x49, 0x2a, 0x00), 'image/tiff'],
    ['tiff big-endian', bytes(0x4d, 0x4d, 0x00, 0x2a), 'image/tiff'],
    ['avif', ftyp('avif', 'mif1', 'miaf'), 'image/avif'],
    ['avif as a compatible brand', ftyp('mif1', 'avif'), 'image/avif'],
    ['heic', ftyp('heic', 'mif1'), 'image/heic'],
    ['heix', ftyp('heix'), 'image/heic'],
    ['generic heif', ftyp('mif1', 'miaf'), 'image/heif'],
  ])('recognises %s', (_name, input, mime) => {
    expect(sniffImageMime(input)).toBe(mime);
  });

  it.each([
    ['text', bytes('hello world')],
    ['empty', bytes()],
    ['an mp4', ftyp('isom', 'mp41')],
    ['a truncated png', bytes(0x89, 'PN')],
    ['riff that is not webp', bytes('RIFF', 0, 0, 0, 0, 'WAVE')],
  ])('refuses %s', (_name, input) => {
    expect(sniffImageMime(input)).toBeNull();
  });
});

describe('toDataUrl / toImageInput', () => {
  let dir: string;
  let png: Buffer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-img-'));
    png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f00' } }).png().toBuffer();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('builds a data URL with the type sniffed from the bytes, not the file name', async () => {
    const misnamed = join(dir, 'photo.jpg');
    await writeFile(misnamed, png);
    const url = await toImageInput(misnamed);
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1]!, 'base64').equals(png)).toBe(true);
    expect(toDataUrl(new Uint8Array(png))).toBe(url);
  });

  it('passes http(s) URLs and data URLs through untouched', async () => {
    expect(await toImageInput('https://example.com/a.jpg')).toBe('https://example.com/a.jpg');
    expect(await toImageInput('HTTP://example.com/a.jpg')).toBe('HTTP://example.com/a.jpg');
    expect(await toImageInput('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });

  it('refuses a file that is not an image with an unsupported_media error', async () => {
    const fake = join(dir, 'notes.jpg');
    await writeFile(fake, 'just text');
    await expect(toImageInput(fake)).rejects.toSatisfy((e) => e instanceof ServiceError && e.code === 'unsupported_media');
  });
});
