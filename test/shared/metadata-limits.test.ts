import { describe, expect, it } from 'vitest';
import { describeMetadataLimits, metadataLimits } from '../../shared/metadata-limits';

describe('metadataLimits: what an output format cannot hold of the metadata', () => {
  it('JPEG and TIFF hold everything a result keeps', () => {
    for (const policy of ['keep', 'strip-gps', 'strip'] as const) {
      expect(metadataLimits('jpeg', policy)).toEqual([]);
      expect(metadataLimits('tiff', policy)).toEqual([]);
    }
  });

  it('PNG and WebP keep IPTC as XMP; WebP loses the IPTC-only fields', () => {
    for (const policy of ['keep', 'strip-gps'] as const) {
      expect(metadataLimits('png', policy)).toEqual(['IPTC kept as XMP']);
      expect(metadataLimits('webp', policy)).toEqual(['IPTC kept as XMP', 'IPTC-only release and expiry dates, contact and edit status are lost']);
    }
  });

  it('says nothing under strip: there is no metadata to lose', () => {
    expect(metadataLimits('png', 'strip')).toEqual([]);
    expect(metadataLimits('webp', 'strip')).toEqual([]);
    expect(describeMetadataLimits(['webp', 'png'], 'strip')).toBeNull();
  });

  it('describes a batch once per format that loses something, in the order given', () => {
    expect(describeMetadataLimits(['jpeg', 'tiff'], 'keep')).toBeNull();
    expect(describeMetadataLimits([], 'keep')).toBeNull();
    expect(describeMetadataLimits(['jpeg', 'webp', 'png', 'webp'], 'strip-gps')).toBe(
      'WebP: IPTC kept as XMP; IPTC-only release and expiry dates, contact and edit status are lost · PNG: IPTC kept as XMP');
  });

  it('returns a copy the caller may change', () => {
    metadataLimits('png', 'keep').push('x');
    expect(metadataLimits('png', 'keep')).toEqual(['IPTC kept as XMP']);
  });
});
