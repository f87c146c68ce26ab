import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Issue 34 #1: 1,000 folders given at once (a shell's `shoot/*`) asked, for each, whether it was the output folder of
// any other — 1,000 × 1,000 path comparisons, 7 s of a 100k estimate's 45. The answer must stay the same (the output
// folder given among them is still passed over) while the comparisons grow with the folders, not their square.

const calls = vi.hoisted(() => ({ isInside: 0 }));
vi.mock('../../../main/core/media/inside-root', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../main/core/media/inside-root')>();
  return { ...actual, isInside: (...args: Parameters<typeof actual.isInside>) => (calls.isInside++, actual.isInside(...args)) };
});
const { resolveInputs } = await import('../../../main/core/images/resolve-inputs');

const FOLDERS = 300;
let base: string;
let folders: string[];

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'batchroom-many-folders-')));
  folders = Array.from({ length: FOLDERS }, (_, i) => join(base, `d${String(i).padStart(4, '0')}`));
  for (const [i, folder] of folders.entries()) {
    await mkdir(folder);
    await writeFile(join(folder, `IMG_${i}.jpg`), `photo ${i}`);
  }
  // The output folder of an earlier run, inside the shoot: `run shoot/*` names it among the folders and the shoot's
  // own photos (whose folder, the shoot, holds it).
  await writeFile(join(base, 'IMG_top.jpg'), 'a photo of the shoot itself');
  await mkdir(join(base, 'Batchroom'));
  await writeFile(join(base, 'Batchroom', 'result.jpg'), 'a result');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveInputs with many folders given', () => {
  it('finds every photo, passes the output folder over, and compares paths a few times per folder, not per pair', async () => {
    calls.isInside = 0;
    const { files, skipped } = await resolveInputs([join(base, 'IMG_top.jpg'), ...folders, join(base, 'Batchroom')], { recursive: true, exclude: [join(base, 'Batchroom')] });
    expect(files).toHaveLength(FOLDERS + 1);
    expect(files.some((f) => f.path.includes('Batchroom'))).toBe(false);
    expect(skipped).toEqual([]);
    // Before: every given folder was compared with every other (180,603 calls: each pair twice).
    expect(calls.isInside).toBeLessThan(10 * (FOLDERS + 2));
  });
});
