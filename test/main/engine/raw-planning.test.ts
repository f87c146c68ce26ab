import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExifToolCommand } from '../../../main/core/images/capture';
import { encodeForUpload } from '../../../main/core/images/encode';
import { createFileFacts } from '../../../main/core/images/file-facts';
import { createRawPreviewCheck } from '../../../main/core/images/raw-check';
import { NO_USABLE_PREVIEW, UNREADABLE_RAW } from '../../../main/core/images/raw-preview';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { buildDng, previewJpeg } from '../images/dng-kit';
import { makeTempDir, waitForBatch, type TempDir } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// Issue 31 #9: a RAW the encoder refuses for free (no preview large enough, cut short) was priced by the estimate,
// named by the naming preview and counted against --budget ("46 priced, 37 paid"; --budget 1 refused a batch that
// costs 1). Planning now looks at the previews: such a RAW is listed as refused, with its reason, and costs nothing.

const FIXTURES = new URL('../../fixtures/raw/', import.meta.url).pathname;

/** Commands run on the engine's ExifTool, each with its arguments. */
function counting(writer: ResultMetadataWriter): { writer: ResultMetadataWriter; calls: string[][] } {
  const calls: string[][] = [];
  const command: ExifToolCommand = (args) => {
    calls.push([...args]);
    return writer.command(args);
  };
  return { writer: { ...writer, command }, calls };
}

describe('RAWs the encoder refuses are refused while planning', () => {
  let rig: SandboxRig;
  let cfg: TempDir;
  let calls: string[][];
  let good: Buffer;
  beforeAll(async () => {
    good = await previewJpeg(1600, 1067);
    cfg = await makeTempDir('batchroom-raw-planning-');
    const wrapped = counting(createResultMetadataWriter({ configDir: cfg.path, creatorTool: 'test' }));
    calls = wrapped.calls;
    rig = await startSandboxRig({ credits: 50, engine: { resultMetadata: wrapped.writer } });
  });
  afterAll(async () => {
    await rig.close();
    await cfg.cleanup();
  });

  it('the estimate, the naming preview and the budget count only what will be sent', async () => {
    const shoot = join(rig.dir.path, 'shoot');
    await mkdir(shoot);
    await writeFile(join(shoot, 'A_0001.DNG'), buildDng({ previews: [await previewJpeg(320, 213), good], model: 'A' }));
    await writeFile(join(shoot, 'A_0002.NEF'), buildDng({ previews: [await previewJpeg(1500, 1000, '#208040')], model: 'B' }));
    await writeFile(join(shoot, 'T_0003.dng'), buildDng({ previews: [await previewJpeg(640, 427)], model: 'C' }));
    const sound = buildDng({ previews: [await previewJpeg(320, 213, '#802020'), await previewJpeg(1600, 1067, '#802020')], model: 'D' });
    await writeFile(join(shoot, 'T_0004.dng'), sound.subarray(0, Math.round(sound.length * 0.6))); // the big preview cut off
    const spec = { workflowId: 'upscale', inputs: { paths: [shoot] }, output: { outputFolder: join(rig.dir.path, 'out') }, budget: 2 };
    // File facts keep nothing of a file changed in the last 2 s (it may still be being written): a shoot copied earlier.
    await new Promise((resolve) => setTimeout(resolve, 2_100));

    const estimate = await rig.engine.estimate(spec);
    expect(estimate).toMatchObject({ itemCount: 2, totalCost: 2, fitsBudget: true, namingPreviewMore: 0 });
    expect(estimate.namingPreview.map((n) => basename(n.source))).toEqual(['A_0001.DNG', 'A_0002.NEF']);
    expect(estimate.skipped).toEqual([
      { path: join(shoot, 'T_0003.dng'), reason: NO_USABLE_PREVIEW },
      { path: join(shoot, 'T_0004.dng'), reason: UNREADABLE_RAW },
    ]);
    // Planning read where the previews lie, not the previews: no extraction (-b) of any of these DNGs.
    expect(calls.filter((c) => c.includes('-b'))).toEqual([]);
    const reads = calls.length;

    // --budget 2 for a batch that costs 2 is not refused; Start reads nothing of the RAWs again (file facts).
    const batch = await rig.engine.createBatch(spec);
    expect(calls.slice(reads).filter((c) => c.includes('-JpgFromRawStart'))).toEqual([]);
    const done = await waitForBatch(rig.engine, batch.id);
    expect(done.counts).toMatchObject({ saved: 2, skipped: 2, failed: 0 });
    expect(done.creditsSpent).toBe(2);
    expect(rig.journal.listExecutions()).toHaveLength(2);
  });

  it('many RAWs are asked in few ExifTool commands', async () => {
    const many = join(rig.dir.path, 'many');
    await mkdir(many);
    const jpegs = await Promise.all(Array.from({ length: 40 }, (_, i) => sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: i * 5, g: 90, b: 200 - i * 4 } } }).jpeg().toBuffer()));
    await Promise.all(jpegs.map((jpeg, i) => writeFile(join(many, `R_${String(i).padStart(4, '0')}.dng`), buildDng({ previews: [jpeg] }))));
    await new Promise((resolve) => setTimeout(resolve, 2_100)); // older than file facts' 2 s (see above)
    const before = calls.length;
    const estimate = await rig.engine.estimate({ workflowId: 'upscale', inputs: { paths: [many] }, output: { outputFolder: join(rig.dir.path, 'out-many') } });
    expect(estimate.itemCount).toBe(40);
    const checks = calls.slice(before).filter((c) => c.includes('-JpgFromRawStart'));
    expect(checks.length).toBeLessThanOrEqual(4);
    expect(checks.reduce((n, c) => n + c.filter((a) => a.endsWith('.dng')).length, 0)).toBe(40);
    // Their sensor size came with the same answers: no capture read (one command per RAW) for the estimate's size.
    expect(calls.slice(before).filter((c) => c.includes('-Model'))).toEqual([]);
  });
});

