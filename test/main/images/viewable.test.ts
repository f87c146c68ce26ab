import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { createThumbnailCache, THUMBNAIL_EDGE } from '../../../main/core/images/thumbnails';
import { createViewableOriginals, VIEWABLE_EDGE } from '../../../main/core/images/viewable';
import { makeTempDir } from '../engine/helpers';
import { buildDng, previewJpeg } from './dng-kit';

// A RAW on screen (the review's "before", the queue's thumbnail) is its embedded preview, upright.

describe('viewable originals', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let tool: ResultMetadataWriter;
  beforeAll(async () => {
    dir = await makeTempDir('batchroom-viewable-');
    tool = createResultMetadataWriter({ configDir: join(dir.path, 'cfg'), creatorTool: 'test' });
  });
  afterAll(async () => {
    await tool.end();
    await dir.cleanup();
  });

  it('shows a RAW as its largest preview, turned by the RAW\'s orientation, made once per file version', async () => {
    const path = join(dir.path, 'IMG_1.CR3');
    await writeFile(path, buildDng({ previews: [await previewJpeg(320, 213), await previewJpeg(3000, 2000)], orientation: 6 }));
    const viewable = createViewableOriginals(join(dir.path, 'previews'), () => tool.command);
    const shown = await viewable.get(path);
    expect(shown).toMatch(/previews\/[0-9a-f]{40}\.jpg$/);
    const meta = await sharp(shown!).metadata();
    expect(meta.format).toBe('jpeg');
    // 3000×2000 turned 90° and fitted into the screen edge
    expect([meta.width, meta.height]).toEqual([Math.round(VIEWABLE_EDGE * 2 / 3), VIEWABLE_EDGE]);
    expect(await viewable.get(path)).toBe(shown);
    const thumb = await createThumbnailCache(join(dir.path, 'thumbs')).get(shown!);
    expect(Math.max((await sharp(thumb!).metadata()).width!, (await sharp(thumb!).metadata()).height!)).toBe(THUMBNAIL_EDGE);
  });

  it('passes other photos through, and has nothing for a RAW without a usable preview, a damaged one, or no ExifTool', async () => {
    const viewable = createViewableOriginals(join(dir.path, 'previews2'), () => tool.command);
    const jpeg = join(dir.path, 'plain.jpg');
    await writeFile(jpeg, await previewJpeg(200, 100));
    expect(await viewable.get(jpeg)).toBe(jpeg);
    const tiny = join(dir.path, 'tiny.nef');
    await writeFile(tiny, buildDng({ previews: [await previewJpeg(320, 213)] }));
    expect(await viewable.get(tiny)).toBeNull();
    const broken = join(dir.path, 'broken.arw');
    await writeFile(broken, buildDng({ previews: [await previewJpeg(1600, 1067)] }).subarray(0, 300));
    expect(await viewable.get(broken)).toBeNull();
    const good = join(dir.path, 'good.dng');
    await writeFile(good, buildDng({ previews: [await previewJpeg(1600, 1067)] }));
    expect(await createViewableOriginals(join(dir.path, 'previews3'), () => null).get(good)).toBeNull();
  });
});
