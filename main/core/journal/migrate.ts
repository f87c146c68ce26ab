import type Database from 'libsql';
import { MIGRATIONS } from './migrations';

type Db = InstanceType<typeof Database>;
type Row = Record<string, unknown>;

/** How long an open waits for another process's migration of the same journal (a 100k journal's takes seconds). */
export const MIGRATION_WAIT_MS = 120_000;

const schemaVersion = (db: Db): number => Number((db.prepare('PRAGMA user_version').get() as Row).user_version ?? 0);

function refuseNewer(version: number): void {
  if (version > MIGRATIONS.length) {
    throw new Error(`the journal was written by a newer Batchroom (schema ${version}, this build knows ${MIGRATIONS.length})`);
  }
}

/**
 * Brings the schema up to date. Two processes may open an older journal at once (the app and a CLI command): each
 * step reads the version again inside its IMMEDIATE transaction, once it holds the write lock, and applies only
 * what is still missing — read before the lock, the second opener ran a migration the first had just committed
 * ("table batch_counts already exists"). The wait for that lock may be the other's whole migration, longer than the
 * ordinary busy timeout, so it is MIGRATION_WAIT_MS for the migration only. An up-to-date journal takes no lock.
 */
export function migrate(db: Db): void {
  const first = schemaVersion(db);
  refuseNewer(first);
  if (first === MIGRATIONS.length) return;
  const ordinary = Number((db.prepare('PRAGMA busy_timeout').get() as Row).timeout ?? 0);
  db.exec(`PRAGMA busy_timeout = ${MIGRATION_WAIT_MS}`);
  try {
    const step = db.transaction((): boolean => {
      const version = schemaVersion(db);
      refuseNewer(version);
      if (version >= MIGRATIONS.length) return false;
      db.exec(MIGRATIONS[version]!);
      db.exec(`PRAGMA user_version = ${version + 1}`);
      return true;
    });
    while (step.immediate() as boolean) { /* one migration per transaction, as before */ }
  } finally {
    db.exec(`PRAGMA busy_timeout = ${ordinary}`);
  }
}
