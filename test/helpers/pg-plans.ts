import type pg from 'pg';

// EXPLAIN (ANALYZE) of the studio ledger's real queries, not copies of them (bench/scale-studio.ts, the studio
// tests): a stand-in pool runs each statement the ledger code sends twice — first as EXPLAIN (ANALYZE, BUFFERS)
// inside a savepoint that is rolled back (so an INSERT or UPDATE is not applied twice), then for real — and keeps
// each plan under the label of the call that sent it.

export interface PlanLine {
  label: string;
  sql: string;
  /** "Index Scan using batchroom_claims_pkey on batchroom_claims", … (every scan node of the plan). */
  scans: string[];
  /** A sequential scan of batchroom_claims, the table that grows. */
  seqScanOnClaims: boolean;
  ms: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function scansOf(node: PlanNode, out: string[] = []): string[] {
  if (node['Relation Name']) {
    out.push(`${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''} on ${node['Relation Name']}`);
  }
  for (const child of node.Plans ?? []) scansOf(child, out);
  return out;
}

/** Scan nodes in a text plan (auto_explain's log of the statements a function runs). */
export function scansInText(plan: string): string[] {
  return [...plan.matchAll(/((?:Parallel )?(?:Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan|Bitmap Index Scan)(?: Backward)?(?: using \S+)? on \S+)/g)].map((m) => m[1]!);
}

/**
 * Makes the server send this session the plan of every statement it runs, nested ones too (auto_explain, loaded
 * per session: needs a superuser, as the test server's is), so a function's own statements have plans to read.
 */
export async function explainNested(client: Pick<pg.ClientBase, 'query'>): Promise<void> {
  await client.query(`LOAD 'auto_explain'`);
  await client.query(`SET auto_explain.log_min_duration = 0`);
  await client.query(`SET auto_explain.log_nested_statements = on`);
  await client.query(`SET auto_explain.log_analyze = on`);
  await client.query(`SET client_min_messages = log`);
}

const PASS_THROUGH = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|SELECT pg_advisory)/i;
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

export class PlanRecorder {
  readonly lines: PlanLine[] = [];
  label = '';

  constructor(private readonly pool: pg.Pool) {}

  /** A pool for the ledger functions (claim, readStatus, …): same answers, plus a plan per statement. */
  asPool(): pg.Pool {
    const stand = {
      connect: async () => {
        const client = await this.pool.connect();
        let inTx = false;
        return {
          query: async (text: string, params?: unknown[]) => {
            if (PASS_THROUGH.test(text)) {
              if (/^\s*BEGIN/i.test(text)) inTx = true;
              if (/^\s*(COMMIT|ROLLBACK)\s*$/i.test(text)) inTx = false;
              return client.query(text, params);
            }
            await this.explainOn(client, inTx, text, params);
            return client.query(text, params);
          },
          release: (destroy?: boolean) => client.release(destroy),
        };
      },
      query: async (text: string, params?: unknown[]) => {
        const client = await this.pool.connect();
        try {
          await this.explainOn(client, false, text, params);
        } finally {
          client.release();
        }
        return this.pool.query(text, params);
      },
    };
    return stand as unknown as pg.Pool;
  }

  private readonly nested = new WeakSet<pg.PoolClient>();

  private async explainOn(client: pg.PoolClient, inTx: boolean, text: string, params?: unknown[]): Promise<void> {
    if (!this.nested.has(client)) {
      await explainNested(client);
      this.nested.add(client);
    }
    await client.query(inTx ? 'SAVEPOINT bench_explain' : 'BEGIN');
    const logged: string[] = [];
    const onNotice = (notice: { message?: string }) => logged.push(notice.message ?? '');
    client.on('notice', onNotice);
    try {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params);
      const plan = (rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> })['QUERY PLAN'][0]!;
      // The statement's own plan, and those auto_explain sent for statements a function ran inside it.
      const scans = [...new Set([...scansOf(plan.Plan), ...logged.flatMap(scansInText)])];
      this.lines.push({
        label: this.label, sql: oneLine(text), scans, ms: plan['Execution Time'],
        seqScanOnClaims: scans.some((s) => s.startsWith('Seq Scan') && s.endsWith(' on batchroom_claims')),
      });
    } catch (error) {
      this.lines.push({ label: this.label, sql: oneLine(text), scans: [`error: ${(error as Error).message}`], seqScanOnClaims: false, ms: 0 });
    } finally {
      client.off('notice', onNotice);
      await client.query(inTx ? 'ROLLBACK TO SAVEPOINT bench_explain' : 'ROLLBACK');
    }
  }
}
