import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/core/engine';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import type { BatchSpecInput } from '../../../shared/engine/model';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, waitForBatch } from '../engine/helpers';
import { readTags, writeCameraJpeg } from './photos';

// Sidecars and the edges of metadata through the whole pipeline (sandbox → engine → saver), read back with ExifTool.

describe('sidecars, damaged originals and awkward values, through the engine', () => {
  let sandbox: RunningSandbox;
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine;
  let reader: ResultMetadataWriter;
  let input: string;
  let photo: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ executionDurationMs: 30 });
  });
  afterAll(async () => { await sandbox.close(); });
  beforeEach(async () => {
    dir = await makeTempDir('batchroom-sidecar-');
    journal = openJournal(join(dir.path, 'state'));
    // A reader with the same config (Batchroom's XMP namespace), apart from the engine's own ExifTool.
    reader = createResultMetadataWriter({ configDir: join(dir.path, 'reader'), creatorTool: 'test' });
    engine = createEngine({ journal, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }) });
    await engine.start();
    input = join(dir.path, 'in');
    await mkdir(input);
    photo = join(input, 'IMG_2041.jpg');
    await writeCameraJpeg(reader.command, photo);
  });
  afterEach(async () => {
    await engine.stop({ graceful: false });
    journal.close();
    await reader.end();
    await dir.cleanup();
  });

  const run = async (output: Partial<BatchSpecInput['output']>, parameters: BatchSpecInput['parameters'] = {}, workflowId = 'auto-enhance') => {
    const spec: BatchSpecInput = { workflowId, parameters, inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out'), ...output }, rerun: true };
    const batch = await engine.createBatch(spec);
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(1);
    const item = engine.listItems({ batchId: batch.id }).items[0]!;
    return { item, result: item.outputs[0]! };
  };

  it('xmp: a standard <result stem>.xmp with the kept metadata and the provenance, parsed back', async () => {
    const { item, result } = await run({ sidecar: 'xmp' });
    expect(item.reason).toBeNull();
    const xmp = result.replace(/\.jpg$/, '.xmp');
    const tags = await readTags(reader.command, xmp);
    expect(tags).toMatchObject({
      'File:FileType': 'XMP', 'XMP-tiff:Make': 'Canon', 'XMP-tiff:Model': 'Canon EOS R5', 'XMP-xmp:Rating': 4, 'XMP-xmp:Label': 'Red',
      'XMP-dc:Subject': ['beach'], 'XMP-tiff:Orientation': 1,
      'XMP-xmp:CreatorTool': expect.stringMatching(/^Batchroom \d/), 'XMP-batchroom:WorkflowId': 'auto-enhance', 'XMP-batchroom:ExecutionId': item.executionId,
      'XMP-batchroom:SourceName': 'IMG_2041.jpg',
    });
    expect(String(tags['XMP-exif:DateTimeOriginal'])).toMatch(/^2024:06:01 14:22:33/);
    expect(tags['XMP-exif:GPSLatitude']).toBeCloseTo(48.8584, 3);
    expect(await readFile(xmp, 'utf8')).toContain('<x:xmpmeta');
    expect((await readdir(join(dir.path, 'out'))).sort()).toEqual(['IMG_2041_auto-enhance.jpg', 'IMG_2041_auto-enhance.xmp']);
  });

  it('xmp with strip-gps: the sidecar has no location either; with strip it still carries the provenance', async () => {
    const gps = await run({ sidecar: 'xmp', metadata: 'strip-gps', namingTemplate: '{name}_nogps{ext}' });
    const noGps = await readTags(reader.command, gps.result.replace(/\.jpg$/, '.xmp'));
    expect(Object.keys(noGps).filter((k) => /gps|city|country|location/i.test(k))).toEqual([]);
    const bare = await run({ sidecar: 'xmp', metadata: 'strip', namingTemplate: '{name}_bare{ext}' });
    const strip = await readTags(reader.command, bare.result.replace(/\.jpg$/, '.xmp'));
    expect(strip['XMP-tiff:Model']).toBeUndefined();
    expect(strip['XMP-batchroom:WorkflowId']).toBe('auto-enhance');
  });

  it('json: <result>.json as before', async () => {
    const { result } = await run({ sidecar: 'json' });
    const json = JSON.parse(await readFile(`${result}.json`, 'utf8'));
    expect(json).toMatchObject({ generator: 'Batchroom', workflow: { id: 'auto-enhance' }, source: { name: 'IMG_2041.jpg' } });
  });

  it('a sidecar that cannot be written: the result is saved and the item says why', async () => {
    const out = join(dir.path, 'out');
    // A non-empty folder has the sidecar's name: the rename onto it fails.
    await mkdir(join(out, 'IMG_2041_auto-enhance.xmp', 'x'), { recursive: true });
    const { item, result } = await run({ sidecar: 'xmp' });
    expect(item.state).toBe('saved');
    expect((await stat(result)).size).toBeGreaterThan(0);
    expect(item.reason).toMatch(/^saved, but the XMP sidecar of IMG_2041_auto-enhance\.jpg was not written \(/);
    expect((await readdir(out)).filter((n) => n.startsWith('.batchroom-'))).toEqual([]);
  });

  it('damaged EXIF in the original: the result is saved with what could be read, and the item says so', async () => {
    const bytes = await readFile(photo);
    const app1 = bytes.indexOf(Buffer.from('Exif\0\0'));
    bytes.fill(0xff, app1 + 6, app1 + 14);
    await writeFile(photo, bytes);
    const before = await readFile(photo);
    const { item, result } = await run({});
    expect(item.state).toBe('saved');
    expect(item.reason).toMatch(/^saved, but the original's metadata is damaged \(.*EXIF.*\): what could be read was copied$/);
    const tags = await readTags(reader.command, result);
    expect(tags['XMP-batchroom:WorkflowId']).toBe('auto-enhance');
    expect(tags['XMP-dc:Subject']).toEqual(['beach']); // the XMP block was intact
    expect((await readFile(photo)).equals(before)).toBe(true);
  });

  it('XMP larger than one JPEG segment (extended XMP, 90 KB): kept whole on the result, the original untouched', async () => {
    const caption = 'Long caption. '.repeat(6_500); // ~91 KB: more than one 64 KB APP1 segment holds
    await reader.command(['-overwrite_original', `-XMP-dc:Description=${caption}`, photo]);
    const before = await readFile(photo);
    expect(before.includes(Buffer.from('http://ns.adobe.com/xmp/extension/'))).toBe(true); // ExifTool split it
    const { item, result } = await run({});
    expect(item.state).toBe('saved');
    const tags = await readTags(reader.command, result);
    expect(String(tags['XMP-dc:Description']).length).toBe(caption.length);
    expect(tags['XMP-batchroom:WorkflowId']).toBe('auto-enhance');
    expect((await readFile(photo)).equals(before)).toBe(true);
  });

  it('a colour profile sharp cannot parse: the photo is still edited and saved with a valid sRGB profile, the original untouched', async () => {
    const bytes = await readFile(photo);
    const garbage = Buffer.concat([Buffer.from('ICC_PROFILE\0', 'latin1'), Buffer.from([1, 1]), Buffer.alloc(300, 0x41)]);
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xffe2, 0);
    segment.writeUInt16BE(garbage.length + 2, 2);
    await writeFile(photo, Buffer.concat([bytes.subarray(0, 2), segment, garbage, bytes.subarray(2)]));
    const before = await readFile(photo);
    for (const colour of ['srgb', 'source'] as const) {
      const { item, result } = await run({ colour });
      expect(item.state).toBe('saved');
      const icc = (await sharp(result).metadata()).icc;
      expect(icc && icc.length > 128 ? icc.toString('latin1', 36, 40) : null).toBe('acsp'); // a real ICC header
    }
    expect((await readFile(photo)).equals(before)).toBe(true);
  });

  it('a maker note ExifTool cannot rewrite: the result is saved with the rest of the metadata, the original untouched', async () => {
    const note = join(dir.path, 'makernote.bin');
    await writeFile(note, Buffer.concat([Buffer.from([0x00, 0x20]), Buffer.alloc(200, 0xee)]));
    await reader.command(['-overwrite_original', '-m', '-Make=Canon', `-MakerNotes<=${note}`, photo]);
    expect(await reader.command(['-Warning', photo])).toMatch(/Bad MakerNote/);
    const before = await readFile(photo);
    const { item, result } = await run({});
    expect(item.state).toBe('saved');
    const tags = await readTags(reader.command, result);
    expect(tags['IFD0:Make']).toBe('Canon');
    expect(tags['XMP-batchroom:WorkflowId']).toBe('auto-enhance');
    expect(tags['XMP-dc:Subject']).toEqual(['beach']);
    // "[minor] Bad MakerNoteCanon directory" is a notice ExifTool reads past, not damage (issue 31 #10): no warning
    expect(await reader.command(['-Warning', photo])).toMatch(/\[minor\] Bad MakerNote/);
    expect(item.reason).toBeNull();
    expect((await readFile(photo)).equals(before)).toBe(true);
  });

  it('provenance survives line breaks, quotes and ampersands in parameters (one command line per argument)', async () => {
    const caption = 'Ana & Rui\n"Lisbon" <2024>';
    const { item, result } = await run({}, { texts: { caption } }, 'caption-watermark');
    expect(item.reason).toBeNull();
    const tags = await readTags(reader.command, result);
    expect(JSON.parse(String(tags['XMP-batchroom:Parameters']))).toEqual({ texts: { caption } });
  });
});
