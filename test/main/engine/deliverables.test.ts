import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitForBatch, writePhotos } from './helpers';
import { startSandboxRig, type SandboxRig } from './sandbox-rig';

// Pay once, deliver everything: each paid result becomes every deliverable of the batch (its own output and
// spec.deliverables), each named by the one namer and written by the one saver, and nothing is paid or downloaded twice.

describe('deliverables: several files from one paid result', () => {
  let rig: SandboxRig;

  beforeEach(async () => {
    rig = await startSandboxRig({ credits: 1000 });
  });
  afterEach(() => rig.close());

  it('3 deliverables from 1 execution per photo: folders with tokens, own names, formats and sizes', async () => {
    const photos = await writePhotos(rig.dir.path, 3, { width: 96, height: 64 });
    const out = join(rig.dir.path, 'out');
    const batch = await rig.engine.createBatch({
      workflowId: 'upscale', inputs: { paths: photos }, job: 'Smith wedding', client: 'Ana/B',
      output: { outputFolder: out, format: 'jpeg', namingTemplate: '{name}_{workflow}{ext}' },
      deliverables: [
        { folder: 'png', format: 'png', namingTemplate: '{name}{ext}' },
        { folder: '{client}/{job}/small', format: 'webp', namingTemplate: '{name}_small{ext}', size: { fit: 'long-edge', longEdge: 32 }, metadata: 'strip' },
      ],
    });
    const summary = await waitForBatch(rig.engine, batch.id);
    expect(summary.counts.saved).toBe(3);
    const stats = rig.sandbox.stats();
    expect(stats.executionsCreated).toBe(3);
    expect(stats.resultDownloads).toBe(3); // the result cache serves the 2nd and 3rd deliverable
    for (const item of rig.engine.listItems({ batchId: batch.id }).items) {
      const stem = basename(Object.values(item.sources)[0]!, '.jpg');
      expect(item.outputs).toEqual([
        join(out, `${stem}_upscale.jpg`), join(out, 'png', `${stem}.png`), join(out, 'Ana-B', 'Smith wedding', 'small', `${stem}_small.webp`),
      ]);
      const [jpeg, png, webp] = await Promise.all(item.outputs.map((p) => sharp(p).metadata()));
      expect([jpeg!.format, png!.format, webp!.format]).toEqual(['jpeg', 'png', 'webp']);
      expect(Math.max(webp!.width!, webp!.height!)).toBe(32);
      expect(Math.max(jpeg!.width!, jpeg!.height!)).toBeGreaterThan(32);
    }
  });

  it('a deliverable that cannot be made yet fails after the others are written; retried, it finishes without paying or downloading again', async () => {
    const photos = await writePhotos(rig.dir.path, 2);
    const logo = join(rig.dir.path, 'logo.png');
    await sharp({ create: { width: 40, height: 20, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } } }).png().toFile(logo);
    const sha256 = createHash('sha256').update(await readFile(logo)).digest('hex');
    await rename(logo, `${logo}.away`); // the watermark's drive is not plugged in
    const out = join(rig.dir.path, 'out');
    const batch = await rig.engine.createBatch({
      workflowId: 'upscale', inputs: { paths: photos }, output: { outputFolder: out, format: 'jpeg' },
      deliverables: [{ folder: 'marked', format: 'jpeg', namingTemplate: '{name}{ext}', watermark: { path: logo, sha256, position: 'bottom-right', scale: 0.3, opacity: 1 } }],
    });
    let summary = await waitForBatch(rig.engine, batch.id);
    expect(summary.counts.saved ?? 0).toBe(0);
    const failed = rig.engine.listItems({ batchId: batch.id }).items;
    expect(failed.map((i) => i.state)).toEqual(['failed', 'failed']);
    for (const item of failed) {
      expect(item.reason).toContain('logo.png');
      expect(item.outputs).toHaveLength(1); // the first deliverable is on disk already
      expect(existsSync(item.outputs[0]!)).toBe(true);
    }
    expect(rig.sandbox.stats().executionsCreated).toBe(2);

    await rename(`${logo}.away`, logo);
    rig.engine.retryFailed(batch.id);
    summary = await waitForBatch(rig.engine, batch.id);
    expect(summary.counts.saved).toBe(2);
    const stats = rig.sandbox.stats();
    expect(stats.executionsCreated).toBe(2);
    expect(stats.resultDownloads).toBe(2);
    for (const item of rig.engine.listItems({ batchId: batch.id }).items) {
      expect(item.outputs).toHaveLength(2);
      expect(item.outputs[1]).toBe(join(out, 'marked', basename(Object.values(item.sources)[0]!)));
      // The first file was not written again: still one file in the output folder per photo.
      expect(existsSync(item.outputs[0]!.replace(/\.jpg$/, ' (2).jpg'))).toBe(false);
    }
  });

  it('the estimate names where the first deliverable goes, its folder included', async () => {
    const photos = await writePhotos(rig.dir.path, 1);
    const out = join(rig.dir.path, 'out');
    await writeFile(join(rig.dir.path, 'unused'), '');
    const estimate = await rig.engine.estimate({
      workflowId: 'upscale', inputs: { paths: photos }, job: 'J1',
      output: { outputFolder: out, folder: 'web/{job}', namingTemplate: '{name}{ext}' },
    });
    expect(estimate.namingPreview[0]!.output).toBe(join(out, 'web', 'J1', basename(photos[0]!)));
  });

  it('two deliverables naming the same file never write over each other, even under "overwrite"', async () => {
    const photos = await writePhotos(rig.dir.path, 2, { width: 96, height: 64 });
    const out = join(rig.dir.path, 'out');
    const batch = await rig.engine.createBatch({
      workflowId: 'upscale', inputs: { paths: photos },
      output: { outputFolder: out, format: 'jpeg', namingTemplate: '{name}{ext}', collisionPolicy: 'overwrite' },
      deliverables: [{ folder: '', format: 'jpeg', namingTemplate: '{name}{ext}', size: { fit: 'long-edge', longEdge: 16 } }],
    });
    expect((await waitForBatch(rig.engine, batch.id)).counts.saved).toBe(2);
    for (const item of rig.engine.listItems({ batchId: batch.id }).items) {
      expect(new Set(item.outputs).size).toBe(2);
      const [full, small] = await Promise.all(item.outputs.map((p) => sharp(p).metadata()));
      expect(Math.max(full!.width!, full!.height!)).toBeGreaterThan(16);
      expect(Math.max(small!.width!, small!.height!)).toBe(16);
    }
  });

  it('under "skip", a name taken for one deliverable leaves that file alone and still makes the others', async () => {
    const photos = await writePhotos(rig.dir.path, 1, { width: 96, height: 64 });
    const out = join(rig.dir.path, 'out');
    await mkdir(out, { recursive: true });
    const stem = basename(photos[0]!, '.jpg');
    await writeFile(join(out, `${stem}.jpg`), 'someone else\'s file');
    const batch = await rig.engine.createBatch({
      workflowId: 'upscale', inputs: { paths: photos },
      output: { outputFolder: out, format: 'jpeg', namingTemplate: '{name}{ext}', collisionPolicy: 'skip' },
      deliverables: [{ folder: 'web', format: 'png', namingTemplate: '{name}{ext}' }],
    });
    expect((await waitForBatch(rig.engine, batch.id)).counts.saved).toBe(1);
    const [item] = rig.engine.listItems({ batchId: batch.id }).items;
    expect(item!.reason).toContain('already exists (collision policy "skip")');
    expect(await readFile(join(out, `${stem}.jpg`), 'utf8')).toBe('someone else\'s file');
    expect((await sharp(join(out, 'web', `${stem}.png`)).metadata()).format).toBe('png');
  });
});
