import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileFacts, fileFactReads } from '../../../main/core/images/file-facts';
import { hashFile } from '../../../main/core/images/hash';

describe('file facts: what the planner read of a file, kept while it is unchanged', () => {
  let dir: string;
  // Files read by this process since the test began (every read of a fact counts: file-facts.ts).
  let readsBefore = 0;
  const reads = { get length() { return fileFactReads() - readsBefore; } };
  // Files written by the test a moment ago count as settled from 10 s on.
  const later = () => Date.now() + 10_000;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-facts-'));
    readsBefore = fileFactReads();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('hashes a file once while it is unchanged (the estimate, then Start)', async () => {
    const path = join(dir, 'a.jpg');
    await writeFile(path, 'first contents');
    const facts = createFileFacts({ now: later });
    const first = await facts.contentHash(path);
    expect(first).toBe(await hashFile(path));
    expect(await facts.contentHash(path)).toBe(first);
    expect(reads.length).toBe(1);
  });

  it('reads a file again when it was rewritten in place, even with the same size and its old modification time', async () => {
    const path = join(dir, 'a.jpg');
    await writeFile(path, 'AAAA');
    const mtime = new Date('2026-01-02T03:04:05.000Z'); // whole milliseconds: utimes restores it exactly
    await utimes(path, mtime, mtime);
    const facts = createFileFacts({ now: later });
    const before = await facts.contentHash(path);
    await new Promise((r) => setTimeout(r, 20));
    await writeFile(path, 'BBBB');
    await utimes(path, mtime, mtime); // a tool that keeps the date: the change time still moves
    expect((await stat(path, { bigint: true })).mtimeNs).toBe(BigInt(mtime.getTime()) * 1_000_000n);
    const after = await facts.contentHash(path);
    expect(after).not.toBe(before);
    expect(after).toBe(await hashFile(path));
    expect(reads.length).toBe(2);
  });

  it('keeps nothing of a file changed in the last 2 s (a coarse clock could hide a second write)', async () => {
    const path = join(dir, 'a.jpg');
    await writeFile(path, 'just arrived');
    const facts = createFileFacts();
    await facts.contentHash(path);
    await facts.contentHash(path);
    expect(reads.length).toBe(2);
    const settled = createFileFacts({ now: later });
    await settled.contentHash(path);
    await settled.contentHash(path);
    expect(reads.length).toBe(3);
  });

  it('forgets the file used longest ago beyond its size', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => join(dir, n)) as [string, string, string];
    for (const p of [a, b, c]) await writeFile(p, p);
    const facts = createFileFacts({ maxEntries: 2, now: later });
    await facts.contentHash(a);
    await facts.contentHash(b);
    await facts.contentHash(a); // used again: b is now the oldest
    await facts.contentHash(c);
    expect(reads.length).toBe(3);
    await facts.contentHash(a);
    expect(reads.length).toBe(3);
    await facts.contentHash(b);
    expect(reads.length).toBe(4);
  });

  it('keeps a fact as long as the file is unchanged (no time limit: the state folder keeps it between runs)', async () => {
    const path = join(dir, 'a.jpg');
    await writeFile(path, 'kept for the next run');
    let clock = Date.now() + 10_000;
    const facts = createFileFacts({ now: () => clock });
    await facts.contentHash(path);
    clock += 60 * 60_000;
    await facts.contentHash(path);
    expect(reads.length).toBe(1);
  });

  it('rejects with the system error for a file that is gone, and caches no failure', async () => {
    const facts = createFileFacts({ now: later });
    const path = join(dir, 'missing.jpg');
    await expect(facts.contentHash(path)).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFile(path, 'now here');
    expect(await facts.contentHash(path)).toBe(await hashFile(path));
  });

  it('reads the long edge from the header, and 0 for a file that is no image', async () => {
    const photo = join(dir, 'p.jpg');
    await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } }).jpeg().toFile(photo);
    const text = join(dir, 't.jpg');
    await writeFile(text, 'not a jpeg');
    const facts = createFileFacts();
    expect(await facts.longEdge(photo)).toBe(300);
    expect(await facts.longEdge(text)).toBe(0);
    expect(await facts.longEdge(join(dir, 'gone.jpg'))).toBe(0);
  });
});
