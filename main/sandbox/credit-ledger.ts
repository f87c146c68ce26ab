import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';
import { SandboxError } from './errors';

// Where the sandbox keeps each key's API credits. In memory for a sandbox of its own (tests, `batchroom sandbox`);
// in a SQLite file in the state folder for the embedded one, so the balance goes down across commands as a real
// account's does. Every charge is a check-and-deduct in one immediate transaction: two commands (or the app and a
// command) on one state folder each run their own embedded sandbox on the same file, and neither may lose the other's
// charge or spend credits the other already spent.

export interface CreditLedger {
  balance(key: string): number;
  /** Deducts `cost`, or throws 402 `insufficient_credits` when the balance does not cover it (nothing deducted). */
  charge(key: string, cost: number): void;
  refund(key: string, amount: number): void;
  set(key: string, credits: number): void;
  close(): void;
}

export function insufficientCredits(cost: number, available: number): SandboxError {
  return new SandboxError(402, 'insufficient_credits', `this execution costs ${cost} credits but only ${available} are available`, {
    required: cost, available,
  });
}

export function memoryCreditLedger(startCredits: number): CreditLedger {
  const credits = new Map<string, number>();
  const balance = (key: string) => credits.get(key) ?? startCredits;
  return {
    balance,
    charge(key, cost) {
      const available = balance(key);
      if (available < cost) throw insufficientCredits(cost, available);
      credits.set(key, available - cost);
    },
    refund(key, amount) {
      credits.set(key, balance(key) + amount);
    },
    set(key, value) {
      credits.set(key, value);
    },
    close() {},
  };
}

type Db = InstanceType<typeof Database>;
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (key TEXT PRIMARY KEY, api_credits REAL NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Opens (creating owner-only) the SQLite file both the ledger and the embedded key live in. */
export function openSandboxDb(path: string): Db {
  mkdirSync(dirname(path), { recursive: true });
  // Created 0600 before SQLite opens it (its -wal and -shm files take its mode): it holds the embedded sandbox's key.
  closeSync(openSync(path, 'a', 0o600));
  const db: Db = new Database(path);
  // Another process holding the write lock (its own charge, a few microseconds) is waited for, not an error.
  db.exec('PRAGMA busy_timeout = 10000');
  // WAL with synchronous=NORMAL: a commit survives a killed process (Ctrl-C, a crash) without an fsync; a power cut may
  // lose the last few charges of free test credits. FULL cost 10 ms of the command's own event loop per charge here
  // (the embedded sandbox shares it with the engine), three times per execution.
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(SCHEMA);
  return db;
}

export interface SqliteCreditLedgerOptions {
  path: string;
  /** The balance a key starts with the first time this file sees it. */
  startCredits: number;
}

export function sqliteCreditLedger({ path, startCredits }: SqliteCreditLedgerOptions): CreditLedger {
  const db = openSandboxDb(path);
  const prepared = new Map<string, Stmt>();
  const stmt = (sql: string): Stmt => {
    let s = prepared.get(sql);
    if (!s) {
      s = db.prepare(sql) as unknown as Stmt;
      prepared.set(sql, s);
    }
    return s;
  };
  const read = (key: string): number => {
    const row = stmt('SELECT api_credits AS credits FROM accounts WHERE key = ?').get(key) as { credits: number } | undefined;
    return row ? Number(row.credits) : startCredits;
  };
  const write = (key: string, credits: number) =>
    stmt('INSERT INTO accounts (key, api_credits) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET api_credits = excluded.api_credits').run(key, credits);
  // IMMEDIATE takes the write lock before the read, so the read-check-write of two processes cannot interleave.
  const inWriteTransaction = <T>(work: () => T): T => db.transaction(work).immediate();
  return {
    balance: read,
    charge(key, cost) {
      inWriteTransaction(() => {
        const available = read(key);
        if (available < cost) throw insufficientCredits(cost, available);
        write(key, available - cost);
      });
    },
    refund(key, amount) {
      inWriteTransaction(() => write(key, read(key) + amount));
    },
    set(key, credits) {
      inWriteTransaction(() => write(key, credits));
    },
    close() {
      db.close();
    },
  };
}

/**
 * The embedded sandbox's key in this file, created on first use: the same key in every command is the same account
 * (a random key per start would be a fresh 1,000-credit account each time). Two first starts at once agree on one.
 */
export function sandboxKeyIn(path: string, generate: () => string): string {
  const db = openSandboxDb(path);
  try {
    return db.transaction(() => {
      const row = db.prepare("SELECT value FROM meta WHERE name = 'apiKey'").get() as { value: string } | undefined;
      if (row) return row.value;
      const key = generate();
      db.prepare("INSERT INTO meta (name, value) VALUES ('apiKey', ?)").run(key);
      return key;
    }).immediate();
  } finally {
    db.close();
  }
}
