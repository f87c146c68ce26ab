import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeForUpload } from '../../../main/core/images/encode';
import { heifDeclaredSize } from '../../../main/core/images/heif-size';
import { createThumbnailCache } from '../../../main/core/images/thumbnails';
import { createViewableOriginals } from '../../../main/core/images/viewable';
import { makeTempDir } from '../engine/helpers';

// Issue 30 item 3: a 34 KB HEIC declaring 12288×12288 was decoded in full (≈ 1.75 GB RSS, 11–28 s of CPU) before
// the 100 MP check. The size is now read from the HEIF boxes and the file refused before the decoder is loaded.

const decoderCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('heic-decode', async (importOriginal) => {
  const actual = (await importOriginal()) as { default: (input: { buffer: Buffer }) => Promise<unknown> };
  return { default: (input: { buffer: Buffer }) => { decoderCalls.count += 1; return actual.default(input); } };
});

const FIXTURE = fileURLToPath(new URL('../../fixtures/images/tiny.heic', import.meta.url));
const fit = { policy: 'fit' as const, stripMetadata: true };

/** Every `ispe` box of the file: offsets of its width and height. */
function ispeOffsets(file: Buffer): number[] {
  const out: number[] = [];
  for (let at = file.indexOf('ispe'); at !== -1; at = file.indexOf('ispe', at + 4)) out.push(at + 4 + 4);
  return out;
}

/** A valid 1-bit greyscale PNG of width×height, all black: kilobytes on disk, `width × height` pixels decoded. */
function blackPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth 1, colour type 0 (grey)
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8))); // filter byte 0, then zero bits
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

describe('HEIC decompression bombs', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let tiny: Buffer;
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-heic-bomb-');
    tiny = await readFile(FIXTURE);
  });
  afterAll(() => dir.cleanup());

  it('reads the declared size of the fixture (a 64×48 grid of one 64×64 tile)', () => {
    expect(heifDeclaredSize(tiny)).toEqual({ width: 64, height: 64 });
  });

  it.each([
    ['the primary item\'s ispe', (file: Buffer) => {
      const primary = ispeOffsets(file)[1]!; // the grid's (item 2, the primary); [0] is the tile's
      file.writeUInt32BE(12288, primary);
      file.writeUInt32BE(12288, primary + 4);
    }],
    ['a tile\'s ispe', (file: Buffer) => {
      const tile = ispeOffsets(file)[0]!;
      file.writeUInt32BE(12288, tile);
      file.writeUInt32BE(12288, tile + 4);
    }],
    ['the grid descriptor\'s canvas (ispe left small)', (file: Buffer) => {
      const idat = file.indexOf('idat') + 4; // version, flags, rows-1, columns-1, then 16-bit width and height
      file.writeUInt16BE(12288, idat + 4);
      file.writeUInt16BE(12288, idat + 6);
    }],
  ] as const)('refuses a small HEIC whose %s declares 12288×12288, without decoding', async (_where, patch) => {
    const bomb = Buffer.from(tiny);
    patch(bomb);
    expect(bomb.length).toBeLessThan(1024);
    const path = join(dir.path, 'bomb.heic');
    await writeFile(path, bomb);
    const before = decoderCalls.count;
    const rss = process.memoryUsage.rss();
    const started = performance.now();
    await expect(encodeForUpload(path, fit)).rejects.toThrow(/^image too large: more than 100 megapixels/);
    expect(performance.now() - started).toBeLessThan(500);
    expect(decoderCalls.count).toBe(before); // the decoder never saw it
    expect(process.memoryUsage.rss() - rss).toBeLessThan(100 * 1024 * 1024);
  });

  it('still decodes the honest file (and the decoder is the one counted)', async () => {
    const path = join(dir.path, 'tiny.heic');
    await writeFile(path, tiny);
    const before = decoderCalls.count;
    const out = await encodeForUpload(path, fit);
    expect([out.width, out.height]).toEqual([64, 48]);
    expect(decoderCalls.count).toBe(before + 1);
  });

  it('refuses a HEIF whose header declares no size at all', async () => {
    const path = join(dir.path, 'no-ispe.heic');
    const blind = Buffer.from(tiny);
    for (const at of ispeOffsets(blind)) blind.write('free', at - 8, 'latin1'); // each ispe becomes a free box
    await writeFile(path, blind);
    await expect(encodeForUpload(path, fit)).rejects.toThrow(/^HEIC\/HEIF file is corrupt/);
  });

  it.each([
    ['empty', Buffer.alloc(0)], ['a box larger than the file', Buffer.from('0000ffff6d657461', 'hex')],
    ['a 64-bit size past the end', Buffer.from('000000016d657461ffffffffffffffff', 'hex')], ['noise', Buffer.from('ab'.repeat(300), 'hex')],
  ])('parses %s without throwing', (_what, file) => {
    expect(heifDeclaredSize(file)).toBeNull();
  });

  it('queue thumbnails and on-screen previews refuse a bomb from its header: a 144 MP PNG (under the old 200 MP thumbnail limit) and the HEIC', async () => {
    const png = join(dir.path, 'bomb.png');
    await writeFile(png, blackPng(12_000, 12_000));
    const heic = join(dir.path, 'bomb-preview.heic');
    const bomb = Buffer.from(tiny);
    bomb.writeUInt32BE(12288, ispeOffsets(bomb)[1]!);
    bomb.writeUInt32BE(12288, ispeOffsets(bomb)[1]! + 4);
    await writeFile(heic, bomb);
    const honest = join(dir.path, 'honest.png');
    await writeFile(honest, blackPng(640, 480));

    const thumbnails = createThumbnailCache(join(dir.path, 'thumbs'));
    const started = performance.now();
    expect(await thumbnails.get(png)).toBeNull();
    expect(await thumbnails.get(heic)).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await thumbnails.get(honest)).not.toBeNull();

    const viewable = createViewableOriginals(join(dir.path, 'previews'), () => null);
    const calls = decoderCalls.count;
    expect(await viewable.get(png)).toBeNull(); // neither handed to the page nor rendered
    expect(await viewable.get(heic)).toBeNull();
    expect(decoderCalls.count).toBe(calls); // refused from its boxes, never decoded
    expect(await viewable.get(honest)).toBe(honest);
    // A sound HEIC is shown as a JPEG rendition (no browser draws HEVC), decoded in a worker thread: the decoder on
    // this thread (the one counted) is not called — a 12 MP HEIC held the event loop for 3.2 s there.
    expect(await viewable.get(FIXTURE)).toMatch(/previews\/[0-9a-f]{40}\.jpg$/);
    expect(decoderCalls.count).toBe(calls);
  });
});
