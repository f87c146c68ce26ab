import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import sharp, { type Metadata, type OverlayOptions } from 'sharp';
import type { Watermark, WatermarkPosition } from '../../../shared/engine/model';

// A deliverable's watermark: the recipe names an image by path and SHA-256, so a logo replaced since the recipe was
// saved (or a recipe imported on a machine whose logo differs) is refused rather than stamped on a client's photos.
// It is decoded once per deliverable width into ready sRGB RGBA pixels (opacity already in its alpha), so a batch of
// 1,000 results costs one stat per result, not one read, hash and decode.

/** The watermark's file is gone, unreadable or not the one the recipe was saved with: nothing is stamped. */
export class WatermarkUnavailable extends Error {
  /** `reason`: 'changed', or why it cannot be read (an errno such as ENOENT, or 'not an image'). */
  constructor(readonly path: string, readonly reason: string) {
    super(reason === 'changed' ? `watermark ${path} changed since the recipe was saved` : `watermark ${path} cannot be read (${reason})`);
    this.name = 'WatermarkUnavailable';
  }
}

/** The margin between the watermark and the deliverable's edges: 2 % of its short edge. */
export const marginOf = (width: number, height: number): number => Math.round(Math.min(width, height) * 0.02);

interface Source {
  /** What stat said when the bytes were verified: a changed file is read and hashed again. */
  signature: string;
  bytes: Buffer;
  width: number;
  height: number;
}

interface Overlay {
  signature: string;
  pixels: Buffer;
  width: number;
  height: number;
}

// Bounded: a batch uses one or two watermarks at a few widths; a long-running app must not keep every logo it saw.
const MAX_SOURCES = 4;
const MAX_OVERLAY_BYTES = 256 * 1024 * 1024;
const sources = new Map<string, Source>();
const overlays = new Map<string, Overlay>();

/** Forgets every decoded watermark (tests, and a settings change that should re-read logos at once). */
export function clearWatermarkCache(): void {
  sources.clear();
  overlays.clear();
}

/**
 * The composite layer for `watermark` over a `width`×`height` deliverable, or null when it would change nothing
 * (opacity 0 — the file is still verified, so a missing logo is said whatever the opacity). Throws
 * WatermarkUnavailable when the file is gone, unreadable or its SHA-256 differs from the recipe's.
 */
export async function watermarkOverlay(watermark: Watermark, width: number, height: number): Promise<OverlayOptions | null> {
  const source = await verifiedSource(watermark);
  if (watermark.opacity <= 0) return null;
  const margin = marginOf(width, height);
  const size = overlaySize(source, watermark.scale, width, height, margin);
  const key = [watermark.path, watermark.sha256, size.width, size.height, watermark.opacity].join('\0');
  let overlay = overlays.get(key);
  if (!overlay || overlay.signature !== source.signature) {
    overlay = { signature: source.signature, ...size, pixels: await decodeOverlay(source.bytes, size, watermark.opacity) };
    remember(key, overlay);
  }
  const { left, top } = placement(watermark.position, width, height, overlay, margin);
  return { input: overlay.pixels, raw: { width: overlay.width, height: overlay.height, channels: 4 }, left, top };
}

/** The largest watermark file read (and the largest image a recipe hashes: recipe-images.ts). */
export const MAX_WATERMARK_BYTES = 64 * 1024 ** 2;

async function verifiedSource(watermark: Watermark): Promise<Source> {
  const key = `${watermark.path}\0${watermark.sha256}`;
  const facts = await stat(watermark.path).catch((error: unknown) => {
    throw new WatermarkUnavailable(watermark.path, codeOf(error));
  });
  if (!facts.isFile()) throw new WatermarkUnavailable(watermark.path, facts.isDirectory() ? 'EISDIR' : 'not a file');
  // A logo is kilobytes to a few megabytes: a huge file named as one is refused before it is read into memory.
  if (facts.size > MAX_WATERMARK_BYTES) throw new WatermarkUnavailable(watermark.path, `larger than ${MAX_WATERMARK_BYTES / 1024 ** 2} MB`);
  const signature = `${facts.dev}:${facts.ino}:${facts.size}:${facts.mtimeMs}`;
  const known = sources.get(key);
  if (known?.signature === signature) return known;
  let bytes: Buffer;
  try {
    bytes = await readFile(watermark.path);
  } catch (error) {
    throw new WatermarkUnavailable(watermark.path, codeOf(error));
  }
  // The bytes decoded are the bytes hashed: a file swapped between stat and read is still caught here.
  if (createHash('sha256').update(bytes).digest('hex') !== watermark.sha256) throw new WatermarkUnavailable(watermark.path, 'changed');
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw new WatermarkUnavailable(watermark.path, 'not an image');
  }
  const turned = (meta.orientation ?? 1) >= 5;
  const source = { signature, bytes, width: (turned ? meta.height : meta.width) ?? 1, height: (turned ? meta.width : meta.height) ?? 1 };
  sources.delete(key);
  sources.set(key, source);
  for (const old of sources.keys()) if (sources.size > MAX_SOURCES) sources.delete(old);
  return source;
}

/** `scale` × the deliverable's width, its aspect kept; shrunk further only if it would not fit inside the margins. */
function overlaySize(source: Source, scale: number, width: number, height: number, margin: number): { width: number; height: number } {
  let w = Math.max(1, Math.round(width * scale));
  let h = Math.max(1, Math.round((w * source.height) / source.width));
  const fit = Math.min(1, Math.max(1, width - 2 * margin) / w, Math.max(1, height - 2 * margin) / h);
  if (fit < 1) {
    w = Math.max(1, Math.floor(w * fit));
    h = Math.max(1, Math.floor(h * fit));
  }
  return { width: w, height: h };
}

/** RGBA in sRGB (a logo in another profile is converted, a JPEG logo gets an opaque alpha), alpha × opacity. */
async function decodeOverlay(bytes: Buffer, size: { width: number; height: number }, opacity: number): Promise<Buffer> {
  const pixels = await sharp(bytes).autoOrient().withIccProfile('srgb')
    .resize({ width: size.width, height: size.height, fit: 'fill', kernel: 'lanczos3' })
    .ensureAlpha().raw().toBuffer();
  if (opacity < 1) for (let i = 3; i < pixels.length; i += 4) pixels[i] = Math.round(pixels[i]! * opacity);
  return pixels;
}

function placement(position: WatermarkPosition, width: number, height: number, overlay: { width: number; height: number }, margin: number): { left: number; top: number } {
  const along = (room: number, where: 'start' | 'middle' | 'end') =>
    Math.max(0, where === 'start' ? margin : where === 'end' ? room - margin : Math.round(room / 2));
  const column = position.endsWith('left') ? 'start' : position.endsWith('right') ? 'end' : 'middle';
  const row = position.startsWith('top') ? 'start' : position.startsWith('bottom') ? 'end' : 'middle';
  return { left: along(width - overlay.width, column), top: along(height - overlay.height, row) };
}

function remember(key: string, overlay: Overlay): void {
  overlays.delete(key);
  overlays.set(key, overlay);
  let total = 0;
  for (const o of overlays.values()) total += o.pixels.length;
  for (const [old, o] of overlays) {
    if (total <= MAX_OVERLAY_BYTES || old === key) break;
    overlays.delete(old);
    total -= o.pixels.length;
  }
}

function codeOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
