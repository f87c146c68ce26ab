import type { Command } from 'commander';
import { UsageError } from '../errors';
import { globalOptions } from '../session';

interface CompactFlags {
  olderThan: string;
  dryRun?: boolean;
}

/** Days a finished batch is left whole by default: Review and "export again" of last month's work keep working. */
export const DEFAULT_COMPACT_DAYS = 30;

/** `30`, `30d` or `0` → days; null when it is none of those. */
export function parseDays(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)d?$/.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/**
 * `journal compact`: removes the saved and skipped items of batches finished more than N days ago (journal/compact.ts
 * says what stays: the done ledger, claims, report figures, the batches' counts). Asked for, never automatic: it
 * takes the per-photo list of those batches out of Review and "export again", which is the user's call, not ours.
 * Takes the engine lock, so it never runs beside the app or a `run` on the same state folder.
 */
export function registerJournalCommand(program: Command): void {
  const journal = program.command('journal').description('the journal of batches in the state folder');
  journal
    .command('compact')
    .option('--older-than <days>', 'batches finished more than this many days ago (30, 30d; 0: every finished batch)', String(DEFAULT_COMPACT_DAYS))
    .option('--dry-run', 'say what would be removed, change nothing')
    .description('make the journal smaller: drop the per-photo rows of old finished batches (the done ledger, claims and reports keep theirs)')
    .action(async (flags: CompactFlags, command: Command) => {
      const days = parseDays(flags.olderThan);
      if (days === null) throw new UsageError(`--older-than ${flags.olderThan}: give a number of days (30 or 30d)`);
      const options = globalOptions(command);
      const [{ ensureStateDir, resolveStateDir }, { acquireEngineLock }, { openJournal }] = await Promise.all([
        import('../../core/settings/state-dir'), import('../../core/app/state-lock'), import('../../core/journal'),
      ]);
      const stateDir = ensureStateDir(resolveStateDir({ stateDir: options.stateDir, env: process.env }));
      const release = acquireEngineLock(stateDir);
      try {
        const opened = openJournal(stateDir);
        try {
          const finishedBefore = new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
          const result = opened.compact({ finishedBefore, dryRun: flags.dryRun ?? false });
          if (options.json) {
            process.stdout.write(`${JSON.stringify({ type: 'compact', dryRun: flags.dryRun ?? false, finishedBefore, ...result })}\n`);
          } else {
            const kb = (n: number) => `${Math.round(n / 1024).toLocaleString('en-US')} KB`;
            const what = `${result.itemsRemoved.toLocaleString('en-US')} saved or skipped item(s) of ${result.batchIds.length} batch(es) finished before ${finishedBefore.slice(0, 10)}`;
            process.stdout.write(flags.dryRun
              ? `Would remove ${what} (journal now ${kb(result.bytesBefore)}). Their photos stay done (0 credits in a new run) and in reports; their per-photo list leaves Review and "export again".\n`
              : `Removed ${what}: journal ${kb(result.bytesBefore)} → ${kb(result.bytesAfter)}. Their photos stay done (0 credits in a new run) and in reports.\n`);
          }
        } finally {
          opened.close();
        }
      } finally {
        release();
      }
    });
}
