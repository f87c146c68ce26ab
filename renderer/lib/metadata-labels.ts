import type { ColourPolicy, MetadataPolicy, OutputFormat, RawPairs, SidecarKind } from '../../shared/engine/model';

/** How each metadata policy reads in a menu (docs/photo-pipeline.md says what each keeps). */
export const METADATA_LABELS: Record<MetadataPolicy, string> = {
  keep: 'Keep (EXIF, IPTC, XMP, location)',
  'strip-gps': 'Keep, without location',
  strip: 'Remove (colour profile and DPI only)',
};

/** How each sidecar kind reads in a menu. */
export const SIDECAR_LABELS: Record<SidecarKind, string> = {
  none: 'None',
  json: 'JSON (.json, provenance)',
  xmp: 'XMP (.xmp, for Lightroom and Capture One)',
};

/** How each output format reads in a menu. */
export const FORMAT_LABELS: Record<OutputFormat, string> = {
  source: 'Same as the original (HEIC, AVIF and RAW as JPEG)',
  jpeg: 'JPEG',
  png: 'PNG',
  tiff: 'TIFF (8-bit, LZW)',
  webp: 'WebP',
};

/** How each colour policy reads in a menu. */
export const COLOUR_LABELS: Record<ColourPolicy, string> = {
  srgb: 'sRGB (every screen and web page)',
  source: 'The original\'s wide gamut (Display P3, Adobe RGB, ProPhoto), else sRGB',
};

/** How each RAW+JPEG pairing reads in a menu (a RAW and a JPEG of the same name are one photo). */
export const RAW_PAIR_LABELS: Record<RawPairs, string> = {
  jpeg: 'Edit the JPEG (the camera\'s own development)',
  raw: 'Edit the RAW\'s embedded preview',
  both: 'Edit both (two photos, each paid)',
};
