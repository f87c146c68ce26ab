import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureCache, parseExifDate, readCaptureInfo, sanitiseCamera } from '../../../main/core/images/capture';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, waitForBatch } from '../engine/helpers';
import { writeCameraJpeg } from './photos';

describe('capture info: the date and camera results are named and dated by', () => {
  let tool: ResultMetadataWriter;
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-capture-');
    tool = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
  });
  afterAll(async () => {
    await tool.end();
    await dir.cleanup();
  });

  it('reads DateTimeOriginal with its offset as the instant, the camera clock as the tokens', async () => {
    const path = join(dir.path, 'a.jpg');
    await writeCameraJpeg(tool.command, path);
    const info = await readCaptureInfo(tool.command, path);
    expect(info).toMatchObject({ captureDate: '2024-06-01', captureTime: '142233', camera: 'Canon-EOS-R5', from: 'exif', warning: null });
    expect(new Date(info.capturedAtMs).toISOString()).toBe('2024-06-01T12:22:33.000Z');
  });

  it('without DateTimeOriginal: the file\'s own mtime', async () => {
    const path = join(dir.path, 'plain.jpg');
    await writeFile(path, await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().toBuffer());
    const when = new Date(2021, 2, 4, 5, 6, 7);
    await utimes(path, when, when);
    const info = await readCaptureInfo(tool.command, path);
    expect(info).toMatchObject({ captureDate: '2021-03-04', captureTime: '050607', camera: null, from: 'mtime' });
    expect(info.capturedAtMs).toBe(when.getTime());
  });

  it('damaged EXIF is reported, and the file\'s mtime stands in', async () => {
    const path = join(dir.path, 'broken.jpg');
    await writeCameraJpeg(tool.command, path);
    const bytes = await readFile(path);
    const app1 = bytes.indexOf(Buffer.from('Exif\0\0'));
    bytes.fill(0xff, app1 + 6, app1 + 14);
    await writeFile(path, bytes);
    const info = await readCaptureInfo(tool.command, path);
    expect(info.from).toBe('mtime');
    expect(info.warning).toMatch(/EXIF/);
  });

  it('parses and refuses dates exactly', () => {
    expect(parseExifDate('2024:06:01 14:22:33', '-05:30')?.ms).toBe(Date.UTC(2024, 5, 1, 19, 52, 33));
    expect(parseExifDate('0000:00:00 00:00:00', null)).toBeNull();
    expect(parseExifDate('2024:13:01 00:00:00', null)).toBeNull();
    expect(parseExifDate(undefined, null)).toBeNull();
  });

  it('sanitises camera models for file names', () => {
    expect(sanitiseCamera('Canon EOS R5')).toBe('Canon-EOS-R5');
    expect(sanitiseCamera('  NIKON Z 6_2 / II  ')).toBe('NIKON-Z-6_2-II');
    expect(sanitiseCamera('iPhone 15 Pro')).toBe('iPhone-15-Pro');
    expect(sanitiseCamera(' ** ')).toBeNull();
  });

  it('reads each source once, and again after it changes', async () => {
    const path = join(dir.path, 'cached.jpg');
    await writeCameraJpeg(tool.command, path);
    let calls = 0;
    const counting = (args: readonly string[]) => { calls += 1; return tool.command(args); };
    const cache = new CaptureCache(counting);
    await Promise.all([cache.get(path), cache.get(path), cache.get(path)]);
    expect(calls).toBe(1);
    const later = new Date(Date.now() + 5_000);
    await utimes(path, later, later);
    await cache.get(path);
    expect(calls).toBe(2);
    expect(await cache.get('https://example.com/a.jpg')).toBeNull();
    expect(await cache.get(join(dir.path, 'missing.jpg'))).toBeNull();
  });

  it('keeps the most recent photos only: the oldest is read again, the newer ones are not', async () => {
    const paths = ['a.jpg', 'b.jpg', 'c.jpg'].map((name) => join(dir.path, `bounded-${name}`));
    for (const path of paths) await writeCameraJpeg(tool.command, path);
    let calls = 0;
    const counting = (args: readonly string[]) => { calls += 1; return tool.command(args); };
    const cache = new CaptureCache(counting, 2);
    for (const path of paths) await cache.get(path);
    expect(calls).toBe(3);
    await cache.get(paths[2]!);
    await cache.get(paths[1]!);
    expect(calls).toBe(3);
    const again = await cache.get(paths[0]!);
    expect(calls).toBe(4);
    expect(again?.from).toBe('exif');
  });
});

describe('naming by capture: {capture_date} {capture_time} {camera}, in the estimate and on disk', () => {
  let sandbox: RunningSandbox;
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine;
  let writer: ResultMetadataWriter;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ executionDurationMs: 30 });
    dir = await makeTempDir('batchroom-capture-naming-');
    journal = openJournal(join(dir.path, 'state'));
    writer = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
    engine = createEngine({ journal, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), resultMetadata: writer });
    await engine.start();
  });
  afterAll(async () => {
    await engine.stop({ graceful: false });
    journal.close();
    await sandbox.close();
    await dir.cleanup();
  });

  it('names each result after its own original\'s capture and camera, as previewed; no capture date → the file\'s date', async () => {
    const input = join(dir.path, 'in');
    await mkdir(input);
    await writeCameraJpeg(writer.command, join(input, 'IMG_1.jpg'));
    const plain = join(input, 'scan.jpg');
    await writeFile(plain, await sharp({ create: { width: 64, height: 48, channels: 3, background: '#123' } }).jpeg().toBuffer());
    const when = new Date(2019, 11, 31, 23, 59, 58);
    await utimes(plain, when, when);
    const spec = { workflowId: 'auto-enhance', inputs: { paths: [input] }, output: { outputFolder: join(dir.path, 'out'), namingTemplate: '{capture_date}_{capture_time}_{camera}_{name}{ext}' } };
    const estimate = await engine.estimate(spec);
    expect(estimate.namingPreview.map((p) => basename(p.output)).sort()).toEqual([
      '2019-12-31_235958_unknown-camera_scan.jpg', '2024-06-01_142233_Canon-EOS-R5_IMG_1.jpg',
    ]);
    const batch = await engine.createBatch(spec);
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(2);
    const saved = engine.listItems({ batchId: batch.id }).items.flatMap((i) => i.outputs).map((p) => basename(p)).sort();
    expect(saved).toEqual(['2019-12-31_235958_unknown-camera_scan.jpg', '2024-06-01_142233_Canon-EOS-R5_IMG_1.jpg']);
  });
});
