import type { Command } from 'commander';
import { EXIT } from '../exit-codes';
import { withSession } from '../session';

/**
 * `resume`: finishes what the journal says is unfinished. The engine picks up every known execution by itself on
 * start (polling, downloading what is not saved yet); paused batches are resumed explicitly. Items whose submission
 * outcome is unknown stay `unknown`: they are never resubmitted here.
 */
export function registerResumeCommand(program: Command): void {
  program
    .command('resume')
    .description('continue unfinished batches (after a crash or Ctrl-C)')
    .action(async (_flags: unknown, command: Command) =>
      withSession(command, async (session) => {
        const { call, out } = session;
        const unfinished = (await call('batches:list', {})).filter((b) => b.state === 'running' || b.state === 'paused');
        if (unfinished.length === 0) {
          if (out.json) out.record({ type: 'summary', saved: 0, failed: 0, skipped: 0, unknown: 0, chargedNoResult: 0, creditsSpent: 0, outputs: [] });
          else out.result('Nothing to resume: every batch in the journal is finished.');
          return EXIT.ok;
        }
        const batches = [];
        for (const batch of unfinished) {
          batches.push(batch.state === 'paused' ? await call('batches:resume', { batchId: batch.id }) : batch);
          if (out.json) out.record({ type: 'batch', ...batches[batches.length - 1] });
          else out.line(`Resuming batch ${batch.id} (${batch.workflowName}, ${batch.total} item(s))`);
        }
        const { followBatches } = await import('../follow'); // with its progress bars, only when there is work
        const code = await followBatches(session, batches);
        await (await import('../bell')).ringBellAtEnd(session);
        return code;
      }),
    );
}
