// What following costs the scheduler when a whole batch follows another ("Start pressed twice" on a large shoot):
// N owner items whose executions are at the service (claims accepted) and N followers. Prints, from one run: a full
// look at every follower (start, resume, every 15 s while some wait) and a keyed look after one unit moved, each
// against a bare loop that only reads N claims. BENCH_FOLLOWERS (default 20000).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BatchSpecSchema } from '../shared/engine/model';
import { openJournal, type BatchRecord, type NewItem } from '../main/core/journal';
import { claimKeyOf } from '../main/core/journal/claims';
import { ClaimFollowers } from '../main/core/engine/claim-followers';
import type { RunnerCore } from '../main/core/engine/runner-core';

const n = Number(process.env.BENCH_FOLLOWERS ?? '20000');
const dir = await mkdtemp(join(tmpdir(), 'batchroom-bench-followers-'));
const journal = openJournal(dir);
try {
  const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
  const batch = (id: string): BatchRecord => {
    const at = new Date().toISOString();
    const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
    return { id, spec, workflow, creditCost: 1, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at, creditsSpent: 0, budget: null, outputFolder: '/out' };
  };
  const keys = Array.from({ length: n }, (_, i) => claimKeyOf(i.toString(16).padStart(64, '0'), 'bench'));
  const items = (prefix: string): NewItem[] => keys.map((claimKey, i) => ({
    id: `${prefix}-${i}`, position: i, displayName: `p${i}.jpg`, sources: { photo: `/in/p${i}.jpg` }, relDir: '', contentHash: `h${i}`, state: 'pending', reason: null, claimKey,
  }));
  journal.createBatch(batch('owners'), items('o'));
  journal.createBatch(batch('followers'), items('f'));
  for (let i = 0; i < n; i++) {
    journal.updateItem(`o-${i}`, { event: 'encode' });
    journal.updateItem(`o-${i}`, { event: 'submit' });
    journal.recordAccepted(`o-${i}`, `exe-${i}`, 1, new Date().toISOString());
    journal.updateItem(`f-${i}`, { event: 'follow' });
  }
  journal.takeMovedClaims();
  const batches = new Map([['owners', journal.getBatch('owners')!], ['followers', journal.getBatch('followers')!]]);
  const core = {
    o: { journal, now: () => new Date() }, evidence: { pending: () => false }, batch: (id: string) => batches.get(id)!,
    update: (id: string, change: Parameters<typeof journal.updateItem>[1]) => { journal.updateItem(id, change); return journal.getItem(id)!; },
    kick: () => undefined,
  } as unknown as RunnerCore;
  const followers = new ClaimFollowers(core, () => undefined);
  const running = [...batches.values()];

  const time = (work: () => void) => { const t0 = performance.now(); work(); return performance.now() - t0; };
  const bare = time(() => { for (const key of keys) journal.claimGet(key); });
  const full = time(() => followers.check(running)); // the first look is a full one
  journal.updateItem('o-0', { event: 'progress', progress: 50 });
  followers.touch(journal.getItem('o-0')!);
  const keyed = time(() => followers.check(running));
  process.stdout.write(`followers ${n}: full look ${full.toFixed(0)} ms (${(full * 1000 / n).toFixed(1)} µs each), ` +
    `bare claim reads ${bare.toFixed(0)} ms, full/bare ${(full / bare).toFixed(2)}; keyed look after one unit moved ${keyed.toFixed(2)} ms ` +
    `(${(keyed / full * 100).toFixed(3)} % of a full look)\n`);
  process.stdout.write(`${JSON.stringify({ followers: n, fullMs: Math.round(full), bareMs: Math.round(bare), fullOverBare: Number((full / bare).toFixed(2)), keyedMs: Number(keyed.toFixed(2)) })}\n`);
} finally {
  journal.close();
  await rm(dir, { recursive: true, force: true });
}
