import { createHash } from 'node:crypto';
import type { OverlayOptions } from 'sharp';
import { loadSharp } from './sharp-loader';
import { pipeline, toRaster, type Raster } from './raster';

// Overlays composited onto a raster: text drawn as SVG (rendered by librsvg inside sharp), seeded grain and a
// vignette. Grain comes from our own PRNG seeded by the image content so the same input gives the same bytes
// (sharp's built-in noise is not seedable).

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

export type TextPosition = 'top' | 'center' | 'bottom';

export interface CaptionStyle {
  position: TextPosition;
  shadow: boolean;
  banner: boolean;
  uppercase: boolean;
}

/** SVG of `width` × `height` with the caption drawn at the requested position, sized relative to the image. */
export function captionSvg(text: string, width: number, height: number, style: CaptionStyle): Buffer {
  const content = escapeXml(style.uppercase ? text.toUpperCase() : text);
  // Shrink long captions so they fit the width: DejaVu Sans averages ~0.55 em per glyph.
  const fontSize = Math.max(10, Math.min(Math.round(height * 0.07), Math.floor((width * 0.9) / Math.max(1, text.length * 0.55))));
  const margin = Math.round(fontSize * 0.8);
  const y = style.position === 'top' ? margin + fontSize : style.position === 'center' ? Math.round(height / 2 + fontSize / 3) : height - margin;
  const bannerHeight = Math.round(fontSize * 1.8);
  const bannerY = Math.round(y - fontSize * 1.25);
  const banner = style.banner ? `<rect x="0" y="${bannerY}" width="${width}" height="${bannerHeight}" fill="rgba(0,0,0,0.55)"/>` : '';
  const shadow = style.shadow
    ? `<text x="50%" y="${y + 2}" dx="2" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="rgba(0,0,0,0.7)">${content}</text>`
    : '';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${banner}${shadow}` +
      `<text x="50%" y="${y}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#ffffff">${content}</text></svg>`,
  );
}

/** A small label in a corner (used by the before/after composite). */
export function labelSvg(text: string, width: number, height: number): Buffer {
  const fontSize = Math.max(10, Math.round(Math.min(width, height) * 0.06));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect x="${fontSize * 0.5}" y="${fontSize * 0.5}" width="${fontSize * (text.length * 0.62 + 1)}" height="${fontSize * 1.5}" rx="${fontSize * 0.3}" fill="rgba(0,0,0,0.6)"/>` +
      `<text x="${fontSize}" y="${fontSize * 1.55}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#fff">${escapeXml(text)}</text></svg>`,
  );
}

/**
 * Vignette layer: the gradient is rendered small by librsvg (slow at 2K) and scaled up by libvips — a smooth gradient
 * loses nothing — then handed to composite as raw RGBA.
 */
export async function vignetteLayer(width: number, height: number): Promise<OverlayOptions> {
  const scale = Math.min(1, 256 / Math.max(width, height));
  const small = vignetteSvg(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
  const sharp = await loadSharp();
  const data = await sharp(small).resize({ width, height, fit: 'fill' }).ensureAlpha().raw().toBuffer();
  return { input: data, raw: { width, height, channels: 4 } };
}

export function vignetteSvg(width: number, height: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs>` +
      `<radialGradient id="v" cx="50%" cy="50%" r="72%"><stop offset="55%" stop-color="#000" stop-opacity="0"/>` +
      `<stop offset="100%" stop-color="#000" stop-opacity="0.65"/></radialGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#v)"/></svg>`,
  );
}

/** Seed derived from pixel content, so grain is identical for identical inputs. */
export function contentSeed(raster: Raster): number {
  return createHash('sha1').update(raster.data.subarray(0, 65_536)).digest().readUInt32LE(0);
}

const GRAIN_TILE = 128;

/** A tileable grey noise tile (RGBA, low alpha) built from a seeded xorshift generator. */
/** A grain tile no larger than the image it covers (a composite layer may not exceed its base, tiled or not). */
export async function grainTile(seed: number, maxWidth = GRAIN_TILE, maxHeight = GRAIN_TILE): Promise<Buffer> {
  const width = Math.max(1, Math.min(GRAIN_TILE, maxWidth));
  const height = Math.max(1, Math.min(GRAIN_TILE, maxHeight));
  const pixels = Buffer.alloc(width * height * 4);
  let state = seed >>> 0 || 0x9e3779b9;
  for (let i = 0; i < width * height; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const value = state & 0xff;
    pixels[i * 4] = value;
    pixels[i * 4 + 1] = value;
    pixels[i * 4 + 2] = value;
    pixels[i * 4 + 3] = 80;
  }
  const sharp = await loadSharp();
  return sharp(pixels, { raw: { width, height, channels: 4 } }).png().toBuffer();
}

export async function composite(raster: Raster, layers: OverlayOptions[]): Promise<Raster> {
  if (layers.length === 0) return raster;
  return toRaster(pipeline(raster).composite(layers));
}
