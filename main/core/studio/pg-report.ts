import type pg from 'pg';
import { AppError, isAppError } from '../../../shared/errors';
import type { JobReport } from '../../../shared/reports/job-report';
import type { BatchPeriodFacts, ReportRange } from '../journal/report-reads';
import type { BalanceReadingRecord } from '../reports/balance-readings';
import { balanceComparison, bracketed, groupFacts, pickReadings, type JobReportRequest } from '../reports/job-report';
import { poolFor, type InspectOptions } from './inspect';
import { ledgerError } from './pg-pool';
import { num } from './pg-tx';

// The job/client report over the studio ledger: every instance's hot-folder photos (pg-migrations.ts 3), the same
// rules as this machine's journal (journal/report-reads.ts): a photo counts when it finished, a credit when the
// service took it. The ledger keeps one row per photo, so a photo sent again (Retry, a reprocess) counts its last
// attempt only; batches started by hand are no studio business and stay in each machine's own report.

const FIRST = '-infinity';
const LAST = 'infinity';
const bounds = ({ from, to }: ReportRange): [string, string] => [from ?? FIRST, to ?? LAST];
const CHARGED_AT = 'COALESCE(accepted_at, finished_at)';

export async function studioBatchFacts(pool: Pick<pg.Pool, 'query'>, range: ReportRange): Promise<BatchPeriodFacts[]> {
  const { rows } = await pool.query(`
    WITH parts AS (
      SELECT batch_id, job, client,
        count(*) FILTER (WHERE state = 'saved') AS saved,
        count(*) FILTER (WHERE state IN ('failed', 'unknown')) AS failed,
        count(*) FILTER (WHERE state = 'charged-no-result') AS cnr,
        COALESCE(sum(credits_charged) FILTER (WHERE state = 'charged-no-result'), 0) AS cnr_credits,
        0::numeric AS credits
      FROM batchroom_claims WHERE finished_at >= $1::timestamptz AND finished_at < $2::timestamptz GROUP BY batch_id, job, client
      UNION ALL
      SELECT batch_id, job, client, 0, 0, 0, 0, sum(credits_charged) FROM batchroom_claims
      WHERE ${CHARGED_AT} >= $1::timestamptz AND ${CHARGED_AT} < $2::timestamptz AND credits_charged <> 0 GROUP BY batch_id, job, client)
    SELECT batch_id, job, client, sum(saved) AS saved, sum(failed) AS failed, sum(cnr) AS cnr, sum(cnr_credits) AS cnr_credits, sum(credits) AS credits
    FROM parts GROUP BY batch_id, job, client ORDER BY batch_id NULLS LAST, job, client`, bounds(range));
  return (rows as Array<Record<string, unknown>>).map((r) => ({
    batchId: r.batch_id === null ? '' : String(r.batch_id),
    // Photos never sent (failed before, or claimed by a batch-less path) belong to no batch.
    batches: r.batch_id === null ? 0 : 1,
    job: r.job === null ? null : String(r.job),
    client: r.client === null ? null : String(r.client),
    saved: num(r.saved), failed: num(r.failed), chargedNoResult: num(r.cnr), chargedNoResultCredits: num(r.cnr_credits), credits: num(r.credits),
  }));
}

/** Credits every instance was charged in the range (the ledger's side of the shared key's balance). */
export async function studioCreditsCharged(pool: Pick<pg.Pool, 'query'>, range: ReportRange): Promise<number> {
  const { rows } = await pool.query(`SELECT COALESCE(sum(credits_charged), 0) AS total FROM batchroom_claims
    WHERE ${CHARGED_AT} >= $1::timestamptz AND ${CHARGED_AT} < $2::timestamptz`, bounds(range));
  return num(rows[0]?.total);
}

/**
 * The report over every instance. The balance comparison uses this machine's readings: on a shared key they see what
 * every instance spent, which the studio ledger covers (save for batches started by hand on any machine).
 */
export async function buildStudioJobReport(pool: Pick<pg.Pool, 'query'>, request: JobReportRequest,
  readings: readonly BalanceReadingRecord[], account: string | null): Promise<JobReport> {
  const range = { from: request.from, to: request.to };
  const { groups, totals } = groupFacts(request.by, await studioBatchFacts(pool, range));
  const picked = pickReadings(readings, range, account);
  const balance = picked
    ? balanceComparison(picked, await studioCreditsCharged(pool, { from: picked.first.at, to: picked.last.at }),
      await studioCreditsCharged(pool, bracketed(range, picked.first, picked.last)), totals.credits)
    : null;
  return { by: request.by, from: request.from, to: request.to, source: 'studio', groups, totals, balance };
}

/** The schema version that added job, client, batch and charge time to the claims (pg-migrations.ts). */
const REPORT_SCHEMA = 3;

/**
 * `batchroom report --studio`: connects to the saved ledger without joining it (as `studio status` does), checks its
 * schema has the report's columns, and builds the report.
 */
export async function readStudioJobReport(url: string, options: InspectOptions, request: JobReportRequest,
  readings: readonly BalanceReadingRecord[], account: string | null): Promise<JobReport> {
  const { target, pool } = await poolFor(url, options);
  try {
    const present = await pool.query(`SELECT to_regclass('batchroom_schema') IS NOT NULL AS present`);
    const version = present.rows[0]?.present ? num((await pool.query('SELECT version FROM batchroom_schema')).rows[0]?.version) : 0;
    if (version < REPORT_SCHEMA) {
      throw new AppError('unavailable', `The studio ledger ${target.display} has schema ${version}: start this Batchroom in studio mode once (it adds jobs and clients), then report.`);
    }
    return await buildStudioJobReport(pool, request, readings, account);
  } catch (error) {
    throw isAppError(error) ? error : ledgerError(error, target.display);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
