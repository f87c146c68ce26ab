import { existsSync } from 'node:fs';
import { link, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  finishPlacement, isTempName, placeFile, tempPathFor, verifyImage, writeTemp,
} from '../../../main/core/images/save';

describe('safe saving and collisions', () => {
  let dir: string;
  let jpeg: Buffer;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-save-'));
    jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#abcdef' } }).jpeg().toBuffer();
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const temp = async (bytes: Buffer = jpeg) => {
    const path = tempPathFor(dir, 'item');
    await writeTemp(path, [bytes]);
    return path;
  };

  it('overwrite replaces the file at the planned name', async () => {
    const target = join(dir, 'out.jpg');
    await writeFile(target, 'existing');
    const t = await temp();
    expect(await placeFile(t, target, 'overwrite')).toBe('placed');
    expect((await readFile(target)).equals(jpeg)).toBe(true);
    expect(existsSync(t)).toBe(false);
  });

  it('claims a name atomically: a name taken meanwhile is reported, not overwritten', async () => {
    const target = join(dir, 'race.jpg');
    const t = await temp();
    await writeFile(target, 'someone else');
    expect(await placeFile(t, target, 'suffix')).toBe('taken');
    expect(await readFile(target, 'utf8')).toBe('someone else');
    expect(existsSync(t)).toBe(true);
  });

  it('verifies that a result decodes; a truncated one does not', async () => {
    expect((await verifyImage(await temp())).format).toBe('jpeg');
    const truncated = await temp(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    await expect(verifyImage(truncated)).rejects.toThrow();
  });

  it('finishes a placement a crash interrupted, in either half', async () => {
    // Crash after the hard link, before the temp was unlinked.
    const t1 = await temp();
    const final1 = join(dir, 'one.jpg');
    await link(t1, final1);
    expect(await finishPlacement(t1, final1)).toBe('placed');
    expect(existsSync(t1)).toBe(false);
    // Crash before the rename.
    const t2 = await temp();
    const final2 = join(dir, 'two.jpg');
    expect(await finishPlacement(t2, final2)).toBe('placed');
    expect(existsSync(final2)).toBe(true);
    expect(await finishPlacement(join(dir, '.batchroom-gone.part'), join(dir, 'three.jpg'))).toBe('missing');
  });

  it('knows its own temp files, including the second files the format step and ExifTool leave when killed mid-rewrite', async () => {
    const own = await temp();
    const name = (path: string) => path.slice(dir.length + 1);
    // kill -9 while ExifTool wrote the result's metadata (-overwrite_original writes <file>_exiftool_tmp, then renames)
    expect(isTempName(name(`${own}_exiftool_tmp`))).toBe(true);
    // … or while the format/colour step rewrote it (<temp>.finish, then renamed)
    expect(isTempName(name(`${own}.finish`))).toBe(true);
    expect(isTempName(name(own))).toBe(true);
    for (const other of ['keep.part', 'keep.jpg', 'keep.jpg_exiftool_tmp']) expect(isTempName(other)).toBe(false);
    expect(isTempName('.batchroom-abc.part')).toBe(true);
  });
});
