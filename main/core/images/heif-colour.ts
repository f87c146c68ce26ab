import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

// HEIC is decoded outside libvips (WASM), which hands back bare RGBA: the photo's colour space, stored in the HEIF
// `colr` property (an embedded ICC profile, or an `nclx` code — iPhones say Display P3 either way), is lost. These
// helpers read it from the file and give it back to the pixels, so libvips converts them to sRGB like any JPEG.

const NCLX_DISPLAY_P3 = 12; // ITU-T H.273 colour primaries: SMPTE EG 432-1 (Display P3)
const CONTAINERS = new Set(['meta', 'iprp', 'ipco']);

export type HeifColour = { icc: Buffer } | { named: 'p3' } | null;

/** The colour of a HEIF file's image: its ICC profile, or a known `nclx` space; null when sRGB or unsaid. */
export function heifColourOf(file: Buffer): HeifColour {
  let nclx: HeifColour = null;
  const walk = (start: number, end: number, depth: number): HeifColour => {
    let at = start;
    while (at + 8 <= end && depth < 6) {
      let size = file.readUInt32BE(at);
      const type = file.toString('latin1', at + 4, at + 8);
      let header = 8;
      if (size === 1 && at + 16 <= end) {
        size = Number(file.readBigUInt64BE(at + 8));
        header = 16;
      } else if (size === 0) size = end - at;
      if (size < header || at + size > end) return null;
      if (type === 'colr' && size >= header + 4) {
        const kind = file.toString('latin1', at + header, at + header + 4);
        if (kind === 'prof' || kind === 'rICC') return { icc: Buffer.from(file.subarray(at + header + 4, at + size)) };
        if (kind === 'nclx' && size >= header + 6 && file.readUInt16BE(at + header + 4) === NCLX_DISPLAY_P3) nclx = { named: 'p3' };
      } else if (CONTAINERS.has(type)) {
        // `meta` is a full box: 4 bytes of version and flags before its children.
        const found = walk(at + header + (type === 'meta' ? 4 : 0), at + size, depth + 1);
        if (found) return found;
      }
      at += size;
    }
    return null;
  };
  return walk(0, file.length, 0) ?? nclx;
}

let p3Profile: Promise<Buffer> | null = null;

/** libvips' own Display P3 profile, as bytes (what an `nclx` P3 image means). */
function displayP3Profile(): Promise<Buffer> {
  p3Profile ??= sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } })
    .withIccProfile('p3').png().toBuffer().then(async (png) => (await sharp(png).metadata()).icc!);
  return p3Profile;
}

/**
 * Decoded RGBA pixels as a lossless PNG that carries `colour`'s profile (an iCCP chunk), for libvips to convert.
 * Without a known colour the pixels are returned as they are (sRGB assumed, as before).
 */
export async function pixelsWithProfile(rgba: Buffer, width: number, height: number, colour: HeifColour): Promise<Buffer | null> {
  if (!colour) return null;
  const icc = 'icc' in colour ? colour.icc : await displayP3Profile();
  const png = await sharp(rgba, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 0 }).toBuffer();
  return insertIccChunk(png, icc);
}

/** Inserts an iCCP chunk right after IHDR (the only place the PNG specification allows it, before the pixels). */
export function insertIccChunk(png: Buffer, icc: Buffer): Buffer {
  const ihdrEnd = 8 + 8 + png.readUInt32BE(8) + 4;
  const data = Buffer.concat([Buffer.from('ICC Profile\0\0', 'latin1'), deflateSync(icc)]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('iCCP', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)]);
}
