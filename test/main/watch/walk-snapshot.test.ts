import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { junkReason as junkNameReason, skippedFolderReason } from '../../../shared/media/input-policy';
import { isInside, segmentsInside } from '../../../main/core/media/inside-root';
import { ignoreRulesFor } from '../../../main/core/watch/ignore';
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