describe('the planning check says what the encoder will do, file by file', () => {
  let tool: ResultMetadataWriter;
  let temp: TempDir;
  let dir: string;
  beforeAll(async () => {
    temp = await makeTempDir('batchroom-raw-agree-');
    dir = temp.path;
    tool = createResultMetadataWriter({ configDir: join(dir, 'cfg'), creatorTool: 'test' });
  });
  afterAll(async () => {
    await tool.end();
    await temp.cleanup();
  });

  it('agrees on real camera files and on made ones (offsets, no offsets, cut, junk)', async () => {
    const two = buildDng({ previews: [await previewJpeg(320, 213), await previewJpeg(1600, 1067)], orientation: 6 });
    const made: Record<string, Buffer> = {
      'two.dng': two,
      'thumb.nef': buildDng({ previews: [await previewJpeg(800, 533)] }),
      'cut.dng': two.subarray(0, Math.round(two.length * 0.6)),
      'junk.arw': Buffer.from('not a raw file at all'),
    };
    const paths = [
      ...await Promise.all(['CanonRaw.cr2', 'CanonRaw.cr3', 'DNG.dng', 'FujiFilm.raf', 'Nikon.nef', 'Panasonic.rw2'].map(async (name) => {
        await copyFile(join(FIXTURES, name), join(dir, name));
        return join(dir, name);
      })),
      ...await Promise.all(Object.entries(made).map(async ([name, bytes]) => {
        await writeFile(join(dir, name), bytes);
        return join(dir, name);
      })),
    ];
    const check = createRawPreviewCheck(tool.command);
    const planned = await Promise.all(paths.map(async (path) => (await check(path)).refusal));
    const encoded = await Promise.all(paths.map((path) => encodeForUpload(path, { policy: 'fit', stripMetadata: true, exiftool: tool.command }).then(() => null, (e: Error) => e.message)));
    expect(Object.fromEntries(paths.map((p, i) => [basename(p), planned[i]]))).toEqual(Object.fromEntries(paths.map((p, i) => [basename(p), encoded[i]])));
    expect(planned.filter((p) => p === null)).toHaveLength(1); // the two-preview DNG is sent; every other is refused
  });

  it('a check ExifTool could not answer refuses nothing and is not kept (the encoder decides, as before)', async () => {
    const path = join(dir, 'unanswered.dng');
    await writeFile(path, buildDng({ previews: [await previewJpeg(640, 427)] }));
    let commands = 0;
    const check = createRawPreviewCheck(async () => {
      commands++;
      throw new Error('ExifTool ended');
    });
    const facts = createFileFacts({ now: () => Date.now() + 60_000, raw: check });
    await expect(facts.raw(path)).rejects.toThrow('ExifTool ended');
    await expect(facts.raw(path)).rejects.toThrow('ExifTool ended');
    expect(commands).toBe(4); // each time: the group's command, then the file's own
  });

  it('file facts keep the answer while the file is unchanged', async () => {
    const path = join(dir, 'kept.dng');
    await writeFile(path, buildDng({ previews: [await previewJpeg(640, 427)] }));
    let asked = 0;
    const facts = createFileFacts({ now: () => Date.now() + 60_000, raw: async () => { asked++; return { refusal: NO_USABLE_PREVIEW, longEdge: 640 }; } });
    expect(await facts.raw(path)).toEqual({ refusal: NO_USABLE_PREVIEW, longEdge: 640 });
    expect(await facts.raw(path)).toEqual({ refusal: NO_USABLE_PREVIEW, longEdge: 640 });
    expect(asked).toBe(1);
  });
});
