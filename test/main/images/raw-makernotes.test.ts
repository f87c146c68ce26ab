import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultMetadataWriter, type Provenance, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { writeSidecar } from '../../../main/core/images/sidecar';
import { makeTempDir } from '../engine/helpers';
import { readTags } from '../metadata/photos';
import { buildMakerNoteRaw, OLYMPUS_ORF, SONY_ARW } from './raw-makernote-kit';

// Issue 31 #3 and #11 on real camera files: ExifTool's own sample RAWs (test/fixtures/raw: CR2, CR3, DNG, NEF, RAF,
// RW2, stripped of sensor data but with the cameras' real MakerNotes) and an ARW and an ORF built with their makers'
// MakerNote headers. A CR3 keeps its MakerNotes in a box of its own and a DNG in DNGPrivateData, where `-all:all`
// never looked: both results had 0 of them.

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'raw');
const SAMPLES = ['CanonRaw.cr2', 'CanonRaw.cr3', 'DNG.dng', 'FujiFilm.raf', 'Nikon.nef', 'Panasonic.rw2'];
const FORMATS = ['jpeg', 'tiff', 'png', 'webp'] as const;
const PROVENANCE: Provenance = {
  workflowId: 'upscale', workflowName: 'Upscale', parameters: {}, executionId: 'x1', creditsCharged: 1, sourceName: 'IMG.CR3', sourceSha256: null,
};

/**
 * MakerNote tags that are not expected on a result: the maker's previews (the result's pixels replace them), a CR3's
 * timed metadata of its video tracks (`Track*`: per-frame copies, no EXIF home) and the name of its compressor (a
 * container box), Nikon's RAW-only contrast curve (ExifTool drops it as Nikon's own JPEGs do), and Nikon Capture NX's
 * edit recipe (develop settings, like XMP-crs).
 */
const NOT_EXPECTED = /^(Track\d+:|NikonCapture:)|:(ThumbnailImage|PreviewImage|CompressorVersion|ContrastCurve)$/;

describe('MakerNotes of every RAW container on the result', () => {
  let writer: ResultMetadataWriter;
  let dir: { path: string; cleanup: () => Promise<void> };
  const sources: string[] = SAMPLES.map((name) => join(FIXTURES, name));
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-makernotes-');
    writer = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
    for (const [name, raw] of [['DSC00001.ARW', SONY_ARW], ['P1010001.ORF', OLYMPUS_ORF]] as const) {
      await writeFile(join(dir.path, name), buildMakerNoteRaw(raw));
      sources.push(join(dir.path, name));
    }
  });
  afterAll(async () => {
    await writer.end();
    await dir.cleanup();
  });
  const makerNotes = async (path: string) =>
    Object.keys(JSON.parse(await writer.command(['-j', '-G1', '-a', '-MakerNotes:all', path]))[0] as object).filter((k) => k !== 'SourceFile');

  it('keeps every MakerNote tag of CR2, CR3, DNG, NEF, RAF, RW2, ARW and ORF originals (CR3 and DNG also on TIFF, PNG and WebP)', async () => {
    const lost: string[] = [];
    for (const source of sources) {
      const expected = (await makerNotes(source)).filter((tag) => !NOT_EXPECTED.test(tag));
      expect(expected.length, source).toBeGreaterThan(3);
      // A RAW's result is a JPEG unless another format is chosen: every container to JPEG, the two that lost every
      // MakerNote (CR3, DNG) to each format.
      for (const format of /\.(cr3|dng)$/.test(source) ? FORMATS : (['jpeg'] as const)) {
        const result = join(dir.path, `result.${format}`);
        await writeFile(result, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).toFormat(format).toBuffer());
        expect((await writer.apply(result, { source, policy: 'keep', provenance: PROVENANCE, width: 60, height: 40 })).warnings).toEqual([]);
        const kept = new Set(await makerNotes(result));
        const missing = expected.filter((tag) => !kept.has(tag));
        if (missing.length > 0) lost.push(`${source.split('/').pop()} → ${format}: ${missing.length} of ${expected.length} lost (${missing.slice(0, 3).join(', ')}…)`);
      }
    }
    expect(lost).toEqual([]);
  });

  // #11: Camera Raw settings on an already-developed result would be applied a second time by Lightroom.
  it('copies no Camera Raw develop settings (XMP-crs, crss, crd) onto the result or its XMP sidecar, and keeps the rest of the XMP', async () => {
    const original = join(dir.path, 'IMG_0001.dng');
    await copyFile(join(FIXTURES, 'DNG.dng'), original);
    // What Lightroom writes into a DNG it developed (a subset of its ≈ 130 crs tags), plus a rating and keywords.
    await writer.command(['-overwrite_original', '-XMP-crs:Version=15.0', '-XMP-crs:ProcessVersion=11.0', '-XMP-crs:WhiteBalance=As Shot',
      '-XMP-crs:Exposure2012=+1.25', '-XMP-crs:Contrast2012=+20', '-XMP-crs:Highlights2012=-60', '-XMP-crs:Shadows2012=+45',
      '-XMP-crs:Clarity2012=+10', '-XMP-crs:HasCrop=True', '-XMP-crs:CropTop=0.1', '-XMP-crs:HasSettings=True',
      '-XMP-crs:ToneCurvePV2012=0, 0', '-XMP-crs:ToneCurvePV2012=255, 255', '-XMP-crss:SnapshotName=Before retouch',
      '-XMP-xmp:Rating=5', '-XMP-dc:Subject=harbour', original]);
    const source = await readTags(writer.command, original);
    expect(Object.keys(source).filter((k) => k.startsWith('XMP-crs')).length).toBeGreaterThanOrEqual(12);
    for (const format of FORMATS) {
      const result = join(dir.path, `developed.${format}`);
      await writeFile(result, await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3c3' } }).toFormat(format).toBuffer());
      expect((await writer.apply(result, { source: original, policy: 'keep', provenance: PROVENANCE, width: 60, height: 40 })).warnings).toEqual([]);
      expect(await writeSidecar('xmp', writer, result, { provenance: PROVENANCE, submittedAt: null, completedAt: null, creatorTool: 'test' })).toBeNull();
      for (const path of [result, join(dir.path, 'developed.xmp')]) {
        const tags = await readTags(writer.command, path);
        expect(Object.keys(tags).filter((k) => /^XMP-crs|^XMP-crd/.test(k)), `${format} ${path}`).toEqual([]);
        expect(tags['XMP-xmp:Rating'], `${format} ${path}`).toBe(5);
        expect([tags['XMP-dc:Subject']].flat(), `${format} ${path}`).toEqual(['harbour']);
        expect(tags['XMP-tiff:Make'] ?? tags['IFD0:Make'], `${format} ${path}`).toBe('Canon');
      }
    }
  });
});
