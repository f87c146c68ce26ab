import type { AspectRatio, ImageSize } from '../../../shared/service/model';
import type { Sharp } from 'sharp';
import { pipeline, toRaster, type Raster } from './raster';

// globalOverrides applied to every result: imageSize fixes the long edge, aspectRatio fixes the shape. A workflow
// declares whether a shape change crops (fill the frame, lose edges) or pads (keep everything, add bars).

export { ASPECT_RATIOS, IMAGE_SIZES, type AspectRatio, type ImageSize } from '../../../shared/service/model';
export const DEFAULT_IMAGE_SIZE: ImageSize = '1K';

export const LONG_EDGE: Record<ImageSize, number> = { '1K': 1024, '2K': 2048 };

export type AspectMode = 'crop' | 'pad';

export interface OutputSpec {
  aspectRatio?: AspectRatio;
  imageSize: ImageSize;
}

/** Output width × height: the long edge is exactly the size's, the ratio is the override's or the source's. */
export function outputDimensions(spec: OutputSpec, sourceWidth: number, sourceHeight: number): { width: number; height: number } {
  const longEdge = LONG_EDGE[spec.imageSize];
  let ratio = sourceWidth / sourceHeight;
  if (spec.aspectRatio) {
    const [w, h] = spec.aspectRatio.split(':').map(Number) as [number, number];
    ratio = w / h;
  }
  if (ratio >= 1) return { width: longEdge, height: Math.max(1, Math.round(longEdge / ratio)) };
  return { width: Math.max(1, Math.round(longEdge * ratio)), height: longEdge };
}

export interface FittedPipeline {
  image: Sharp;
  width: number;
  height: number;
}

/** A pipeline resizing (up or down) to the output dimensions, cropping centred or padding with `padColour`. */
export function fitPipeline(raster: Raster, spec: OutputSpec, mode: AspectMode, padColour = '#000000'): FittedPipeline {
  const { width, height } = outputDimensions(spec, raster.width, raster.height);
  const image = pipeline(raster).resize({
    width,
    height,
    fit: mode === 'crop' ? 'cover' : 'contain',
    position: 'centre',
    background: padColour,
    kernel: 'lanczos3',
  });
  return { image, width, height };
}

export function fitToOutput(raster: Raster, spec: OutputSpec, mode: AspectMode, padColour = '#000000'): Promise<Raster> {
  return toRaster(fitPipeline(raster, spec, mode, padColour).image);
}
