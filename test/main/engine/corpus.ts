import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { copyFile, mkdir, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

// The bad-input corpus, made on the fly: each entry says how the engine must treat it — saved, failed with a reason
// matching `reason`, or skipped with a reason — so one batch over the folder checks them all and that the batch
// carries on past every bad file.

export type Expectation = { outcome: 'saved' } | { outcome: 'failed' | 'skipped'; reason: RegExp };

export interface CorpusEntry {
  /** Path relative to the corpus folder. */
  file: string;
  expect: Expectation;
}

const HEIC_FIXTURE = fileURLToPath(new URL('../../fixtures/images/tiny.heic', import.meta.url));

const solid = (width: number, height: number, colour: string, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: colour } });

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG claiming 60000×60000 pixels whose few kilobytes of deflate expand to gigabytes. */
function bombPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60_000, 0);
  ihdr.writeUInt32BE(60_000, 4);
  ihdr[8] = 8; ihdr[9] = 0; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  const rows = Buffer.alloc(60_001 * 64); // first 64 rows of zeros (filter byte + pixels); the rest is "missing"
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function makeReadOnly(folder: string): Promise<() => Promise<void>> {
  if (process.getuid?.() === 0) {
    // root ignores permission bits: the immutable attribute is the one thing that stops it.
    execFileSync('chattr', ['+i', folder]);
    return async () => { execFileSync('chattr', ['-i', folder]); };
  }
  await chmod(folder, 0o555);
  return () => chmod(folder, 0o755);
}

