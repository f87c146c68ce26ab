import { copyFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTokens, readCaptureInfo, type ExifToolCommand } from '../../../main/core/images/capture';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { makeTempDir } from '../engine/helpers';
import { writeFlirJpeg, writeTaggedJpeg } from './capture-kit';

// Issue 31 #5: a capture date whose offset is written in the value itself (XMP, IPTC, FLIR) was read as this
// computer's local time, so results' mtimes came out 6 h and 4 h off. Each photo here is tagged the way a camera or
// catalogue writes it, and is read under two time zones, neither of which is the photo's own (-06:00 in May, -04:00
// in July): the instant must be the same absolute moment in both, the tokens the camera's clock in both.

const ZONES = ['UTC', 'Pacific/Auckland'] as const;
const ZONE_OFFSET_MIN: Record<(typeof ZONES)[number], number> = { UTC: 0, 'Pacific/Auckland': -720 }; // getTimezoneOffset on 2024-05-01

interface Case {
  name: string;
  file: string;
  write: (run: ExifToolCommand, path: string) => Promise<void>;
  /** The capture instant; a function for a photo with no offset anywhere (this computer's local time). */
  instant: string | (() => number);
  date: string;
  time: string;
  offset: string | null;
}

const SHAPED: Case[] = [
  {
    name: 'a camera\'s EXIF: DateTimeOriginal + OffsetTimeOriginal (Nikon Z, Canon R, iPhone)', file: 'exif.jpg',
    write: (run, p) => writeTaggedJpeg(run, p, {
      'IFD0:Make': 'NIKON CORPORATION', 'IFD0:Model': 'NIKON Z 6_2', 'ExifIFD:DateTimeOriginal': '2024:05:01 10:00:00',
      'ExifIFD:OffsetTimeOriginal': '-06:00', 'ExifIFD:CreateDate': '2024:05:01 10:00:00', 'ExifIFD:OffsetTimeDigitized': '-06:00',
    }),
    instant: '2024-05-01T16:00:00.000Z', date: '2024-05-01', time: '100000', offset: '-06:00',
  },
  {
    name: 'a Lightroom export of an older camera\'s photo: EXIF without an offset, XMP with it', file: 'lightroom.jpg',
    write: (run, p) => writeTaggedJpeg(run, p, {
      'IFD0:Make': 'Canon', 'IFD0:Model': 'Canon EOS 5D Mark II', 'ExifIFD:DateTimeOriginal': '2024:05:01 10:00:00', 'ExifIFD:CreateDate': '2024:05:01 10:00:00',
      'XMP-exif:DateTimeOriginal': '2024-05-01T10:00:00-06:00', 'XMP-photoshop:DateCreated': '2024-05-01T10:00:00-06:00',
      'XMP-xmp:CreateDate': '2024-05-01T10:00:00-06:00', 'XMP-xmp:CreatorTool': 'Adobe Photoshop Lightroom Classic 13.2 (Macintosh)',
    }),
    instant: '2024-05-01T16:00:00.000Z', date: '2024-05-01', time: '100000', offset: '-06:00',
  },
  {
    name: 'XMP only (a scan catalogued in Bridge): photoshop:DateCreated and xmp:CreateDate with their offset', file: 'xmp.jpg',
    write: (run, p) => writeTaggedJpeg(run, p, {
      'XMP-photoshop:DateCreated': '2024-05-01T10:00:00-06:00', 'XMP-xmp:CreateDate': '2024-05-01T10:00:00-06:00',
      'XMP-xmp:CreatorTool': 'Adobe Bridge 2024',
    }),
    instant: '2024-05-01T16:00:00.000Z', date: '2024-05-01', time: '100000', offset: '-06:00',
  },
  {
    name: 'IPTC only (Photo Mechanic): DateCreated + TimeCreated 10:00:00-06:00', file: 'iptc.jpg',
    write: (run, p) => writeTaggedJpeg(run, p, { 'IPTC:DateCreated': '2024:05:01', 'IPTC:TimeCreated': '10:00:00-06:00', 'IPTC:By-line': 'Ann Example' }),
    instant: '2024-05-01T16:00:00.000Z', date: '2024-05-01', time: '100000', offset: '-06:00',
  },
  {
    name: 'a FLIR thermal camera: EXIF dates without an offset, the FLIR record\'s with -04:00', file: 'flir.jpg',
    write: (run, p) => writeFlirJpeg(run, p, '2021:07:07 20:32:16', Date.UTC(2021, 6, 8, 0, 32, 16, 436), -240),
    instant: '2021-07-08T00:32:16.000Z', date: '2021-07-07', time: '203216', offset: '-04:00',
  },
  {
    name: 'no offset anywhere: this computer\'s local time, as before', file: 'local.jpg',
    write: (run, p) => writeTaggedJpeg(run, p, { 'IFD0:Model': 'DMC-TZ10', 'ExifIFD:DateTimeOriginal': '2024:05:01 10:00:00' }),
    instant: () => new Date(2024, 4, 1, 10, 0, 0).getTime(), date: '2024-05-01', time: '100000', offset: null,
  },
];

