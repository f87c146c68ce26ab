import { readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { ExifToolCommand } from '../../../main/core/images/capture';

// Photos whose capture date is written the way real cameras and catalogues write it, made on the spot: sharp for the
// pixels, ExifTool for the tags, and for FLIR (whose APP1 record ExifTool reads but cannot write) the segment itself.

/** A small JPEG with the given ExifTool assignments (`Group:Tag` → value). */
export async function writeTaggedJpeg(run: ExifToolCommand, path: string, tags: Record<string, string>): Promise<void> {
  await writeFile(path, await sharp({ create: { width: 32, height: 24, channels: 3, background: '#468' } }).jpeg().toBuffer());
  if (Object.keys(tags).length > 0) await run(['-overwrite_original', ...Object.entries(tags).map(([k, v]) => `-${k}=${v}`), path]);
}

/**
 * The APP1 `FLIR` segment a FLIR thermal camera (E-series, T-series, CAT S61) writes after its EXIF: an FFF record
 * directory with one CameraInfo record whose DateTimeOriginal is UTC seconds, milliseconds and the camera's zone in
 * minutes west of UTC (ExifTool prints it `2021:07:07 20:32:16.436-04:00`). Big-endian, as in the cameras' JPEGs.
 */
export function flirSegment(utcMs: number, offsetMinutesEast: number): Buffer {
  const camera = Buffer.alloc(0x400);
  camera.writeUInt16BE(2, 0); // byte-order check: 2 read in the record's order
  camera.writeUInt32BE(Math.floor(utcMs / 1000), 0x384);
  camera.writeUInt32BE(utcMs % 1000, 0x388);
  camera.writeInt16BE(-offsetMinutesEast, 0x38c);
  const header = Buffer.alloc(0x40);
  header.write('FFF\0CAMCTRL\0', 0, 'latin1');
  header.writeUInt32BE(100, 0x14); // FFF version
  header.writeUInt32BE(0x40, 0x18); // record directory offset
  header.writeUInt32BE(1, 0x1c); // records
  header.writeUInt32BE(2, 0x20); // next free index
  const entry = Buffer.alloc(0x20);
  entry.writeUInt16BE(0x20, 0); // CameraInfo
  entry.writeUInt16BE(1, 2);
  entry.writeUInt32BE(0x64, 4);
  entry.writeUInt32BE(1, 8);
  entry.writeUInt32BE(0x60, 0x0c);
  entry.writeUInt32BE(camera.length, 0x10);
  // chunk 0 of 1 (the count byte is "chunks - 1")
  const payload = Buffer.concat([Buffer.from('FLIR\0\x01\x00\x00', 'latin1'), header, entry, camera]);
  const marker = Buffer.alloc(4);
  marker.writeUInt16BE(0xffe1, 0);
  marker.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([marker, payload]);
}

/** A FLIR-style JPEG: EXIF as the cameras write it (no DateTimeOriginal, no offset), then the FLIR segment. */
export async function writeFlirJpeg(run: ExifToolCommand, path: string, wallClock: string, utcMs: number, offsetMinutesEast: number): Promise<void> {
  await writeTaggedJpeg(run, path, {
    'IFD0:Make': 'FLIR Systems AB', 'IFD0:Model': 'FLIR E8', 'IFD0:ModifyDate': wallClock, 'ExifIFD:CreateDate': wallClock,
  });
  const jpeg = await readFile(path);
  if (jpeg.readUInt16BE(2) !== 0xffe1) throw new Error('expected the EXIF APP1 first');
  const afterExif = 4 + jpeg.readUInt16BE(4);
  await writeFile(path, Buffer.concat([jpeg.subarray(0, afterExif), flirSegment(utcMs, offsetMinutesEast), jpeg.subarray(afterExif)]));
}
