import type { BatchSummary, ItemView } from '../../shared/engine/model';
import { forEachItemPage, interruptSignal, trackBatches } from './batch-tracker';
import { EXIT, type ExitCode } from './exit-codes';
import { pickReporter } from './reporters';
import type { CliSession } from './session';
import { exitCodeFor, SummaryTally } from './summary';
import { creditKindOf } from '../../shared/service/credit-kind';
import { fit, lineWidth } from './format';

/**
 * Shared tail of `run` and `resume`: live progress until every batch settles, then the summary (a table, or the
 * NDJSON summary line) and the exit code. Ctrl-C stops following, leaves the journal as it is and answers 130;
 * `batchroom resume` then finishes the batch without resubmitting what was already submitted.
 */
export async function followBatches(session: CliSession, batches: BatchSummary[], extraSkipped: ItemView[] = []): Promise<ExitCode> {
  const { out } = session;
  const kind = creditKindOf(session.status);
  const reporter = pickReporter(out, batches.reduce((s, b) => s + b.total, 0), kind);
  const interrupt = interruptSignal();
  let outcome;
  try {
    reporter.batches?.(batches);
    outcome = await trackBatches(session, batches.map((b) => b.id), reporter, interrupt.signal);
  } finally {
    reporter.stop();
    interrupt.dispose();
  }
  if (outcome.kind === 'interrupted') {
    // The built-in sandbox keeps its executions in the state folder too: the next command's sandbox runs what this one
    // was running, so `resume` finishes it the same way against it as against a live service.
    const said = 'batchroom: interrupted. The batch is kept in the journal; `batchroom resume` finishes it without resubmitting anything already sent.';
    process.stderr.write(`${fit(said, lineWidth(process.stderr), '  ')}\n`);
    return EXIT.interrupted;
  }
  // A page of items at a time: the tally keeps counts, the files saved (for --json) and the few it lists.
  const tally = new SummaryTally(out.json);
  tally.add(extraSkipped);
  for (const batch of outcome.batches) await forEachItemPage(session, batch.id, (page) => tally.add(page));
  const summary = tally.summary(outcome.batches);
  if (out.json) out.record(summary);
  else out.result(tally.text(outcome.batches, summary, kind, lineWidth(process.stdout)));
  return exitCodeFor(summary, outcome.batches);
}
