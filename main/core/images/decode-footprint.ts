import { closeSync, openSync, readSync } from 'node:fs';

// How much of a photo an upload encode decodes at once, in the unit of the encoder's memory budget (the file's bytes,
// encode-ahead.ts). A JPEG that is shrunk for the upload is decoded by libjpeg at 1/2, 1/4 or 1/8 scale
// (shrink-on-load): a 24 MP camera JPEG sent at 1K holds 1500×1000 pixels, not 6000×4000 — 1/16 of what its file size
// says. Counting it at full size let only one such photo decode at a time, leaving one of two cores idle while the
// encoder, not the service, was the bound (issue 34, item 6).

export interface JpegFrame {
  width: number;
  height: number;
  components: number;
  /**
   * Baseline or extended sequential (SOF0/SOF1) at 8 bits: decoded in one pass, so shrink-on-load saves memory.
   * A progressive (SOF2) JPEG keeps every coefficient of the whole image, at full size, however small its output;
   * lossless and 12-bit frames are not shrunk on load at all.
   */
  sequential: boolean;
}

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): the markers that carry the frame's size. */
const isFrameMarker = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Segments walked at most before giving up (a camera JPEG has about ten before its frame header). */
const MAX_SEGMENTS = 512;

/**
 * The frame size from a JPEG's header, reading only each segment's first bytes (an EXIF thumbnail or an MPF index
 * before the frame is skipped by its length, never read). Null for anything that is not a JPEG or has no frame
 * before its first scan.
 */
export function readJpegFrame(path: string): JpegFrame | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null; // the encoder reports an unreadable file
  }
  try {
    const head = Buffer.alloc(10);
    if (readSync(fd, head, 0, 2, 0) < 2 || head[0] !== 0xff || head[1] !== 0xd8) return null;
    let at = 2;
    for (let walked = 0; walked < MAX_SEGMENTS; walked++) {
      const got = readSync(fd, head, 0, 10, at);
      if (got < 4 || head[0] !== 0xff) return null;
      const marker = head.readUInt8(1);
      if (marker === 0xff) { at += 1; continue; } // fill byte before a marker
      if (isFrameMarker(marker)) {
        if (got < 10) return null;
        const sequential = (marker === 0xc0 || marker === 0xc1) && head[4] === 8;
        return { height: head.readUInt16BE(5), width: head.readUInt16BE(7), components: head[9]!, sequential };
      }
      if (marker === 0xda || marker === 0xd9) return null;
      at += 2 + head.readUInt16BE(2);
    }
    return null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The scale libjpeg decodes at when sharp resizes a width×height JPEG to fit inside edge×edge, as sharp's pipeline
 * chooses it (fastShrinkOnLoad, the default): the largest of 8, 4, 2 within the shrink, one step less when the
 * shrink is exactly that factor (libjpeg's rounding).
 */
export function jpegShrinkOnLoad(width: number, height: number, edge: number): number {
  const shrink = Math.max(width, height) / edge;
  let factor = shrink >= 8 ? 8 : shrink >= 4 ? 4 : shrink >= 2 ? 2 : 1;
  if (factor > 1 && Math.floor(shrink) === factor) factor /= 2;
  return factor;
}

/**
 * The photo's weight in the encoder's byte budget: its file size, divided by the area libjpeg's shrink-on-load saves
 * when the upload is a sequential JPEG fitted to `fitEdge` (null: sent at its own size, decoded whole). A progressive
 * JPEG counts its whole file: measured with sharp at 6000×4000 fitted to 1024, its decode grew RSS by 95 MB against
 * 24 MB for the same photo as a baseline JPEG.
 */
export function decodeFootprint(path: string, fileBytes: number, fitEdge: number | null): number {
  if (fitEdge === null) return fileBytes;
  const frame = readJpegFrame(path);
  if (!frame || !frame.sequential || frame.width === 0 || frame.height === 0) return fileBytes;
  const factor = jpegShrinkOnLoad(frame.width, frame.height, fitEdge);
  return Math.ceil(fileBytes / (factor * factor));
}
