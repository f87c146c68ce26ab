import { mkdir, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planOutputNames } from '../../../shared/naming';
import { folderBatches, ScanBatches } from '../../../main/core/watch/batches';
import { createFakeEngine, folderConfig, harness, jpegBytes, removeDir, tempDir, waitFor } from './fakes';

describe('folderBatches', () => {
  it('makes one batch per sub-folder, in the order given, at most `max` each', () => {
    const paths = ['/in/a.jpg', '/in/d1/b.jpg', '/in/c.jpg', '/in/d.jpg', '/in/d1/e.jpg', '/in/e.jpg', '/in-2/x.jpg'];
    expect(folderBatches(paths, (p) => p, '/in', 2)).toEqual([
      { rel: '', items: ['/in/a.jpg', '/in/c.jpg'] },
      { rel: '', items: ['/in/d.jpg', '/in/e.jpg'] },
      // A path outside the folder (never sent, but never mirrored outside the output either) counts as its root.
      { rel: '', items: ['/in-2/x.jpg'] },
      { rel: 'd1', items: ['/in/d1/b.jpg', '/in/d1/e.jpg'] },
    ]);
  });
});

describe('ScanBatches', () => {
  const order = ['/in/1.jpg', '/in/2.jpg', '/in/3.jpg', '/in/4.jpg', '/in/5.jpg', '/in/d/6.jpg', '/in/d/7.jpg'];
  const item = (path: string) => ({ path });

  it('cuts the batches folderBatches cuts, however out of order the files are looked at', () => {
    const candidates = order.filter((p) => !p.endsWith('3.jpg')); // 3.jpg turns out done: not in any batch
    const expected = folderBatches(candidates, (p) => p, '/in', 2).map((b) => b.items);
    for (const lookOrder of [[...order], [...order].reverse(), [order[4]!, order[0]!, order[6]!, order[2]!, order[1]!, order[5]!, order[3]!]]) {
      const sent: string[][] = [];
      const scan = new ScanBatches<{ path: string }>(order, '/in', 2, (items) => sent.push(items.map((i) => i.path)));
      for (const path of lookOrder) {
        if (candidates.includes(path)) expect(scan.take(item(path))).toBe(true);
        scan.done(path);
      }
      scan.end();
      expect(sent.sort()).toEqual([...expected].sort());
    }
  });

  it('sends a full batch as soon as every file before it was looked at, the rest at the end', () => {
    const sent: string[][] = [];
    const scan = new ScanBatches<{ path: string }>(order, '/in', 2, (items) => sent.push(items.map((i) => i.path)));
    scan.take(item('/in/2.jpg'));
    scan.done('/in/2.jpg');
    scan.take(item('/in/1.jpg'));
    expect(sent).toEqual([]);
    scan.done('/in/1.jpg');
    expect(sent).toEqual([['/in/1.jpg', '/in/2.jpg']]);
    scan.take(item('/in/5.jpg'));
    scan.done('/in/5.jpg');
    expect(sent).toHaveLength(1);
    // The root's last file (5.jpg) was not looked at yet: 3 and 4 might still join it.
    scan.done('/in/3.jpg');
    expect(sent).toHaveLength(1);
    scan.done('/in/4.jpg');
    expect(sent).toEqual([['/in/1.jpg', '/in/2.jpg'], ['/in/5.jpg']]);
    scan.end();
    expect(sent).toHaveLength(2);
    // After the scan, a path of it goes the ordinary way.
    expect(scan.take(item('/in/3.jpg'))).toBe(false);
  });

  it("sends a sub-folder's last, smaller batch once its last file was looked at, before the scan ends", () => {
    const sent: string[][] = [];
    // Sorted order interleaves: d/ sorts between the root's files.
    const mixed = ['/in/a.jpg', '/in/d/1.jpg', '/in/d/2.jpg', '/in/z.jpg'];
    const scan = new ScanBatches<{ path: string }>(mixed, '/in', 500, (items) => sent.push(items.map((i) => i.path)));
    for (const path of mixed.slice(0, 3)) {
      scan.take(item(path));
      scan.done(path);
    }
    expect(sent).toEqual([['/in/d/1.jpg', '/in/d/2.jpg']]);
    scan.take(item('/in/z.jpg'));
    scan.done('/in/z.jpg');
    expect(sent).toEqual([['/in/d/1.jpg', '/in/d/2.jpg'], ['/in/a.jpg', '/in/z.jpg']]);
    scan.end();
    expect(sent).toHaveLength(2);
  });

  it('hands back what it holds when dropped, and sends nothing afterwards', () => {
    const sent: string[][] = [];
    const scan = new ScanBatches<{ path: string }>(order, '/in', 2, (items) => sent.push(items.map((i) => i.path)));
    scan.take(item('/in/1.jpg'));
    scan.done('/in/1.jpg');
    scan.take(item('/in/3.jpg'));
    expect(scan.drop().map((i) => i.path).sort()).toEqual(['/in/1.jpg', '/in/3.jpg']);
    scan.end();
    expect(sent).toEqual([]);
  });
});

