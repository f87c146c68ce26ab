import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import type { RawFacts } from './raw-check';

// The file facts kept between runs ("warm"): `file-facts.db` in the state folder, its own SQLite file, never the
// journal's. It is a cache and nothing else: a row is used only while the file's identity (device, inode, size,
// modification and change time in ns) is the one recorded with it; a missing, locked, corrupt or newer-format file just
// means cold (the file is recreated, or the store stays off for this process). Writes are batched in one transaction
// per FLUSH_ROWS rows (a statement each made 100k rows a second of fsyncs), and losing the last ones costs a re-read.

export interface StoredFacts {
  identity: string;
  hash?: string;
  longEdge?: number;
  raw?: RawFacts;
}

export interface FactsStore {
  get(path: string): StoredFacts | undefined;
  /** The rows of many files at once (one query per PREFETCH_ROWS paths; a query each cost ≈ 0.1 ms). */
  getMany(paths: readonly string[]): Map<string, StoredFacts>;
  put(path: string, facts: StoredFacts): void;
  /** Writes what is pending now (the CLI may exit right after its estimate). */
  flush(): void;
  close(): void;
}

export const FACTS_FILE = 'file-facts.db';
const VERSION = 1;
const FLUSH_ROWS = 1_000;
const FLUSH_DELAY_MS = 500;
/** Rows of files not looked at for this long are dropped when the store opens: shoots archived long ago. */
const KEEP_DAYS = 180;
const PREFETCH_ROWS = 500;
/** A row read (a warm shoot) is marked seen again once its mark is this old: a write per row a week at most, not per run. */
const RESEE_DAYS = 7;

interface Row { path?: string; identity: string; hash: string | null; long_edge: number | null; raw: string | null; seen: number }

const factsOf = (row: Row): StoredFacts => ({
  identity: row.identity,
  ...(row.hash !== null ? { hash: row.hash } : {}),
  ...(row.long_edge !== null ? { longEdge: row.long_edge } : {}),
  ...(row.raw !== null ? { raw: JSON.parse(row.raw) as RawFacts } : {}),
});

function openDb(file: string): Database.Database {
  const db = new Database(file);
  db.exec('PRAGMA busy_timeout = 200'); // the app and a CLI may share it: a long wait is worse than a re-read
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = OFF'); // disposable: a torn write costs a re-read, never a wrong answer (identity)
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version !== VERSION) {
    db.exec('DROP TABLE IF EXISTS facts');
    db.exec('CREATE TABLE facts (path TEXT PRIMARY KEY, identity TEXT NOT NULL, hash TEXT, long_edge INTEGER, raw TEXT, seen INTEGER NOT NULL) WITHOUT ROWID');
    db.exec(`PRAGMA user_version = ${VERSION}`);
  }
  db.prepare('DELETE FROM facts WHERE seen < ?').run(Date.now() - KEEP_DAYS * 86_400_000);
  return db;
}

/** The store in `dir`, or null when it cannot be opened even after starting it afresh (then planning is cold). */
export function openFactsStore(dir: string): FactsStore | null {
  const file = join(dir, FACTS_FILE);
  let db: Database.Database;
  try {
    mkdirSync(dir, { recursive: true });
    db = openDb(file);
  } catch {
    try {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      db = openDb(file);
    } catch {
      return null;
    }
  }
  const select = db.prepare('SELECT identity, hash, long_edge, raw, seen FROM facts WHERE path = ?');
  const selectMany = db.prepare(`SELECT path, identity, hash, long_edge, raw, seen FROM facts WHERE path IN (${Array(PREFETCH_ROWS).fill('?').join(',')})`);
  const upsert = db.prepare('INSERT OR REPLACE INTO facts (path, identity, hash, long_edge, raw, seen) VALUES (?, ?, ?, ?, ?, ?)');
  const markSeen = db.prepare('UPDATE facts SET seen = ? WHERE path = ?');
  const writeAll = db.transaction((rows: [string, StoredFacts][], reseen: string[]) => {
    const seen = Date.now();
    for (const [path, f] of rows) upsert.run(path, f.identity, f.hash ?? null, f.longEdge ?? null, f.raw ? JSON.stringify(f.raw) : null, seen);
    for (const path of reseen) markSeen.run(seen, path);
  });
  let pending = new Map<string, StoredFacts>();
  /** Rows read whose `seen` is old: marked with the next write (else a shoot planned every week still expired). */
  let reseen: string[] = [];
  const staleBefore = Date.now() - RESEE_DAYS * 86_400_000;
  const hit = (path: string, row: Row) => {
    if (row.seen < staleBefore) {
      reseen.push(path);
      if (reseen.length >= FLUSH_ROWS) flush();
      else schedule();
    }
    return factsOf(row);
  };
  let timer: NodeJS.Timeout | null = null;
  let broken = false;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if ((pending.size === 0 && reseen.length === 0) || broken) return;
    const rows = [...pending];
    const marks = reseen;
    pending = new Map();
    reseen = [];
    try {
      writeAll(rows, marks);
    } catch {
      broken = true; // locked for long or damaged meanwhile: this process goes on without keeping facts
    }
  };
  function schedule() {
    if (timer) return;
    timer = setTimeout(flush, FLUSH_DELAY_MS);
    timer.unref();
  }

  return {
    get(path) {
      const waiting = pending.get(path);
      if (waiting) return waiting;
      if (broken) return undefined;
      try {
        const row = select.get(path) as Row | undefined;
        return row ? hit(path, row) : undefined;
      } catch {
        return undefined;
      }
    },
    getMany(paths) {
      const found = new Map<string, StoredFacts>();
      if (broken) return found;
      try {
        for (let at = 0; at < paths.length; at += PREFETCH_ROWS) {
          const chunk = paths.slice(at, at + PREFETCH_ROWS);
          // A short last chunk repeats its first path: one prepared statement serves every chunk.
          const params = chunk.length === PREFETCH_ROWS ? chunk : [...chunk, ...Array<string>(PREFETCH_ROWS - chunk.length).fill(chunk[0]!)];
          for (const row of selectMany.all(...params) as Row[]) found.set(row.path!, hit(row.path!, row));
        }
      } catch {
        // unreadable meanwhile: what was not found is read from the files
      }
      for (const path of paths) {
        const waiting = pending.get(path);
        if (waiting) found.set(path, waiting);
      }
      return found;
    },
    put(path, facts) {
      if (broken) return;
      pending.set(path, facts);
      if (pending.size >= FLUSH_ROWS) flush();
      else schedule();
    },
    flush,
    close() {
      flush();
      try {
        db.close();
      } catch {
        // already closed
      }
    },
  };
}
