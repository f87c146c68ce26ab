import type { MetadataPolicy } from './engine/model';
import type { ResultFormat } from './naming';

// What an output format cannot hold of an original's metadata, in the estimate's words. Measured on results written
// by main/core/images/result-metadata.ts (test/main/images/metadata-matrix.test.ts and the issue 31 notes):
// - JPEG and TIFF hold EXIF (MakerNotes included), IPTC (IIM) and XMP: nothing is lost.
// - PNG and WebP hold EXIF (MakerNotes included) and XMP but no IIM in any place an app reads it, so the IPTC fields
//   are written as XMP (IPTC Core: keywords, creator, copyright notice, caption, title, city, country…) — which is
//   what Lightroom, Bridge and Capture One read — and say so.
// - WebP also drops the IIM-only fields that have no XMP counterpart (release and expiry dates, contact, edit status)
//   and Photoshop's copyright flag and URL; PNG keeps those in a raw-profile text chunk (ExifTool's way), so it loses
//   nothing ExifTool can read back.
// Under `strip` nothing is carried, so a format has nothing to lose; the ICC profile is kept on every format.

const IPTC_AS_XMP = 'IPTC kept as XMP';
const WEBP_LOST = 'IPTC-only release and expiry dates, contact and edit status are lost';

const LIMITS: Record<ResultFormat, readonly string[]> = {
  jpeg: [],
  tiff: [],
  png: [IPTC_AS_XMP],
  webp: [IPTC_AS_XMP, WEBP_LOST],
};

const FORMAT_NAMES: Record<ResultFormat, string> = { jpeg: 'JPEG', png: 'PNG', tiff: 'TIFF', webp: 'WebP' };

/** What `format` cannot hold of an original's metadata under `policy`, each as a short phrase ([] = nothing). */
export function metadataLimits(format: ResultFormat, policy: MetadataPolicy): string[] {
  return policy === 'strip' ? [] : [...LIMITS[format]];
}

/**
 * One line for a batch's result formats, or null when none of them loses anything:
 * "WebP: IPTC kept as XMP; IPTC-only release and expiry dates, contact and edit status are lost".
 */
export function describeMetadataLimits(formats: readonly ResultFormat[], policy: MetadataPolicy): string | null {
  const parts = [...new Set(formats)]
    .map((format) => ({ format, limits: metadataLimits(format, policy) }))
    .filter(({ limits }) => limits.length > 0)
    .map(({ format, limits }) => `${FORMAT_NAMES[format]}: ${limits.join('; ')}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}
