import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishResult, readOriginalLook } from '../../../main/core/images/finish-result';
import { wideGamutOf } from '../../../main/core/images/icc';
import { createResultMetadataWriter, type Provenance, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import type { MetadataPolicy } from '../../../shared/engine/model';
import { metadataLimits } from '../../../shared/metadata-limits';
import { makeTempDir } from '../engine/helpers';
import { readTags } from '../metadata/photos';

// The fidelity matrix (issue 31): metadata policy keep / strip-gps / strip × output format JPEG / TIFF / PNG / WebP ×
// an sRGB and a Display P3 original, each result made as the saver makes it (finishResult under colour `source`, then
// the metadata writer). One ExifTool process, 60×40 px images.

const PROVENANCE: Provenance = {
  workflowId: 'upscale', workflowName: 'Upscale', parameters: {}, executionId: 'x1', creditsCharged: 1, sourceName: 'IMG_1.jpg', sourceSha256: null,
};
const POLICIES: MetadataPolicy[] = ['keep', 'strip-gps', 'strip'];
const FORMATS = ['jpeg', 'tiff', 'png', 'webp'] as const;
const PROFILES = ['srgb', 'p3'] as const;

/** EXIF as a camera writes it, and IPTC fields a photo agency's workflow writes in IIM only (no XMP copy of them). */
const ORIGINAL_TAGS = [
  '-IFD0:Make=Canon', '-IFD0:Model=Canon EOS R5', '-ExifIFD:DateTimeOriginal=2024:06:01 14:22:33', '-ExifIFD:FNumber=2.8',
  '-ExifIFD:LensModel=RF24-70mm F2.8 L IS USM', '-IFD0:Copyright=(c) Ann Example',
  '-GPS:GPSLatitude=48.8584', '-GPS:GPSLatitudeRef=N', '-GPS:GPSLongitude=2.2945', '-GPS:GPSLongitudeRef=E',
  '-GPS:GPSDateStamp=2024:06:01', '-GPS:GPSTimeStamp=12:22:33',
  '-IPTC:Keywords=beach', '-IPTC:Keywords=Überraschung', '-IPTC:By-line=Ann Example', '-IPTC:CopyrightNotice=(c) 2024 Ann Example',
  '-IPTC:City=Paris', '-IPTC:Country-PrimaryLocationName=France', '-IPTC:Sub-location=Champ de Mars',
  '-IPTC:Caption-Abstract=Sunset at the tower', '-IPTC:ObjectName=Tower sunset',
];
const EXIF_KEPT = { 'IFD0:Make': 'Canon', 'IFD0:Model': 'Canon EOS R5', 'ExifIFD:DateTimeOriginal': '2024:06:01 14:22:33', 'ExifIFD:FNumber': 2.8 };
/** The IPTC fields as XMP (IPTC Core / MWG): what a PNG or WebP result carries of them, and a JPEG/TIFF too. */
const IPTC_AS_XMP = {
  'XMP-dc:Subject': ['beach', 'Überraschung'], 'XMP-dc:Creator': ['Ann Example'], 'XMP-dc:Rights': '(c) 2024 Ann Example',
  'XMP-dc:Description': 'Sunset at the tower', 'XMP-dc:Title': 'Tower sunset',
};
const IPTC_LOCATION_AS_XMP = { 'XMP-photoshop:City': 'Paris', 'XMP-photoshop:Country': 'France', 'XMP-iptcCore:Location': 'Champ de Mars' };
const LOCATION = /^GPS:|:GPS|City$|Country|Sub-location|XMP-iptcCore:Location$/;

const list = (value: unknown) => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

describe('metadata fidelity matrix: policy × format × colour profile', () => {
  let writer: ResultMetadataWriter;
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-matrix-');
    writer = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
  });
  afterAll(async () => {
    await writer.end();
    await dir.cleanup();
  });

  for (const profile of PROFILES) {
    it(`${profile} original: ICC, EXIF, GPS and IPTC per policy on JPEG, TIFF, PNG and WebP`, async () => {
      const original = join(dir.path, `IMG-${profile}.jpg`);
      await writeFile(original, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c33' } }).withIccProfile(profile).jpeg().toBuffer());
      await writer.command(['-overwrite_original', '-charset', 'iptc=UTF8', '-IPTC:CodedCharacterSet=UTF8', ...ORIGINAL_TAGS, original]);
      const originalProfile = (await readTags(writer.command, original))['ICC_Profile:ProfileDescription'];
      expect(originalProfile).toBe(profile === 'p3' ? 'sP3C' : 'sRGB'); // libvips' own Display P3 and sRGB profiles
      // What a service returns: an untagged PNG (taken as sRGB).
      const service = join(dir.path, `service-${profile}.png`);
      await writeFile(service, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).png().toBuffer());
      const look = await readOriginalLook(original);
      for (const format of FORMATS) {
        for (const policy of POLICIES) {
          const at = `${profile} ${format} ${policy}`;
          const result = join(dir.path, `r-${profile}-${policy}.${format}`);
          await finishResult(service, result, { format, quality: 90, colour: 'source' }, look);
          expect((await writer.apply(result, { source: original, policy, provenance: PROVENANCE, width: 60, height: 40 })).warnings, at).toEqual([]);
          const tags = await readTags(writer.command, result);
          // ICC: always there, and the original's own wide space under colour `source`.
          expect(tags['ICC_Profile:ProfileDescription'], at).toBe(originalProfile);
          expect(wideGamutOf((await sharp(result).metadata()).icc), at).toBe(profile === 'p3' ? 'p3' : null);
          if (policy === 'strip') {
            // (a TIFF's IFD0 describes its own pixels: only the original's tags there are checked)
            expect(Object.keys(tags).filter((k) => /^(ExifIFD|GPS|IPTC|XMP-[a-z]+|Photoshop|IFD0:(Make|Model|Copyright)$)/i.test(k)), at).toEqual([]);
            continue;
          }
          for (const [tag, value] of Object.entries(EXIF_KEPT)) expect(tags[tag], `${at} ${tag}`).toBe(value);
          for (const [tag, value] of Object.entries(IPTC_AS_XMP)) expect(tags[tag], `${at} ${tag}`).toEqual(value);
          if (format === 'jpeg' || format === 'tiff') expect(list(tags['IPTC:Keywords']), at).toEqual(['beach', 'Überraschung']);
          const location = Object.keys(tags).filter((k) => LOCATION.test(k) && !k.startsWith('Composite:'));
          if (policy === 'strip-gps') {
            expect(location, at).toEqual([]);
          } else {
            expect(tags['GPS:GPSLatitude'], at).toBeCloseTo(48.8584, 4);
            for (const [tag, value] of Object.entries(IPTC_LOCATION_AS_XMP)) expect(tags[tag], `${at} ${tag}`).toBe(value);
          }
        }
      }
    });
  }

  // A photo whose XMP was edited after its IIM (Lightroom writes both): the XMP value is the one kept, not the IIM's.
  it("keeps the original's own XMP where it has both XMP and IIM", async () => {
    const original = join(dir.path, 'both.jpg');
    await writeFile(original, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c33' } }).jpeg().toBuffer());
    await writer.command(['-overwrite_original', '-IPTC:City=Paris', '-XMP-photoshop:City=Paris 7e', '-IPTC:Keywords=old', '-XMP-dc:Subject=new', original]);
    const result = join(dir.path, 'both.webp');
    await writeFile(result, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).webp().toBuffer());
    expect((await writer.apply(result, { source: original, policy: 'keep', provenance: PROVENANCE, width: 60, height: 40 })).warnings).toEqual([]);
    const tags = await readTags(writer.command, result);
    expect(tags['XMP-photoshop:City']).toBe('Paris 7e');
    expect(list(tags['XMP-dc:Subject'])).toEqual(['new']);
  });

  // shared/metadata-limits.ts tells the estimate what a format loses: held to what the files really carry.
  it('loses on each format exactly what metadataLimits says', async () => {
    const original = join(dir.path, 'agency.jpg');
    await writeFile(original, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c33' } }).jpeg().toBuffer());
    await writer.command(['-overwrite_original', '-IPTC:Keywords=harbour', '-IPTC:ReleaseDate=2024:07:01', '-IPTC:ExpirationDate=2025:01:01',
      '-IPTC:Contact=desk@agency.example', '-IPTC:EditStatus=final', original]);
    for (const format of FORMATS) {
      const result = join(dir.path, `agency.${format}`);
      await writeFile(result, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).toFormat(format).toBuffer());
      expect((await writer.apply(result, { source: original, policy: 'keep', provenance: PROVENANCE, width: 60, height: 40 })).warnings, format).toEqual([]);
      const tags = await readTags(writer.command, result);
      const iimOnly = ['IPTC:ReleaseDate', 'IPTC:ExpirationDate', 'IPTC:Contact', 'IPTC:EditStatus'].filter((tag) => tags[tag] !== undefined);
      const saysLost = metadataLimits(format, 'keep').some((text) => /release and expiry dates, contact and edit status are lost/.test(text));
      expect(iimOnly, format).toEqual(saysLost ? [] : ['IPTC:ReleaseDate', 'IPTC:ExpirationDate', 'IPTC:Contact', 'IPTC:EditStatus']);
      expect(list(tags['XMP-dc:Subject']), format).toEqual(['harbour']);
    }
  });
});
