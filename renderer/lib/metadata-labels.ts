import type { MetadataPolicy, SidecarKind } from '../../shared/engine/model';

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
