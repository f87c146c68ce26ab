import { randomBytes } from 'node:crypto';
import { openSandboxDb } from './credit-ledger';
import type { ExecutionRecord } from './execution-record';
import type { ValidatedRequest } from './validate';

// The embedded sandbox's executions, kept next to its balance (sandbox-account.db). A real service finishes an
// execution it charged for whatever happens to the client; the embedded sandbox lives in the command's process, so
// without this an execution charged by a command that was then stopped (Ctrl-C, a crash) would be lost with its
// credits — the next command's sandbox would not know its id, and `batchroom resume` would find it "charged, no
// result". With it, the next sandbox on the same state folder, asked about such an execution, takes it over and runs
// it again from the request it kept (the sandbox's edits are deterministic), so the result arrives and is paid for
// once. Taken over only when asked: an execution whose results were fetched long ago is never run twice for nothing.

export interface PersistedExecution {
  id: string;
  key: string;
  workflowId: string;
  status: ExecutionRecord['status'];
  createdAt: number;
  creditsCharged: number;
  resultsExpireAt: number | null;
  request: ValidatedRequest | null;
}

export interface ExecutionLedger {
  /** An accepted (charged) execution and the request it runs, owned by this sandbox. */
  accepted(record: ExecutionRecord, request: ValidatedRequest): void;
  /** Its final state; the request is kept while the results may still be fetched (they live in memory). */
  finished(record: ExecutionRecord): void;
  /**
   * Takes over execution `id` of `key` for this sandbox when the sandbox that accepted it is no longer running (one
   * sandbox only gets it, however many ask at once); null when there is no such execution or its sandbox still runs.
   */
  claim(id: string, key: string): PersistedExecution | null;
  close(): void;
}

/** Sandboxes running in this process (so one of ours is never taken for a stopped one). */
const liveOwners = new Set<string>();

function ownerAlive(owner: string): boolean {
  if (liveOwners.has(owner)) return true;
  const pid = Number(owner.split(':')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that id, so it is alive (and not ours to judge): leave its executions.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS executions (
  id TEXT PRIMARY KEY,
  key TEXT NOT NULL,
  workflow_id TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  credits_charged REAL NOT NULL,
  results_expire_at INTEGER,
  owner TEXT NOT NULL,
  request TEXT
);
CREATE INDEX IF NOT EXISTS executions_expiry ON executions (results_expire_at) WHERE request IS NOT NULL;
`;

interface Row {
  id: string; key: string; workflow_id: string; status: string; created_at: number; credits_charged: number;
  results_expire_at: number | null; owner: string; request: string | null;
}

export function sqliteExecutionLedger(path: string): ExecutionLedger {
  const db = openSandboxDb(path);
  db.exec(SCHEMA);
  const owner = `${process.pid}:${randomBytes(6).toString('hex')}`;
  liveOwners.add(owner);
  const insert = db.prepare(`INSERT OR REPLACE INTO executions (id, key, workflow_id, status, created_at, credits_charged, results_expire_at, owner, request)
    VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)`);
  const finish = db.prepare('UPDATE executions SET status = ?, results_expire_at = ?, request = CASE WHEN ? THEN NULL ELSE request END WHERE id = ?');
  const byId = db.prepare('SELECT * FROM executions WHERE id = ? AND key = ?');
  const take = db.prepare('UPDATE executions SET owner = ? WHERE id = ? AND owner = ?');
  // Requests of executions whose results can no longer be fetched are not needed again: their images go.
  const forget = db.prepare("UPDATE executions SET request = NULL WHERE request IS NOT NULL AND (status = 'failed' OR (status = 'completed' AND results_expire_at <= ?))");
  let forgotAt = Date.now();
  forget.run(forgotAt);
  return {
    accepted(record, request) {
      insert.run(record.id, record.key, record.workflowId, record.status, record.createdAt, record.creditsCharged, owner, JSON.stringify(request));
    },
    finished(record) {
      finish.run(record.status, record.resultsExpireAt ?? null, record.status === 'failed' ? 1 : 0, record.id);
      // A `watch` runs for weeks: expired requests are dropped as it goes, not only when the next sandbox starts.
      const now = Date.now();
      if (now - forgotAt > 60_000) {
        forgotAt = now;
        forget.run(now);
      }
    },
    claim(id, key) {
      return db.transaction((): PersistedExecution | null => {
        const row = byId.get(id, key) as Row | undefined;
        if (!row || row.owner === owner || ownerAlive(row.owner)) return null;
        take.run(owner, row.id, row.owner);
        return {
          id: row.id, key: row.key, workflowId: row.workflow_id, status: row.status as ExecutionRecord['status'], createdAt: Number(row.created_at),
          creditsCharged: Number(row.credits_charged), resultsExpireAt: row.results_expire_at === null ? null : Number(row.results_expire_at),
          request: row.request === null ? null : (JSON.parse(row.request) as ValidatedRequest),
        };
      }).immediate();
    },
    close() {
      liveOwners.delete(owner);
      db.close();
    },
  };
}
