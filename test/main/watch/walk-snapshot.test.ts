import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { junkReason as junkNameReason, skippedFolderReason } from '../../../shared/media/input-policy';
import { isInside, segmentsInside } from '../../../main/core/media/inside-root';
import { fastInsideRoot, ignoreRulesFor } from '../../../main/core/watch/ignore';
import { INITIAL_STAT_COST_US, MAX_MS_PER_FILE, RECHECK_CPU_SHARE, recheckCycleMs, StatCost } from '../../../main/core/watch/snapshot-poller';
import { WalkSnapshot } from '../../../main/core/watch/walk-snapshot';

const file = (size: number, mtimeMs: number, ino: number) => ({ isFile: () => true, size, mtimeMs, ino }) as unknown as Stats;
const dir = { isFile: () => false } as unknown as Stats;

describe('WalkSnapshot', () => {
  it('skips the files the walk saw while they stay as they were, and reports every other file', () => {
    const snapshot = new WalkSnapshot();
    expect(snapshot.skip('/in/a/1.jpg', file(10, 1000, 1))).toBe(true);
    expect(snapshot.skip('/in/a', dir)).toBe(false);
    snapshot.walked();
    expect(snapshot.skip('/in/a/1.jpg', file(10, 1000, 1))).toBe(true);
    expect(snapshot.get('/in/a/1.jpg')).toEqual({ size: 10, mtimeMs: 1000, ino: 1 });
    expect(snapshot.skip('/in/a/2.jpg', file(10, 1000, 2))).toBe(false);
    expect(snapshot.skip('/in/a/1.jpg', undefined)).toBe(false);
    // Rewritten (same size, new mtime): reported, and from then on chokidar's own.
    expect(snapshot.skip('/in/a/1.jpg', file(10, 2000, 1))).toBe(false);
    expect(snapshot.skip('/in/a/1.jpg', file(10, 1000, 1))).toBe(false);
    expect(snapshot.get('/in/a/1.jpg')).toBeUndefined();
  });

  it('reports a file moved out and back unchanged once its folder watch said its name changed', () => {
    const snapshot = new WalkSnapshot();
    snapshot.skip('/in/b.jpg', file(5, 7, 9));
    snapshot.walked();
    snapshot.touched('/in/b.jpg');
    expect(snapshot.skip('/in/b.jpg', file(5, 7, 9))).toBe(false);
  });
});

/** The rule as it was before the string fast path: segment by segment for every path. */
function segmentRule(root: string, outputFolder: string) {
  const excluded = [outputFolder, join(root, 'Done'), join(root, 'Failed')];
  return (path: string) => {
    const below = segmentsInside(root, path);
    if (below !== null && below.length === 0) return false;
    if (excluded.some((d) => isInside(path, d))) return true;
    const parts = below ?? [basename(path)];
    if (parts.slice(0, -1).some((p) => skippedFolderReason(p) !== null)) return true;
    const last = parts[parts.length - 1]!;
    return skippedFolderReason(last) !== null || junkNameReason(last) !== null;
  };
}

describe('ignore rules, answered on the path string', () => {
  it('give the segment rule\'s verdict on clean, unclean, inside and outside paths', () => {
    for (const [root, out] of [['/srv/in', '/srv/in/out'], ['/srv/in/', '/elsewhere/out'], ['/', '/out']] as const) {
      const rules = ignoreRulesFor(root, out);
      const reference = segmentRule(root, out);
      const paths = [
        '/srv/in', '/srv/in/', '/srv/in/a.jpg', '/srv/in/shoot/a.jpg', '/srv/in/.hidden/a.jpg', '/srv/in/shoot/.a.jpg',
        '/srv/in/out', '/srv/in/out/x.jpg', '/srv/in/outer/x.jpg', '/srv/in/Done/x.jpg', '/srv/in/done/x.jpg', '/srv/in/Failed',
        '/srv/in/__MACOSX/x.jpg', '/srv/in/a/$RECYCLE.BIN/x.jpg', '/srv/in/Thumbs.db', '/srv/in/x.jpg.part', '/srv/in/~$x.jpg',
        '/srv/in//double/x.jpg', '/srv/in/./x.jpg', '/srv/in/a/../.hidden/x.jpg', '/srv/in/../in/Done/x.jpg', '/srv/in-2/x.jpg',
        '/srv/input/x.jpg', '/elsewhere/out/x.jpg', '/elsewhere/x.jpg', '/out/x.jpg', '/srv/in/..photos/x.jpg', '/srv/in/a/',
      ];
      for (const path of paths) expect([root, path, rules(path)]).toEqual([root, path, reference(path)]);
    }
  });
});

