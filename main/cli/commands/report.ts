import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT } from '../exit-codes';
import { withSession } from '../session';

/**
 * `report`: the executions the service accepted and charged but no longer knows (items `charged-no-result`), as a
 * CSV to send the provider — one batch, or every batch in the journal. Nothing is sent or spent.
 */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .argument('[batch-id]', 'one batch (default: every batch in the journal)')
    .option('--out <file>', 'write the CSV to this file instead of standard output')
    .description('list executions that were charged but returned no result, as a CSV for the provider')
    .action(async (batchId: string | undefined, flags: { out?: string }, command: Command) =>
      withSession(command, async ({ call, out }) => {
        const report = await call('batches:providerReport', { batchId: batchId ?? null });
        if (out.json) {
          for (const row of report.rows) out.record({ type: 'charged-no-result', ...row });
          return EXIT.ok;
        }
        if (flags.out) {
          const path = resolve(flags.out);
          await writeFile(path, report.csv, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
            throw error.code === 'EEXIST' ? new Error(`${path} exists already: choose another --out file`) : error;
          });
          out.result(`${report.rows.length} execution(s) charged without a result written to ${path}`);
        } else if (report.rows.length === 0) {
          out.result('No execution was charged without a result.');
        } else {
          process.stdout.write(report.csv);
        }
        return EXIT.ok;
      }),
    );
}