// Real files (ExifTool's test set, test/fixtures/capture/README.md): each keeps its offset outside EXIF.
const FIXTURES = fileURLToPath(new URL('../../fixtures/capture/', import.meta.url));
const real = (file: string) => (_run: ExifToolCommand, path: string) => copyFile(join(FIXTURES, file), path);
const REAL: Case[] = [
  {
    name: 'a real FLIR i7 JPEG: EXIF DateTimeOriginal without an offset, the FLIR record\'s +01:00', file: 'FLIR.jpg', write: real('FLIR.jpg'),
    instant: '2012-02-11T13:17:08.000Z', date: '2012-02-11', time: '141708', offset: '+01:00',
  },
  {
    name: 'a real Adobe DNG Converter DNG (Canon EOS 350D): XMP exif:DateTimeOriginal -04:00', file: 'DNG.dng', write: real('DNG.dng'),
    instant: '2005-08-03T22:59:18.000Z', date: '2005-08-03', time: '185918', offset: '-04:00',
  },
  {
    name: 'a real Photo Mechanic JPEG: IPTC TimeCreated -05:00, XMP DateCreated without a time', file: 'PhotoMechanic.jpg', write: real('PhotoMechanic.jpg'),
    instant: '2006-10-29T11:27:51.000Z', date: '2006-10-29', time: '062751', offset: '-05:00',
  },
];
const CASES = [...SHAPED, ...REAL];

const expectedMs = (c: Case) => (typeof c.instant === 'string' ? Date.parse(c.instant) : c.instant());

describe('capture dates with the offset they are written with (issue 31 #5)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  const savedZone = process.env.TZ;

  beforeAll(async () => {
    dir = await makeTempDir('batchroom-capture-offset-');
    const author = createResultMetadataWriter({ configDir: join(dir.path, 'cfg-author'), creatorTool: 'test' });
    try {
      for (const c of CASES) await c.write(author.command, join(dir.path, c.file));
    } finally {
      await author.end();
    }
  });
  afterAll(async () => {
    if (savedZone === undefined) delete process.env.TZ;
    else process.env.TZ = savedZone;
    await dir.cleanup();
  });

  describe.each(ZONES)('on a computer in TZ=%s', (zone) => {
    // A writer per zone: its capture cache would otherwise keep the other zone's local-time reading.
    let writer: ResultMetadataWriter;
    beforeAll(() => {
      process.env.TZ = zone;
      writer = createResultMetadataWriter({ configDir: join(dir.path, `cfg-${zone.replace('/', '-')}`), creatorTool: 'test' });
    });
    afterAll(async () => {
      await writer.end();
    });

    it('the zone is in effect (else this block would test nothing)', () => {
      expect(new Date(2024, 4, 1, 10).getTimezoneOffset()).toBe(ZONE_OFFSET_MIN[zone]);
    });

    it.each(CASES)('$name: the instant read, the camera\'s clock as tokens', async (c) => {
      const info = await readCaptureInfo(writer.command, join(dir.path, c.file));
      expect(info).toMatchObject({ from: 'exif', captureDate: c.date, captureTime: c.time, captureOffset: c.offset, warning: null });
      expect(new Date(info.capturedAtMs).toISOString()).toBe(new Date(expectedMs(c)).toISOString());
      expect(captureTokens(info)).toMatchObject({ capture_date: c.date, capture_time: c.time });
    });

    it.each(CASES)('$name: the result\'s mtime is that instant (keep and strip)', async (c) => {
      for (const policy of ['keep', 'strip'] as const) {
        const result = join(dir.path, `result-${zone.replace('/', '-')}-${policy}-${c.file}`);
        await writeFile(result, await sharp({ create: { width: 16, height: 12, channels: 3, background: '#3c3' } }).jpeg().toBuffer());
        const provenance = { workflowId: 'w', workflowName: 'W', parameters: {}, executionId: null, creditsCharged: 0, sourceName: c.file, sourceSha256: null };
        await writer.apply(result, { source: join(dir.path, c.file), policy, provenance, width: 16, height: 12 });
        expect(new Date((await stat(result)).mtimeMs).toISOString(), policy).toBe(new Date(expectedMs(c)).toISOString());
        // The result itself says when it was taken, offset included: read back, it is the same instant (a FLIR
        // record, which ExifTool cannot copy, gave the result an EXIF date without its offset: local time).
        if (policy === 'keep') {
          const back = await readCaptureInfo(writer.command, result);
          expect(new Date(back.capturedAtMs).toISOString(), 'the result read back').toBe(new Date(expectedMs(c)).toISOString());
        }
      }
    });
  });
});