describe('the dry run names what the submitter will write', () => {
  let root: string;
  let close: (() => Promise<void>) | null = null;
  beforeEach(async () => {
    root = await tempDir('br-watch-batches-');
  });
  afterEach(async () => {
    await close?.();
    close = null;
    await removeDir(root);
  });

  it('with more than 500 photos and an {index} template: every name shown is the name of its place in its batch', async () => {
    const inbox = join(root, 'in');
    const out = join(root, 'out');
    await mkdir(join(inbox, 'day1'), { recursive: true });
    const photos: string[] = [];
    for (let n = 1; n <= 601; n++) photos.push(join(inbox, `IMG_${String(n).padStart(4, '0')}.jpg`));
    for (let n = 1; n <= 3; n++) photos.push(join(inbox, 'day1', `DSC_${n}.jpg`));
    await Promise.all(photos.map((p) => writeFile(p, jpegBytes(p))));

    const engine = createFakeEngine({ autoComplete: false });
    const h = harness({ engine });
    close = () => h.manager.close();
    const template = '{index}_{name}';
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, recursive: true, existingFiles: 'dry-run', namingTemplate: template }));
    const report = await h.manager.dryRun('f1');
    expect(report.toProcess).toHaveLength(604);
    expect(report.colliding).toEqual([]);
    const shown = new Map(report.toProcess.map((f) => [f.path, f.output]));
    // The 601st photo is the 101st of the second batch of the folder's root (500 at most per batch).
    expect(shown.get(join(inbox, 'IMG_0601.jpg'))).toBe(join(out, '101_IMG_0601.jpg'));
    expect(shown.get(join(inbox, 'IMG_0500.jpg'))).toBe(join(out, '500_IMG_0500.jpg'));
    expect(shown.get(join(inbox, 'day1', 'DSC_2.jpg'))).toBe(join(out, 'day1', '002_DSC_2.jpg'));

    await h.manager.setArmed('f1', true);
    await waitFor(() => engine.submittedPaths().length === photos.length, 20_000, 'every held photo submitted');
    expect(engine.submittedPaths().sort()).toEqual([...photos].sort());
    expect(engine.submissions.map((s) => s.paths.length).sort((a, b) => a - b)).toEqual([3, 101, 500]);
    // Each batch named as the engine names it: {index} is the position in the batch, its width from the batch's size.
    for (const { spec, paths } of engine.submissions) {
      const plan = planOutputNames(paths.map((path, i) => ({ key: path, sourcePath: path, relDir: '', index: i + 1, outputs: [{ ext: extname(path) }] })), {
        template, workflow: spec.workflowId, total: paths.length, at: new Date(), policy: spec.output.collisionPolicy,
      }, []);
      for (const [i, path] of paths.entries()) {
        expect(shown.get(path), basename(path)).toBe(join(spec.output.outputFolder, plan[i]!.outputs[0]!.relPath));
      }
    }
  });
  it('counts the half of a RAW+JPEG pair that is sent but not named where the batch is cut', async () => {
    const inbox = join(root, 'in');
    const out = join(root, 'out');
    await mkdir(inbox, { recursive: true });
    const names = ['A.jpg', 'B.CR3', 'B.JPG', 'C.jpg', 'D.jpg'];
    await Promise.all(names.map((n) => writeFile(join(inbox, n), jpegBytes(n))));
    const engine = createFakeEngine({ autoComplete: false });
    const h = harness({ engine, maxBatchSize: 3 });
    close = () => h.manager.close();
    await h.manager.save(folderConfig({ path: inbox, outputFolder: out, existingFiles: 'dry-run', namingTemplate: '{index}_{name}' }));
    const report = await h.manager.dryRun('f1');
    // The submitter sends [A, B.CR3, B.JPG] and [C, D]; the engine edits B once, from the JPEG, so it is 002 in the first.
    expect(report.toProcess.map((f) => basename(f.output))).toEqual(['001_A.jpg', '002_B.jpg', '001_C.jpg', '002_D.jpg']);
    await h.manager.setArmed('f1', true);
    await waitFor(() => engine.submittedPaths().length === names.length, 20_000, 'every held photo submitted');
    expect(engine.submissions.map((s) => s.paths.map((p) => basename(p)))).toEqual([['A.jpg', 'B.CR3', 'B.JPG'], ['C.jpg', 'D.jpg']]);
  });
});
