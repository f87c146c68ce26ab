import { pipeline, toRaster, type Raster } from './raster';

// Colour looks as plain matrix / linear operations: deterministic, cheap, and visibly different from each other so
// a person trying the sandbox sees that something happened.

export const LOOKS = ['warm', 'cool', 'faded', 'mono', 'vivid', 'sepia'] as const;
export type Look = (typeof LOOKS)[number];

export const LOOK_LABELS: Record<Look, string> = {
  warm: 'Warm',
  cool: 'Cool',
  faded: 'Faded film',
  mono: 'Black & white',
  vivid: 'Vivid',
  sepia: 'Sepia',
};

type Matrix3 = [[number, number, number], [number, number, number], [number, number, number]];

const MONO: Matrix3 = [
  [0.299, 0.587, 0.114],
  [0.299, 0.587, 0.114],
  [0.299, 0.587, 0.114],
];
const SEPIA: Matrix3 = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];

export async function applyLook(raster: Raster, look: Look): Promise<Raster> {
  const image = pipeline(raster);
  switch (look) {
    case 'warm':
      return toRaster(image.recomb([[1.12, 0.04, 0], [0, 1.02, 0], [0, 0, 0.84]]));
    case 'cool':
      return toRaster(image.recomb([[0.88, 0, 0], [0, 1.0, 0.03], [0, 0.04, 1.14]]));
    case 'faded':
      // lifted blacks, softer whites, less saturation: the usual "film" look
      return toRaster(image.linear([0.78, 0.78, 0.8, 1], [34, 32, 38, 0]).modulate({ saturation: 0.72 }));
    case 'mono':
      return toRaster(image.recomb(MONO));
    case 'vivid':
      return toRaster(image.modulate({ saturation: 1.45 }).linear([1.08, 1.08, 1.08, 1], [-8, -8, -8, 0]));
    case 'sepia':
      return toRaster(image.recomb(SEPIA));
  }
}

/** Steeper tone curve around the midpoint. */
export async function highContrast(raster: Raster): Promise<Raster> {
  return toRaster(pipeline(raster).linear([1.35, 1.35, 1.35, 1], [-45, -45, -45, 0]));
}
