import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../main/core/journal';
import { REPORT_SQL } from '../../../main/core/journal/report-reads';

// A report over a month must not read every outcome and execution ever journalled (a studio machine journals
// hundreds of thousands): SQLite's own plan for the report's statements uses the time indexes (migration 11).

describe('report reads', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-report-plan-'));
    openJournal(dir).close();
  });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it.each(Object.entries(REPORT_SQL))('%s reads outcomes and executions by time, never the whole table', (_name, sql) => {
    const db = new Database(join(dir, 'journal.db'));
    try {
      const args = Array.from({ length: (sql.match(/\?/g) ?? []).length }, (_, i) => (i % 2 === 0 ? '2026-11-01' : '2026-12-01'));
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
      expect(plan.filter((d) => /^SCAN (outcomes|executions|o|p)\b/.test(d))).toEqual([]);
      expect(plan.some((d) => d.includes('executions_by_time'))).toBe(true);
      expect(plan.some((d) => d.includes('outcomes_by_time'))).toBe(true);
    } finally {
      db.close();
    }
  });
});