export function canMakeReadOnly(): boolean {
  if (process.platform === 'win32') return false;
  if (process.getuid?.() !== 0) return true;
  // The immutable attribute needs CAP_LINUX_IMMUTABLE and a file system that has it: try it once.
  const probe = mkdtempSync(join(tmpdir(), 'batchroom-chattr-'));
  try {
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

export async function buildCorpus(folder: string, { readOnlyCase = true } = {}): Promise<CorpusEntry[]> {
  await mkdir(join(folder, 'sub ünï'), { recursive: true });
  if (readOnlyCase) await mkdir(join(folder, 'locked'), { recursive: true });
  await mkdir(join(folder, 'folder.jpg'), { recursive: true });
  const entries: CorpusEntry[] = [];
  const ok = (file: string) => entries.push({ file, expect: { outcome: 'saved' } });
  const fail = (file: string, reason: RegExp) => entries.push({ file, expect: { outcome: 'failed', reason } });
  const skip = (file: string, reason: RegExp) => entries.push({ file, expect: { outcome: 'skipped', reason } });
  const put = (file: string, bytes: Buffer | string) => writeFile(join(folder, file), bytes);

  const jpeg = await solid(120, 80, '#336699').jpeg().toBuffer();
  await put('zero-byte.jpg', Buffer.alloc(0)); fail('zero-byte.jpg', /empty file/);
  await put('truncated.jpg', jpeg.subarray(0, Math.floor(jpeg.length * 0.6))); fail('truncated.jpg', /truncated or corrupt|corrupt/);
  await put('text-renamed.jpg', 'this is not a photo\n'.repeat(20)); fail('text-renamed.jpg', /not an image/);
  await put('html-renamed.png', '<!doctype html><html><body>nope</body></html>'); fail('html-renamed.png', /not an image/);
  await put('bomb.png', bombPng()); fail('bomb.png', /too large|megapixels/);
  const png = await solid(50, 50, '#88aa22').png().toBuffer();
  const badCrc = Buffer.from(png); badCrc[40] = badCrc[40]! ^ 0xff; badCrc[41] = badCrc[41]! ^ 0xff;
  await put('bad-crc.png', badCrc); fail('bad-crc.png', /corrupt|cannot read|truncated/);
  const gif = await sharp([await solid(30, 30, '#f00').png().toBuffer(), await solid(30, 30, '#00f').png().toBuffer()], { join: { animated: true } }).gif().toBuffer();
  await put('truncated.gif', gif.subarray(0, 30)); fail('truncated.gif', /truncated|corrupt|cannot read|not an image/);
  const heic = await (await import('node:fs/promises')).readFile(HEIC_FIXTURE);
  await put('truncated.heic', heic.subarray(0, 200)); fail('truncated.heic', /HEIC|corrupt/);

  await put('cmyk.jpg', await solid(90, 60, '#208040').toColourspace('cmyk').jpeg().toBuffer()); ok('cmyk.jpg');
  await put('16-bit.png', await solid(90, 60, '#208040').toColourspace('rgb16').png().toBuffer()); ok('16-bit.png');
  await put('exif-rotated.jpg', await solid(90, 60, '#a04080').withMetadata({ orientation: 6 }).jpeg().toBuffer()); ok('exif-rotated.jpg');
  await put('animated.gif', gif); ok('animated.gif');
  await copyFile(HEIC_FIXTURE, join(folder, 'camera.heic')); ok('camera.heic');
  await put('фото отпуск.jpg', await solid(70, 50, '#101010').jpeg().toBuffer()); ok('фото отпуск.jpg');
  await put('😀 emoji 📷.png', await solid(70, 50, '#202020').png().toBuffer()); ok('😀 emoji 📷.png');
  await put('alpha.png', await solid(64, 64, '#ff000080', 4).png().toBuffer()); ok('alpha.png');
  await put('grey.jpg', await solid(64, 48, '#777777').greyscale().jpeg().toBuffer()); ok('grey.jpg');
  await put('scan.tiff', await solid(64, 48, '#305070').tiff().toBuffer()); ok('scan.tiff');
  await put('web.webp', await solid(64, 48, '#503070').webp().toBuffer()); ok('web.webp');
  await put('modern.avif', await solid(64, 48, '#705030').avif().toBuffer()); ok('modern.avif');
  await put('png-named.jpg', await solid(64, 48, '#123456').png().toBuffer()); ok('png-named.jpg');
  await put('jpeg-named.png', await solid(64, 48, '#654321').jpeg().toBuffer()); ok('jpeg-named.png');
  await put('large.jpg', await solid(3000, 2000, '#345678').jpeg({ quality: 70 }).toBuffer()); ok('large.jpg');
  await put('tiny-1x1.png', await solid(1, 1, '#00ff00').png().toBuffer()); ok('tiny-1x1.png');
  await put(`${'long-name-'.repeat(18)}.jpg`, await solid(40, 40, '#0f0f0f').jpeg().toBuffer()); ok(`${'long-name-'.repeat(18)}.jpg`);
  await put('sub ünï/nested.jpg', await solid(40, 40, '#f0f0f0').jpeg().toBuffer()); ok('sub ünï/nested.jpg');
  await put('folder.jpg/inside.jpg', await solid(40, 40, '#0ff0f0').jpeg().toBuffer()); ok('folder.jpg/inside.jpg');
  await put('zz-copy-of-grey.jpg', await (await import('node:fs/promises')).readFile(join(folder, 'grey.jpg'))); skip('zz-copy-of-grey.jpg', /duplicate of/);
  if (readOnlyCase) {
    // Its mirrored output folder is made read-only by the test: processed, paid, refused by the disk — the batch
    // pauses (output-unwritable) with the result kept, and saves it without a new execution once the folder is unlocked.
    await put('locked/cannot-save.jpg', await solid(40, 40, '#ababab').jpeg().toBuffer());
    ok('locked/cannot-save.jpg');
  }

  await put('.DS_Store', 'x'); skip('.DS_Store', /system file/);
  await put('Thumbs.db', 'x'); skip('Thumbs.db', /system file/);
  await put('.hidden.jpg', jpeg); skip('.hidden.jpg', /hidden/);
  await put('download.jpg.crdownload', jpeg); skip('download.jpg.crdownload', /partial/);
  await put('upload.jpg.part', jpeg); skip('upload.jpg.part', /partial/);
  await put('~$lock.jpg', jpeg); skip('~$lock.jpg', /temporary/);
  await put('notes.txt', 'hello'); skip('notes.txt', /not a supported image type/);
  await put('vector.svg', '<svg/>'); skip('vector.svg', /not a supported image type/);
  await put('old.bmp', 'BM'); skip('old.bmp', /not a supported image type/);
  await put('README', 'x'); skip('README', /no file extension/);
  return entries;
}
