// A second process opening a journal (migrate-concurrent.test.ts): says when it is about to open, then opens it (the
// migration included) and prints one JSON line — the batch's counts, or the error the open threw.
import { openJournal } from '../../../main/core/journal';

const [stateDir, batchId] = process.argv.slice(2) as [string, string];
process.stdout.write('opening\n');
try {
  const journal = openJournal(stateDir);
  process.stdout.write(`${JSON.stringify({ ok: true, counts: journal.countByState(batchId) })}\n`);
  journal.close();
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) })}\n`);
  process.exitCode = 1;
}
