import type { ItemOutcomeEvent } from '../../shared/engine/model';

// A CLI session's item outcomes (`batches:outcome`) for whoever follows its batches. An item can settle while its
// batch is still being created (a duplicate, an unreadable file), before `run` subscribes: what comes while nobody
// listens is kept and handed to the next listener, once; what comes while someone listens is only passed on. Kept
// for the whole session instead, a 100k batch's outcomes were held to the end (50,000 of them, the old cap).

export interface OutcomeBuffer {
  push(outcome: ItemOutcomeEvent): void;
  /** Replays what came while nobody listened (then forgets it), then passes on each new outcome. */
  subscribe(listener: (outcome: ItemOutcomeEvent) => void): () => void;
  /** Outcomes kept for a listener to come. */
  held(): number;
}

/** `max` bounds what is kept for commands that never listen (watch runs for weeks). */
export function createOutcomeBuffer(max = 50_000): OutcomeBuffer {
  let kept: ItemOutcomeEvent[] = [];
  const listeners = new Set<(outcome: ItemOutcomeEvent) => void>();
  return {
    push(outcome) {
      if (listeners.size === 0 && kept.length < max) kept.push(outcome);
      for (const listener of listeners) listener(outcome);
    },
    subscribe(listener) {
      const replay = kept;
      kept = [];
      for (const outcome of replay) listener(outcome);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    held: () => kept.length,
  };
}
