import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Issue 34 #1: a warm estimate stats every photo; asked of libuv's pool that was most of its CPU. On a local disk the
// stat is synchronous now — never on a volume statfs does not show local (a stalled share must not freeze the
// process), and never through a link (its target may be on one).

const seen = vi.hoisted(() => ({ asyncStats: [] as string[], remote: new Set<string>() }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const counted = ((path: string, options?: unknown) => {
    seen.asyncStats.push(String(path));
    return (actual.stat as (p: string, o?: unknown) => Promise<unknown>)(path, options);
  }) as typeof actual.stat;
  return { ...actual, stat: counted, default: { ...actual, stat: counted } };
});
vi.mock('../../../main/core/images/volume-ctime', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../main/core/images/volume-ctime')>();
  // A folder named "share" stands for a network volume: statfs cannot be made to say NFS in a test.
  return { ...actual, volumeIsLocal: (path: string) => (seen.remote.has(path) ? Promise.resolve(false) : actual.volumeIsLocal(path)) };
});
const { createFileFacts } = await import('../../../main/core/images/file-facts');
const { statForIdentity } = await import('../../../main/core/images/identity-stat');

let dir: string;
const later = () => Date.now() + 10_000;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-sync-stat-'));
  await mkdir(join(dir, 'local'));
  await mkdir(join(dir, 'share'));
  seen.remote.add(join(dir, 'share'));
  await writeFile(join(dir, 'local', 'a.jpg'), 'a photo');
  await writeFile(join(dir, 'share', 'b.jpg'), 'a photo on a share');
  await symlink(join(dir, 'share', 'b.jpg'), join(dir, 'local', 'link.jpg'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(process.platform !== 'linux')('the identity stat of a warm estimate', () => {
  it('stats a file on a local disk without the thread pool, once the folder is known local', async () => {
    const facts = createFileFacts({ now: later });
    const path = join(dir, 'local', 'a.jpg');
    const hash = await facts.contentHash(path);
    seen.asyncStats.length = 0;
    expect(await facts.contentHash(path)).toBe(hash);
    expect(seen.asyncStats).toEqual([]);
  });

  it('keeps the asynchronous stat on a volume not shown local, and for a link (its target may be on a share)', async () => {
    const facts = createFileFacts({ now: later });
    const onShare = join(dir, 'share', 'b.jpg');
    const link = join(dir, 'local', 'link.jpg');
    const hash = await facts.contentHash(onShare);
    await facts.contentHash(link);
    seen.asyncStats.length = 0;
    expect(await facts.contentHash(onShare)).toBe(hash);
    expect(await facts.contentHash(link)).toBe(hash);
    expect(seen.asyncStats).toEqual([onShare, link]);
  });

  it('answers what stat answers: the file behind a link, and ENOENT for a missing one', async () => {
    for (const path of [join(dir, 'local', 'a.jpg'), join(dir, 'local', 'link.jpg')]) {
      const [ours, theirs] = [await statForIdentity(path), await stat(path, { bigint: true })];
      expect([ours.dev, ours.ino, ours.size, ours.mtimeNs, ours.ctimeNs]).toEqual([theirs.dev, theirs.ino, theirs.size, theirs.mtimeNs, theirs.ctimeNs]);
    }
    await expect(statForIdentity(join(dir, 'local', 'missing.jpg'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