describe('the polling recheck of the walk\'s files', () => {
  it('looks at every file once per cycle within its CPU share, and stretches the cycle past it', () => {
    expect(recheckCycleMs(1_000, 30_000)).toBe(30_000);
    // The most files a 30 s cycle holds at 20 µs an lstat and 0.5 % of a core: 7,500.
    const fit = (30_000 * 1000 * RECHECK_CPU_SHARE) / INITIAL_STAT_COST_US;
    expect(recheckCycleMs(fit, 30_000)).toBe(30_000);
    expect(recheckCycleMs(100_000, 30_000)).toBe(400_000);
    // A cheaper lstat (a fast disk on a quiet machine) shortens the cycle; a dearer one (a share) stretches it, up to
    // MAX_MS_PER_FILE a file whatever the measurement says (10 min at 100k).
    expect(recheckCycleMs(100_000, 30_000, 5)).toBe(100_000);
    expect(recheckCycleMs(10_000, 30_000, 30)).toBe(60_000);
    expect(recheckCycleMs(100_000, 30_000, 200)).toBe(100_000 * MAX_MS_PER_FILE);
    expect(recheckCycleMs(100_000, 30_000, 2_000)).toBe(600_000);
  });

  it('takes the median of the recent slices\' costs: outside CPU in a few slices does not raise it, a lasting cost does', () => {
    const cost = new StatCost();
    expect(cost.us).toBe(INITIAL_STAT_COST_US);
    cost.measured(60 * 30, 60); // 30 µs each
    expect(cost.us).toBe(30);
    cost.measured(5_000 + 60 * 30, 60); // the engine's 5 ms landed in this slice
    expect(cost.us).toBe(30);
    cost.measured(60 * 30, 60);
    cost.measured(5_000 + 60 * 30, 60); // and in one more of four
    expect(cost.us).toBe(30);
    for (let i = 0; i < 8; i++) cost.measured(60 * 100, 60); // a share that stays dear
    expect(cost.us).toBe(100);
    cost.measured(1_000, 0);
    expect(cost.us).toBe(100);
  });
});

const link = { isFile: () => false, isSymbolicLink: () => true } as unknown as Stats;

describe('WalkSnapshot edge cases', () => {
  it('forgets a walked file replaced by a link (or a folder) once the walk is over, so the scan runs the link guard', () => {
    const snapshot = new WalkSnapshot();
    snapshot.skip('/in/a.jpg', file(10, 1000, 1));
    snapshot.skip('/in/b.jpg', file(10, 1000, 2));
    snapshot.walked();
    expect(snapshot.skip('/in/a.jpg', link)).toBe(false);
    expect(snapshot.get('/in/a.jpg')).toBeUndefined();
    expect(snapshot.skip('/in/b.jpg', dir)).toBe(false);
    expect(snapshot.get('/in/b.jpg')).toBeUndefined();
    // Back as the very same file: still reported (it was forgotten for good).
    expect(snapshot.skip('/in/a.jpg', file(10, 1000, 1))).toBe(false);
  });

  it('keeps an entry when chokidar asks without stats, and counts what it holds', () => {
    const snapshot = new WalkSnapshot();
    snapshot.skip('/in/a.jpg', file(10, 1000, 1));
    snapshot.skip('/in/a.jpg', undefined);
    snapshot.walked();
    expect(snapshot.skip('/in/a.jpg', undefined)).toBe(false);
    expect(snapshot.size).toBe(1);
    expect([...snapshot.paths()]).toEqual(['/in/a.jpg']);
  });

  it('treats a new inode under the old name (same size and mtime) as a new file', () => {
    const snapshot = new WalkSnapshot();
    snapshot.skip('/in/a.jpg', file(10, 1000, 1));
    snapshot.walked();
    expect(snapshot.skip('/in/a.jpg', file(10, 1000, 99))).toBe(false);
    expect(snapshot.size).toBe(0);
  });
});

describe('fastInsideRoot', () => {
  it('gives the segment rule\'s verdict whenever it answers, and leaves unclean paths to it', () => {
    const root = '/srv/in';
    const out = '/srv/in/out';
    const fast = fastInsideRoot(root, [out, '/srv/in/Done', '/srv/in/Failed'], 'linux', '/');
    const reference = segmentRule(root, out);
    const names = ['a.jpg', '.a.jpg', 'Thumbs.db', 'x.part', 'out', 'Done', 'Failed', 'outer', '__MACOSX', '.hidden', 'shoot'];
    let answered = 0;
    for (const a of names) {
      for (const b of ['', ...names]) {
        const path = b ? `${root}/${a}/${b}` : `${root}/${a}`;
        const verdict = fast(path);
        if (verdict === null) continue;
        answered++;
        expect(verdict, path).toBe(reference(path));
      }
    }
    expect(answered).toBe(names.length * (names.length + 1));
    for (const unclean of ['/srv/in', '/srv/in/', '/srv/in//a.jpg', '/srv/in/./a.jpg', '/srv/in/a/../b.jpg', '/srv/in-2/a.jpg', '/elsewhere/a.jpg']) {
      expect(fast(unclean), unclean).toBeNull();
    }
  });

  it('folds case where volumes are case-insensitive (Done/ is done/ on macOS)', () => {
    const fast = fastInsideRoot('/Users/me/In', ['/Users/me/In/Done'], 'darwin', '/');
    expect(fast('/users/me/in/done/x.jpg')).toBe(true);
    expect(fast('/Users/me/In/shoot/x.jpg')).toBe(false);
    expect(fastInsideRoot('/srv/In', ['/srv/In/Done'], 'linux', '/')('/srv/in/x.jpg')).toBeNull();
  });
});
