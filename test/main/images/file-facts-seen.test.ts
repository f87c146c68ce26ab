import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FACTS_FILE, openFactsStore } from '../../../main/core/images/file-facts-store';

// Rows not seen for 180 days are dropped when the store opens. A shoot planned again and again (warm: its rows are
// read, never rewritten) must count as seen, or its rows expire and the whole shoot is read again.
describe('file facts store: rows read are seen', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-seen-')); });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const seenOf = (paths: string[]) => {
    const db = new Database(join(dir, FACTS_FILE));
    try {
      return paths.map((p) => (db.prepare('SELECT seen FROM facts WHERE path = ?').get(p) as { seen: number }).seen);
    } finally {
      db.close();
    }
  };
  const age = (paths: string[], days: number) => {
    const db = new Database(join(dir, FACTS_FILE));
    for (const p of paths) db.prepare('UPDATE facts SET seen = ? WHERE path = ?').run(Date.now() - days * 86_400_000, p);
    db.close();
  };

  it('a row read by get or getMany is marked seen again, in one write; a recent one is not rewritten', async () => {
    const store = openFactsStore(dir)!;
    for (const p of ['/a.jpg', '/b.jpg', '/c.jpg']) store.put(p, { identity: `1:${p}`, hash: 'h' });
    store.close();
    age(['/a.jpg', '/b.jpg'], 170);
    const [, , recent] = seenOf(['/a.jpg', '/b.jpg', '/c.jpg']);

    const again = openFactsStore(dir)!;
    expect(again.get('/a.jpg')?.hash).toBe('h');
    expect(again.getMany(['/b.jpg', '/c.jpg']).size).toBe(2);
    again.close();
    const [a, b, c] = seenOf(['/a.jpg', '/b.jpg', '/c.jpg']);
    const dayAgo = Date.now() - 86_400_000;
    expect(a).toBeGreaterThan(dayAgo);
    expect(b).toBeGreaterThan(dayAgo);
    expect(c).toBe(recent);

    age(['/a.jpg'], 179); // had it not been marked it would now be 349 days old and dropped at the next open
    const third = openFactsStore(dir)!;
    expect(third.get('/b.jpg')?.hash).toBe('h');
    third.close();
  });
});
