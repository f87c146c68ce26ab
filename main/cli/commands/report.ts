import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { UsageError } from '../errors';
import { EXIT } from '../exit-codes';
import { withSession } from '../session';

interface ReportFlags {
  out?: string;
  by?: 'job' | 'client';
  from?: string;
  to?: string;
  csv?: boolean;
  studio?: boolean;
}

/**
 * `report`: without --by, the executions the service accepted and charged but no longer knows (items
 * `charged-no-result`), as a CSV to send the provider — one batch, or every batch in the journal. With --by job|client,
 * photos, failures, credits and charged-no-result per job or client over a period, held against the service balance
 * (docs/cli.md). Nothing is sent or spent either way.
 */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .argument('[batch-id]', 'one batch (default: every batch in the journal; not with --by)')
    .option('--out <file>', 'write the CSV to this file instead of standard output')
    .addOption(new Option('--by <group>', 'credits and photos per job or per client instead').choices(['job', 'client']))
    .option('--from <date>', 'with --by: from this date (YYYY-MM-DD) or date-time, local time')
    .option('--to <date>', 'with --by: up to and including this date, or up to this date-time')
    .option('--csv', 'with --by: the report as CSV')
    .option('--studio', 'with --by: every studio instance\'s hot-folder photos, from the shared studio ledger (PostgreSQL)')
    .description('list executions that were charged but returned no result (CSV for the provider); --by job|client: costs per job or client')
    .action(async (batchId: string | undefined, flags: ReportFlags, command: Command) => {
      if (flags.by) return groupReport(batchId, flags, command);
      if (flags.from !== undefined || flags.to !== undefined || flags.csv || flags.studio) throw new UsageError('--from, --to, --csv and --studio go with --by job|client');
      return providerReport(batchId, flags, command);
    });
}

async function writeNew(file: string, text: string): Promise<string> {
  const path = resolve(file);
  await writeFile(path, text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EEXIST' ? new Error(`${path} exists already: choose another --out file`) : error;
  });
  return path;
}

async function groupReport(batchId: string | undefined, flags: ReportFlags, command: Command): Promise<void> {
  if (batchId !== undefined) throw new UsageError('--by reports over every batch of the period: leave out the batch id');
  // Loaded here: `--help` loads no zod-free module it does not need.
  const { parseReportPeriod } = await import('../../../shared/reports/period');
  const period = parseReportPeriod(flags.from, flags.to);
  if ('problem' in period) throw new UsageError(period.problem);
  const query = { by: flags.by!, from: period.from, to: period.to, source: flags.studio ? 'studio' as const : 'journal' as const };
  // No engine: a report only reads the journal, and works while the app or a `watch` holds the engine.
  return withSession(command, async ({ call, out }) => {
    if (out.json) {
      out.record({ type: 'report', ...(await call('reports:byGroup', query)) });
      return EXIT.ok;
    }
    if (flags.csv || flags.out) {
      const { csv } = await call('reports:csv', query);
      if (flags.out) out.result(`Report by ${query.by} written to ${await writeNew(flags.out, csv)}`);
      else process.stdout.write(csv);
      return EXIT.ok;
    }
    const [{ jobReportLines }, report] = await Promise.all([import('../../core/reports/report-text'), call('reports:byGroup', query)]);
    // The report is the command's result: --quiet keeps it.
    process.stdout.write(`${jobReportLines(report).join('\n')}\n`);
    return EXIT.ok;
  }, { withEngine: false });
}

async function providerReport(batchId: string | undefined, flags: ReportFlags, command: Command): Promise<void> {
  return withSession(command, async ({ call, out }) => {
    const report = await call('batches:providerReport', { batchId: batchId ?? null });
    if (out.json) {
      for (const row of report.rows) out.record({ type: 'charged-no-result', ...row });
      return EXIT.ok;
    }
    if (flags.out) {
      const path = await writeNew(flags.out, report.csv);
      out.result(`${report.rows.length} execution(s) charged without a result written to ${path}`);
    } else if (report.rows.length === 0) {
      out.result('No execution was charged without a result.');
    } else {
      process.stdout.write(report.csv);
    }
    return EXIT.ok;
  });
}
