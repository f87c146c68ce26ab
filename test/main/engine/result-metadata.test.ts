import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ExifTool, type Tags } from 'exiftool-vendored';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MetadataPolicy } from '../../../shared/engine/model';
import { createEngine, type Engine } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient } from '../../../main/core/service';
import { createResultMetadataWriter } from '../../../main/core/images/result-metadata';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir, waitForBatch } from './helpers';

// A result filed like the photographer's own export: the original's EXIF/IPTC/XMP/GPS kept (or its location, or
// everything, removed by policy), upright, with its real size, provenance in XMP, and the capture time as its
// modification time. Read back with ExifTool through the whole pipeline (encode → sandbox → save).

const reader = new ExifTool({ maxProcs: 1 });
afterAll(() => reader.end());

const CAPTURED = '2024:06:01 14:30:05';

async function cameraPhoto(path: string): Promise<void> {
  const jpeg = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 180, g: 120, b: 90 } } })
    .withMetadata({ density: 300 }).jpeg().toBuffer();
  await writeFile(path, jpeg);
  await reader.write(path, {
    Make: 'Canon', Model: 'Canon EOS R5', LensModel: 'RF24-70mm F2.8 L IS USM', Copyright: '© Ana Lima', Artist: 'Ana Lima',
    DateTimeOriginal: CAPTURED, OffsetTimeOriginal: '+02:00', Orientation: 6 as never,
    GPSLatitude: 38.7223, GPSLongitude: -9.1393, 'XMP-photoshop:City': 'Lisbon', 'IPTC:City': 'Lisbon', 'XMP-dc:Subject': ['portrait', 'studio'],
    Rating: 4, 'XMP-xmp:Label': 'Red',
  } as never, { writeArgs: ['-overwrite_original'] });
  // A day later on disk, as a copy from a card would be.
  await utimes(path, new Date('2024-06-02T09:00:00Z'), new Date('2024-06-02T09:00:00Z'));
}

describe('result metadata', () => {
  let sandbox: RunningSandbox;
  let dir: { path: string; cleanup: () => Promise<void> };
  let journal: Journal;
  let engine: Engine;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ executionDurationMs: 30, credits: 1000 });
  });
  afterAll(async () => { await sandbox.close(); });

  beforeEach(async () => {
    dir = await makeTempDir();
    journal = openJournal(join(dir.path, 'state'));
    engine = createEngine({ journal, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), concurrency: 2 });
    await engine.start();
  });

  afterEach(async () => {
    await engine.stop({ graceful: false });
    journal.close();
    await dir.cleanup();
  });

  async function runWith(policy: MetadataPolicy): Promise<{ result: Tags; original: string; resultPath: string; before: { bytes: Buffer; mtimeMs: number } }> {
    const input = join(dir.path, 'in');
    await mkdir(input, { recursive: true });
    const original = join(input, `IMG_${policy}.jpg`);
    await cameraPhoto(original);
    const before = { bytes: await readFile(original), mtimeMs: (await stat(original)).mtimeMs };
    const batch = await engine.createBatch({
      workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: [original] },
      output: { outputFolder: join(dir.path, 'out'), metadata: policy },
    });
    expect((await waitForBatch(engine, batch.id)).counts.saved).toBe(1);
    const [item] = engine.listItems({ batchId: batch.id }).items;
    expect(item!.reason).toBeNull();
    const resultPath = item!.outputs[0]!;
    return { result: await reader.read(resultPath), original, resultPath, before };
  }

  it('keep: copies camera, lens, dates, copyright, keywords, rating, label and GPS; upright; real size; provenance; capture time as mtime; original untouched', async () => {
    const { result: r, original, resultPath, before } = await runWith('keep');
    expect(r).toMatchObject({ Make: 'Canon', Model: 'Canon EOS R5', LensModel: 'RF24-70mm F2.8 L IS USM', Copyright: '© Ana Lima', Artist: 'Ana Lima', Rating: 4, Label: 'Red', City: 'Lisbon' });
    expect(r.Subject).toEqual(['portrait', 'studio']);
    expect(String(r.DateTimeOriginal)).toContain('2024-06-01T14:30:05');
    expect(r.OffsetTimeOriginal).toBe('+02:00');
    expect(r.GPSLatitude).toBeCloseTo(38.7223, 3);
    expect(r.GPSLongitude).toBeCloseTo(-9.1393, 3);
    expect(r.Orientation).toBe(1);
    const pixels = await sharp(resultPath).metadata();
    expect([r.ExifImageWidth, r.ExifImageHeight]).toEqual([pixels.width, pixels.height]);
    expect(r.XResolution).toBe(300);
    expect(r.CreatorTool).toMatch(/^Batchroom \d+\.\d+\.\d+/);
    const provenance = await reader.read(resultPath, ['-config', '/dev/null', '-XMP:all', '-a', '-G1']) as Record<string, unknown>;
    const xmp = JSON.stringify(provenance);
    expect(xmp).toContain('color-grade');
    expect(xmp).toContain('IMG_keep.jpg');
    // Capture time (14:30:05 at +02:00) is the result's modification time.
    expect((await stat(resultPath)).mtime.toISOString()).toBe('2024-06-01T12:30:05.000Z');
    expect(await readFile(original)).toEqual(before.bytes);
    expect((await stat(original)).mtimeMs).toBe(before.mtimeMs);
  });

  it('strip-gps: keeps everything but where the photo was taken', async () => {
    const { result: r } = await runWith('strip-gps');
    expect(r).toMatchObject({ Make: 'Canon', Copyright: '© Ana Lima', Rating: 4 });
    for (const tag of ['GPSLatitude', 'GPSLongitude', 'GPSPosition', 'City']) expect(r, tag).not.toHaveProperty(tag);
    expect(r.CreatorTool).toMatch(/^Batchroom/);
  });

  it('strip: nothing but the colour profile and the DPI', async () => {
    const { result: r, resultPath } = await runWith('strip');
    for (const tag of ['Make', 'Model', 'Copyright', 'DateTimeOriginal', 'GPSLatitude', 'City', 'Subject', 'CreatorTool']) expect(r, tag).not.toHaveProperty(tag);
    expect(r.XResolution).toBe(300);
    // The capture time still orders the folder.
    expect((await stat(resultPath)).mtime.toISOString()).toBe('2024-06-01T12:30:05.000Z');
  });

  it('leaves no ExifTool process behind when the app is killed (-9)', { timeout: 30_000 }, async () => {
    const photo = join(dir.path, 'p.jpg');
    await cameraPhoto(photo);
    const script = join(dir.path, 'child.mts');
    const module = resolve('main/core/images/result-metadata.ts');
    await writeFile(script, `import { createResultMetadataWriter } from ${JSON.stringify(module)};
const writer = createResultMetadataWriter({ configDir: ${JSON.stringify(join(dir.path, 'cfg'))}, creatorTool: 'Batchroom test' });
await writer.apply(${JSON.stringify(photo)}, { source: null, policy: 'keep', width: 1, height: 1, provenance: { workflowId: 'w', workflowName: 'W', parameters: {}, executionId: null, creditsCharged: 0, sourceName: 'p.jpg', sourceSha256: null } });
process.stdout.write('ready\\n');
setInterval(() => {}, 1000);
`);
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((done, fail) => {
      child.stdout!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('ready')) done(); });
      child.on('exit', (code) => fail(new Error(`child exited ${code}`)));
    });
    // ExifTool runs as a child of the app's process (its watchdog renames it after ExifTool itself).
    const perl = execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
    expect(perl.length).toBeGreaterThan(0);
    const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
    child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    let left = perl;
    while (Date.now() < deadline && (left = perl.filter(alive)).length > 0) await new Promise((r) => setTimeout(r, 200));
    expect(left).toEqual([]);
  });
});

