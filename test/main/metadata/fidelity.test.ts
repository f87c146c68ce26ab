import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultMetadataWriter, type Provenance, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { writeSidecar } from '../../../main/core/images/sidecar';
import type { MetadataPolicy } from '../../../shared/engine/model';
import { makeTempDir } from '../engine/helpers';
import { CAMERA_TAGS, readTags, writeCameraJpeg } from './photos';

// Issue 31 #1, #4, #6, #7: what real camera files lost on the way to a result, checked on the writer itself with
// originals written by ExifTool (exact rationals, GPS date/time, UTF-8 IPTC with its 1:90 marker).

const PROVENANCE: Provenance = {
  workflowId: 'auto-enhance', workflowName: 'Auto enhance', parameters: {}, executionId: 'x1', creditsCharged: 1,
  sourceName: 'IMG_1.jpg', sourceSha256: null,
};
const POLICIES: MetadataPolicy[] = ['keep', 'strip-gps', 'strip'];
const FORMATS = ['jpeg', 'tiff', 'png', 'webp'] as const;
const PROFILES = ['srgb', 'p3'] as const;

describe('result metadata fidelity', () => {
  let writer: ResultMetadataWriter;
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-fidelity-');
    writer = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
  });
  afterAll(async () => {
    await writer.end();
    await dir.cleanup();
  });
  const apply = (result: string, source: string, policy: MetadataPolicy) =>
    writer.apply(result, { source, policy, provenance: PROVENANCE, width: 60, height: 40 });

  // #1: `-all= --ICC_Profile:all` behind exiftool-vendored's `-FileName<FileName` no longer protected the profile.
  for (const profile of PROFILES) {
    for (const format of FORMATS) {
      it(`keeps the result's ${profile} ICC profile under every policy (${format})`, async () => {
        const original = join(dir.path, `orig-${profile}.jpg`);
        await writeFile(original, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c33' } }).withIccProfile(profile).jpeg().toBuffer());
        await writer.command(['-overwrite_original', ...Object.entries(CAMERA_TAGS).map(([k, v]) => `-${k}=${v}`), original]);
        for (const policy of POLICIES) {
          const result = join(dir.path, `r-${profile}-${policy}.${format}`);
          await writeFile(result, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).withIccProfile(profile).toFormat(format).toBuffer());
          const before = (await readTags(writer.command, result))['ICC_Profile:ProfileDescription'];
          expect(before, `${profile} ${format}`).toBeTruthy();
          expect((await apply(result, original, policy)).warnings).toEqual([]);
          const after = await readTags(writer.command, result);
          expect(after['ICC_Profile:ProfileDescription'], `${policy} ${format} ${profile}`).toBe(before);
          if (policy === 'strip') expect(after['IFD0:Make'], `${policy} ${format}`).toBeUndefined();
        }
      });
    }
  }

  const EXPOSURE = {
    'ExifIFD:FocalLength': '4.25', 'ExifIFD:FNumber': '1.68', 'ExifIFD:ExposureTime': '0.029994', 'ExifIFD:FocalLengthIn35mmFormat': '26',
  };

  // #4: copied with print conversion, 4.25 mm came back 4.2 mm, f/1.68 came back f/1.7 and 1/33.34 came back 1/33.
  it('copies exposure values exactly (result and XMP sidecar)', async () => {
    const original = join(dir.path, 'exposure.jpg');
    await writeCameraJpeg(writer.command, original, { tags: { ...CAMERA_TAGS, ...EXPOSURE } });
    const source = await readTags(writer.command, original);
    expect(source['ExifIFD:FocalLength']).toBe(4.25);
    for (const policy of ['keep', 'strip-gps'] as const) {
      const result = join(dir.path, `exposure-${policy}.jpg`);
      await writeFile(result, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).jpeg().toBuffer());
      expect((await apply(result, original, policy)).warnings).toEqual([]);
      const tags = await readTags(writer.command, result);
      for (const tag of Object.keys(EXPOSURE)) expect(tags[tag], `${policy} ${tag}`).toBe(source[tag]);
      expect(await writeSidecar('xmp', writer, result, { provenance: PROVENANCE, submittedAt: null, completedAt: null, creatorTool: 'test' })).toBeNull();
      const xmp = await readTags(writer.command, result.replace(/\.jpg$/, '.xmp'));
      expect(xmp['XMP-exif:FocalLength'], policy).toBe(4.25);
      expect(xmp['XMP-exif:FNumber'], policy).toBe(1.68);
      expect(xmp['XMP-exif:ExposureTime'], policy).toBe(source['ExifIFD:ExposureTime']);
    }
  });

  // #6: `-Location:all=` left GPSDateStamp/GPSTimeStamp (family 2 `Time`), which sidecars carried on as GPSDateTime.
  it('strip-gps removes every GPS tag from the result and its XMP sidecar', async () => {
    const original = join(dir.path, 'gps.jpg');
    await writeCameraJpeg(writer.command, original, { tags: {
      ...CAMERA_TAGS, 'GPS:GPSDateStamp': '2024:06:01', 'GPS:GPSTimeStamp': '12:22:33', 'GPS:GPSImgDirection': '120',
      'XMP-exif:GPSDateTime': '2024:06:01 12:22:33Z', 'XMP-exif:GPSLatitude': '48.8584', 'XMP-exif:GPSLongitude': '2.2945',
    } });
    const result = join(dir.path, 'gps-result.jpg');
    await writeFile(result, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).jpeg().toBuffer());
    expect((await apply(result, original, 'strip-gps')).warnings).toEqual([]);
    expect(await writeSidecar('xmp', writer, result, { provenance: PROVENANCE, submittedAt: null, completedAt: null, creatorTool: 'test' })).toBeNull();
    for (const path of [result, result.replace(/\.jpg$/, '.xmp')]) {
      const tags = await readTags(writer.command, path);
      expect(Object.keys(tags).filter((k) => /^GPS:|:GPS/.test(k) && !k.startsWith('Composite:')), path).toEqual([]);
      expect(tags['IFD0:Make'] ?? tags['XMP-tiff:Make'], path).toBe('Canon');
    }
  });

  // #7: without its 1:90 marker the IIM text was re-encoded as cp1252: `Überraschung 完成` became `Überraschung ??`.
  it('keeps UTF-8 IPTC text and its CodedCharacterSet marker', async () => {
    const original = join(dir.path, 'iptc.jpg');
    await writeFile(original, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c33' } }).jpeg().toBuffer());
    await writer.command(['-overwrite_original', '-charset', 'iptc=UTF8', '-IPTC:CodedCharacterSet=UTF8', '-IPTC:Keywords=Überraschung 完成',
      '-IPTC:Keywords=Киев', '-IPTC:Caption-Abstract=Überraschung 完成 — شكرا', '-IPTC:City=東京', original]);
    expect((await readTags(writer.command, original))['IPTC:Keywords']).toEqual(['Überraschung 完成', 'Киев']);
    for (const policy of ['keep', 'strip-gps'] as const) {
      const result = join(dir.path, `iptc-${policy}.jpg`);
      await writeFile(result, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).jpeg().toBuffer());
      expect((await apply(result, original, policy)).warnings).toEqual([]);
      const tags = await readTags(writer.command, result);
      expect(tags['IPTC:CodedCharacterSet'], policy).toBe('\x1b%G');
      expect(tags['IPTC:Keywords'], policy).toEqual(['Überraschung 完成', 'Киев']);
      expect(tags['IPTC:Caption-Abstract'], policy).toBe('Überraschung 完成 — شكرا');
      // The raw bytes are UTF-8 (not only ExifTool's reading of them).
      expect((await readFile(result)).includes(Buffer.from('完成', 'utf8')), policy).toBe(true);
    }
  });
});
