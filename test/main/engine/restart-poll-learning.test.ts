import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createFakeClient } from './fake-client';
import { useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Restart after downtime: recovery follows an execution that was in flight at the kill with acceptedAt = its
// submittedAt (runner-recovery.ts), so when it completes after the restart the follower learns an "execution time"
// that includes the downtime (follow-execution.ts learnExecution) and looks at every new execution of that batch
// only after that long (poll-timing.ts: the first look waits expectedMs, no cap). Real journal, fake service.

describe('restart after downtime: new executions are still seen promptly', () => {
  const bed = useEngineTestBed();

  it('30 ms executions submitted after a restart 10 minutes after the kill complete within seconds', async () => {
    await writePhotos(bed.input, 4);
    const hold = { held: true };
    const client = createFakeClient({ hold });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input] }, output: { outputFolder: join(bed.dir.path, 'out') } });
    await vi.waitFor(() => expect(engine.listItems({ batchId: batch.id }).items.some((i) => i.state === 'submitted' || i.state === 'running')).toBe(true), { timeout: 10_000 });
    await bed.stopEngine();
    hold.held = false; // it completed while the engine was down
    // The restart comes 10 minutes after the kill: the execution in flight was submitted 10 minutes ago.
    for (const item of bed.journal.listItems({ batchId: batch.id }).items) {
      if (item.state === 'submitted' || item.state === 'running') {
        bed.journal.updateItem(item.id, { submittedAt: new Date(Date.now() - 10 * 60_000).toISOString() });
      }
    }
    const again = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await again.start();
    // HEAD: the first new execution is first looked at ≈ 9 minutes after it was accepted (its slot held meanwhile).
    const done = await waitForBatch(again, batch.id, { timeoutMs: 20_000 });
    expect(done.counts.saved).toBe(4);
  }, 60_000);
});
