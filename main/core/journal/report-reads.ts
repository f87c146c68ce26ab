// The journal's reads for the job/client report (main/core/reports/): per batch, what happened in a period. Two
// clocks, on purpose: a photo counts when its outcome was recorded (it ended then), a credit when the service took
// it (the execution's acceptance), because that is when the service balance moved — so the report's credits over a
// period can be held against the balance readings of that period. A refunded execution (status failed) counts 0,
// as balance evidence counts it (evidence-store.ts executionCharges); a lost submission the balance proved charged
// has no execution row and counts when it was judged (its charged-no-result outcome).

/** One batch's numbers in a period (instants as ISO strings; null: open). */
export interface BatchPeriodFacts {
  batchId: string;
  /** Batches these numbers are of (default 1; the studio ledger's photos never sent belong to none). */
  batches?: number;
  job: string | null;
  client: string | null;
  saved: number;
  failed: number;
  chargedNoResult: number;
  chargedNoResultCredits: number;
  credits: number;
}

export interface ReportRange {
  from: string | null;
  to: string | null;
}

export interface ReportReads {
  /** Batches with an outcome or a charge in the range, with their numbers there. */
  batchFacts(range: ReportRange): BatchPeriodFacts[];
  /** Credits every batch was charged in the range (what the service balance should have lost to Batchroom). */
  creditsCharged(range: ReportRange): number;
}

type Row = Record<string, unknown>;
interface Stmt {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}

// Open ends as bounds every ISO instant sorts between.
const FIRST = '0000';
const LAST = '9999';
const bounds = ({ from, to }: ReportRange): [string, string] => [from ?? FIRST, to ?? LAST];

// Charges: accepted executions not refunded, and lost submissions judged charged (no execution row). [from, to).
const CHARGES = `
  SELECT batch_id, credits FROM executions WHERE status <> 'failed' AND created_at >= ? AND created_at < ?
  UNION ALL
  SELECT batch_id, credits_charged AS credits FROM outcomes
    WHERE state = 'charged-no-result' AND execution_id IS NULL AND recorded_at >= ? AND recorded_at < ?`;

// Each item once, by its last outcome in the range: a photo that failed and then saved in the same period is saved.
const LAST_OUTCOMES = `
  SELECT o.batch_id, o.state, o.credits_charged FROM outcomes o
  WHERE o.recorded_at >= ? AND o.recorded_at < ?
    AND o.attempt = (SELECT MAX(p.attempt) FROM outcomes p WHERE p.item_id = o.item_id AND p.recorded_at >= ? AND p.recorded_at < ?)`;

/** The statements, exported so a test can ask SQLite for their plan (indexes, not scans: migration 11). */
export const REPORT_SQL = {
  batchFacts: `
        WITH charges AS (${CHARGES}),
          last_outcomes AS (${LAST_OUTCOMES}),
          per_batch AS (
            SELECT batch_id,
              SUM(CASE WHEN state = 'saved' THEN 1 ELSE 0 END) AS saved,
              SUM(CASE WHEN state IN ('failed', 'unknown') THEN 1 ELSE 0 END) AS failed,
              SUM(CASE WHEN state = 'charged-no-result' THEN 1 ELSE 0 END) AS cnr,
              SUM(CASE WHEN state = 'charged-no-result' THEN credits_charged ELSE 0 END) AS cnr_credits,
              0 AS credits
            FROM last_outcomes GROUP BY batch_id
            UNION ALL
            SELECT batch_id, 0, 0, 0, 0, SUM(credits) FROM charges GROUP BY batch_id)
        SELECT pb.batch_id, json_extract(b.spec_json, '$.job') AS job, json_extract(b.spec_json, '$.client') AS client,
          SUM(pb.saved) AS saved, SUM(pb.failed) AS failed, SUM(pb.cnr) AS cnr, SUM(pb.cnr_credits) AS cnr_credits, SUM(pb.credits) AS credits
        FROM per_batch pb JOIN batches b ON b.id = pb.batch_id
        -- An export (engine/export-again.ts) makes files again from photos its source batch already counts: 0 credits.
        WHERE json_extract(b.spec_json, '$.exportOf') IS NULL
        GROUP BY pb.batch_id ORDER BY MIN(b.created_at), pb.batch_id`,
  creditsCharged: `SELECT COALESCE(SUM(credits), 0) AS total FROM (${CHARGES})`,
};

export function createReportReads(stmt: (sql: string) => Stmt): ReportReads {
  return {
    batchFacts(range) {
      const [from, to] = bounds(range);
      const rows = stmt(REPORT_SQL.batchFacts).all(from, to, from, to, from, to, from, to) as Row[];
      return rows.map((r) => ({
        batchId: String(r.batch_id),
        job: typeof r.job === 'string' ? r.job : null,
        client: typeof r.client === 'string' ? r.client : null,
        saved: Number(r.saved ?? 0),
        failed: Number(r.failed ?? 0),
        chargedNoResult: Number(r.cnr ?? 0),
        chargedNoResultCredits: Number(r.cnr_credits ?? 0),
        credits: Number(r.credits ?? 0),
      }));
    },
    creditsCharged(range) {
      const [from, to] = bounds(range);
      return Number((stmt(REPORT_SQL.creditsCharged).get(from, to, from, to) as Row).total);
    },
  };
}