describe('result metadata writer: one ExifTool pass, and step by step when it fails', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => { dir = await makeTempDir(); });
  afterEach(async () => { await dir.cleanup(); });

  const provenance = { workflowId: 'color-grade', workflowName: 'Color grade', parameters: {}, executionId: 'exe_1', creditsCharged: 1, sourceName: 'a.jpg', sourceSha256: null };

  it('copies and sets in one command: GPS removed by strip-gps, upright, provenance written', async () => {
    const source = join(dir.path, 'a.jpg');
    const result = join(dir.path, 'a-result.jpg');
    await cameraPhoto(source);
    await sharp({ create: { width: 300, height: 200, channels: 3, background: 'gray' } }).jpeg().toFile(result);
    const writer = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'Batchroom test' });
    try {
      const { warnings } = await writer.apply(result, { source, policy: 'strip-gps', width: 300, height: 200, provenance });
      expect(warnings).toEqual([]);
      const tags = await reader.read(result) as Tags & Record<string, unknown>;
      expect(tags).toMatchObject({ Make: 'Canon', Artist: 'Ana Lima', Orientation: 1, ExifImageWidth: 300, CreatorTool: 'Batchroom test', ExecutionId: 'exe_1' });
      expect(tags.GPSLatitude).toBeUndefined();
      expect(tags.City).toBeUndefined();
    } finally {
      await writer.end();
    }
  });

  it('when the original cannot be read, still writes the provenance and says what was not copied', async () => {
    const result = join(dir.path, 'b-result.jpg');
    await sharp({ create: { width: 300, height: 200, channels: 3, background: 'gray' } }).jpeg().toFile(result);
    const writer = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'Batchroom test' });
    try {
      const { warnings } = await writer.apply(result, { source: join(dir.path, 'gone.jpg'), policy: 'keep', width: 300, height: 200, provenance });
      expect(warnings).toEqual([expect.stringMatching(/^metadata not copied from the original: /)]);
      expect(await reader.read(result)).toMatchObject({ CreatorTool: 'Batchroom test', ExifImageWidth: 300 });
    } finally {
      await writer.end();
    }
  });
});
