// A whole engine in its own process, for crash tests: the parent SIGKILLs it at random moments and starts it
// again on the same state folder. Prints `started` once scheduling runs and `done <json>` when the batch is over.
import { createEngine } from '../../../../main/core/engine';
import { openJournal } from '../../../../main/core/journal';
import { createServiceClient } from '../../../../main/core/service';

const [stateDir, url, apiKey, specJson, concurrency = '8', evidenceSettleMs = '3000', mode = 'resume'] = process.argv.slice(2);
if (!stateDir || !url || !apiKey || !specJson) throw new Error('usage: engine-child <stateDir> <url> <apiKey> <specJson> [concurrency]');

const journal = openJournal(stateDir);
const client = createServiceClient({ baseUrl: url, apiKey, timeoutMs: 10_000 });
const engine = createEngine({ journal, client, concurrency: Number(concurrency), balanceEvidence: { settleMs: Number(evidenceSettleMs) } });
await engine.start();
// resume: the batch of the first start is carried on (as the app's restart does). again: every start is the same
// command again — a new batch of the same photos, beside whatever the kill left running (nothing new to do: none).
const existing = journal.listBatches()[0];
if (mode === 'again' || !existing) {
  await engine.createBatch(JSON.parse(specJson)).catch((error: { code?: string }) => {
    if (error.code !== 'validation') throw error; // "nothing to process": every photo already done
  });
}
process.stdout.write('started\n');

const finished = () => journal.listBatches().every((b) => b.state === 'completed' || b.state === 'cancelled');
const timer = setInterval(() => {
  const batch = engine.getBatch(journal.listBatches()[0]!.id);
  if (finished() && !engine.busy()) {
    clearInterval(timer);
    void engine.stop({ graceful: true }).then(() => {
      journal.close();
      process.stdout.write(`done ${JSON.stringify(batch.counts)}\n`);
      process.exit(0);
    });
  }
}, 50);
