import type { Sharp } from 'sharp';

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

/**
 * Adds the look's colour operations to a pipeline. For pipelines that end in JPEG: sharp flattens alpha before its
 * colour operations, so the per-channel `linear` vectors have three entries (RGB).
 */
export function withLook(image: Sharp, look: Look): Sharp {
  switch (look) {
    case 'warm':
      return image.recomb([[1.12, 0.04, 0], [0, 1.02, 0], [0, 0, 0.84]]);
    case 'cool':
      return image.recomb([[0.88, 0, 0], [0, 1.0, 0.03], [0, 0.04, 1.14]]);
    case 'faded':
      // lifted blacks, softer whites, less saturation: the usual "film" look
      return image.linear([0.78, 0.78, 0.8], [34, 32, 38]).modulate({ saturation: 0.72 });
    case 'mono':
      return image.recomb(MONO);
    case 'vivid':
      return image.modulate({ saturation: 1.45 }).linear(1.08, -8);
    case 'sepia':
      return image.recomb(SEPIA);
  }
}

/** Steeper tone curve around the midpoint (JPEG pipelines: alpha is already flattened). */
export function withHighContrast(image: Sharp): Sharp {
  return image.linear(1.35, -45);
}
