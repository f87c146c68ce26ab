import type { Sharp } from 'sharp';
import type { DeliverableSize } from '../../../shared/engine/model';

// A deliverable's pixel size, made from the one paid result. Pure arithmetic first (so the caller knows the exact
// frame before decoding anything: the watermark is scaled to it), then one resize step in the finisher's pipeline.
//
// Never enlarged: a deliverable is made from pixels the service returned, and upscaling them locally would only
// invent detail the photographer paid the service to make properly. So
// - `long-edge` larger than the result's long edge, and `contain` larger than the result both ways: the result's size;
// - `cover` whose W×H the result cannot fill without enlarging: centre-cropped to W:H at the largest size the result
//   holds (a 1080×1080 square from an 800×600 result is 600×600) — the shape the deliverable asked for, at the
//   resolution there is.

/** The deliverable's exact size and how the result is brought to it; null: the result as it is. */
export interface DeliverableFrame {
  width: number;
  height: number;
  /** `fill`: scaled to exactly width×height (same aspect, to the pixel); `cover`: scaled if needed and centre-cropped. */
  fit: 'fill' | 'cover';
}

/** The frame for a result of `width`×`height` (upright), or null when the deliverable is the result's own size. */
export function deliverableFrame(width: number, height: number, size: DeliverableSize | undefined): DeliverableFrame | null {
  // A header without a size (never seen from a decodable result) is left as it is rather than guessed at.
  if (!size || size.fit === 'original' || !(width > 0 && height > 0)) return null;
  if (size.fit === 'long-edge') return scaled(width, height, size.longEdge / Math.max(width, height));
  if (size.fit === 'contain') return scaled(width, height, Math.min(size.width / width, size.height / height));
  // cover: scaled down to fill W×H when the result is at least that large both ways, else cropped to W:H unscaled.
  const scale = Math.max(size.width / width, size.height / height);
  if (scale <= 1) return size.width === width && size.height === height ? null : { width: size.width, height: size.height, fit: 'cover' };
  const crop = width * size.height > height * size.width
    ? { width: Math.max(1, Math.round((height * size.width) / size.height)), height }
    : { width, height: Math.max(1, Math.round((width * size.height) / size.width)) };
  return crop.width === width && crop.height === height ? null : { ...crop, fit: 'cover' };
}

function scaled(width: number, height: number, scale: number): DeliverableFrame | null {
  if (scale >= 1) return null;
  // The side the scale came from lands exactly on its target (e.g. 2048); the other rounds, never past its bound.
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)), fit: 'fill' };
}

/** Adds the frame's resize to `pipeline` (lanczos3: sharp detail without ringing at photo downscales). */
export function resizeTo(pipeline: Sharp, frame: DeliverableFrame): Sharp {
  return pipeline.resize({ width: frame.width, height: frame.height, fit: frame.fit, position: 'centre', kernel: 'lanczos3' });
}

/** The result's upright size: EXIF orientations 5–8 turn it a quarter. */
export function uprightSize(meta: { width?: number; height?: number; orientation?: number }): { width: number; height: number } {
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  return (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}
