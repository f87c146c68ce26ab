import type { BatchEstimate } from '../../../shared/engine/model';
import type { EstimateProgress } from '../../../shared/ipc/channels/batches';
import { refuseIfCancelled, type PlanOptions } from './planner';

// The estimates running now, for the hosts: each one's progress as an event (`batches:estimateProgress`) and one
// cancel for all of them (`batches:cancelEstimate`: the app's Cancel button, the CLI's Ctrl-C). A quick estimate says
// nothing: the first word comes after FIRST_AFTER_MS, then at most every EVERY_MS (a 100k-photo estimate would
// otherwise send 100k events over IPC).

export const FIRST_AFTER_MS = 1_000;
const EVERY_MS = 200;

export interface EstimateRuns {
  run(estimate: (options: PlanOptions) => Promise<BatchEstimate>): Promise<BatchEstimate>;
  /** Cancels every estimate running now; how many there were. */
  cancelAll(): number;
  onProgress(listener: (progress: EstimateProgress) => void): () => void;
}

export function createEstimateRuns(now: () => number = Date.now): EstimateRuns {
  const running = new Set<AbortController>();
  const listeners = new Set<(progress: EstimateProgress) => void>();
  let nextId = 1;
  return {
    async run(estimate) {
      const controller = new AbortController();
      const id = nextId++;
      const started = now();
      let lastSaid = 0;
      running.add(controller);
      try {
        const answer = await estimate({
          signal: controller.signal,
          onProgress: ({ phase, done, total }) => {
            const at = now();
            if (at - started < FIRST_AFTER_MS || at - lastSaid < EVERY_MS) return;
            lastSaid = at;
            for (const listener of listeners) listener({ estimateId: id, phase, done, total, elapsedMs: at - started });
          },
        });
        // Cancelled after planning's last cancel point (the balance, the price, the naming preview): still cancelled.
        // A host that asked to stop must never be handed a price it could go on to pay.
        refuseIfCancelled(controller.signal);
        return answer;
      } finally {
        running.delete(controller);
      }
    },
    cancelAll() {
      const count = running.size;
      for (const controller of running) controller.abort();
      running.clear();
      return count;
    },
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
