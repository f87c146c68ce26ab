import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeForUpload } from '../../../main/core/images/encode';
import { NO_USABLE_PREVIEW, UNREADABLE_RAW } from '../../../main/core/images/raw-preview';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { makeTempDir } from '../engine/helpers';
import { buildDng, previewJpeg } from './dng-kit';

// Issue 31 #10: reasons worded by severity. A sound DNG with an ExifTool [minor] notice was "damaged"; a truncated
// DNG was said to have "no preview large enough" when it cannot be read at all.

const fit = { policy: 'fit' as const, stripMetadata: true };
const provenance = { workflowId: 'w', workflowName: 'W', parameters: {}, executionId: null, creditsCharged: 0, sourceName: 'a.dng', sourceSha256: null };

describe('RAW problems worded by severity', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let tool: ResultMetadataWriter;
  let dng: Buffer;
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-raw-severity-');
    tool = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
    dng = buildDng({ previews: [await previewJpeg(320, 213), await previewJpeg(1600, 1067)], make: 'Canon', model: 'EOS R5' });
  });
  afterAll(async () => {
    await tool.end();
    await dir.cleanup();
  });

  it('a truncated DNG "cannot be read (truncated or damaged)", not "no preview large enough"', async () => {
    const path = join(dir.path, 'cut.dng');
    await writeFile(path, dng.subarray(0, Math.round(dng.length * 0.6))); // the big preview's bytes cut short
    expect(await tool.command(['-Warning', '-JpgFromRaw', '-OtherImage', path])).toMatch(/Error reading/);
    await expect(encodeForUpload(path, { ...fit, exiftool: tool.command })).rejects.toThrow(UNREADABLE_RAW);
    // a sound DNG with only thumbnails still says so
    const tiny = join(dir.path, 'tiny.dng');
    await writeFile(tiny, buildDng({ previews: [await previewJpeg(320, 213)] }));
    await expect(encodeForUpload(tiny, { ...fit, exiftool: tool.command })).rejects.toThrow(NO_USABLE_PREVIEW);
  });

  it('a sound DNG with an ExifTool [minor] notice: edited, its metadata copied, and never called damaged', async () => {
    const path = join(dir.path, 'minor.dng');
    await writeFile(path, dng);
    const note = join(dir.path, 'makernote.bin');
    await writeFile(note, Buffer.concat([Buffer.from([0x00, 0x20]), Buffer.alloc(200, 0xee)]));
    await tool.command(['-overwrite_original', '-m', `-MakerNotes<=${note}`, path]);
    expect(JSON.parse(await tool.command(['-j', '-Warning', path]))[0].Warning).toMatch(/^\[minor\] /);

    const upload = await encodeForUpload(path, { ...fit, exiftool: tool.command });
    expect(upload.width).toBe(1024);
    const capture = await tool.capture(path);
    expect(capture?.warning).toBeNull();
    expect(capture?.minorWarning).toMatch(/Bad MakerNote/);

    const result = join(dir.path, 'result.jpg');
    await sharp(upload.data).toFile(result);
    const outcome = await tool.apply(result, { source: path, policy: 'keep', width: upload.width, height: upload.height, provenance });
    expect(outcome.warnings.join('; ')).not.toMatch(/damaged/);
    const tags = JSON.parse(await tool.command(['-j', '-Make', '-Model', result]))[0];
    expect(tags).toMatchObject({ Make: 'Canon', Model: 'EOS R5' });
  });
});
