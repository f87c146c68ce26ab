import { IllegalTransitionError, nextItemState, type ItemEvent } from '../../../shared/engine/item-states';
import type { ItemState } from '../../../shared/engine/model';

// How the journal enforces the item state machine (shared/engine/item-states.ts), in every environment. An event the
// table does not allow from the item's current state is a bug in the engine: the write is refused (nothing of it is
// applied, the item keeps its state), the item is parked for attention (a sentence on its record that the app and the
// CLI show), the refusal is logged at error, and the writer gets IllegalTransitionError so the task stops there.
// Before, production applied the event's target anyway: an item could be "saved" that was never downloaded, or
// leave a terminal state and be paid for again. Under test the engine also lets the error fail the run (runner.ts),
// so the path is found and fixed.

export interface TransitionPolicy {
  /** Where a refused transition is reported (the app's logger at error); console.error when not given. */
  report?: (error: IllegalTransitionError, attention: string) => void;
}

/**
 * Whether an illegal move should also fail the engine task loudly (an unhandled rejection fails the test run).
 * Vitest sets VITEST in every worker and child it starts; BATCHROOM_STRICT_TRANSITIONS=0|1 overrides it (a test of
 * production behaviour turns it off).
 */
export function isTestRun(): boolean {
  const override = process.env.BATCHROOM_STRICT_TRANSITIONS;
  if (override === '0' || override === '1') return override === '1';
  return Boolean(process.env.VITEST) || process.env.NODE_ENV === 'test';
}

/** The state `event` leads to from `from`; throws IllegalTransitionError when the table has no such move. */
export function transitionChecker(): (itemId: string, from: ItemState, event: ItemEvent) => ItemState {
  return (itemId, from, event) => {
    const to = nextItemState(from, event);
    if (to === null) throw new IllegalTransitionError(itemId, from, event);
    return to;
  };
}

/** The sentence an item parked by a refused move carries (its `attention`). */
export function attentionText(error: IllegalTransitionError, detail?: string): string {
  const extra = detail ? ` (${detail})` : '';
  return `Needs attention: Batchroom refused to move it from "${error.from}" by "${error.event}"${extra}, which should not happen; `
    + 'it was left as it was. Check its results, then retry or report it.';
}

export interface ParkingDeps {
  /** Writes the attention sentence on the item, outside any transaction (the refused one was rolled back). */
  park: (itemId: string, attention: string) => void;
  /** True inside a transaction: the outermost writer parks, after the rollback. */
  inTransaction: () => boolean;
  policy?: TransitionPolicy;
}

/** What a write was doing, for the attention sentence (the execution id of an accept is the only record of it). */
function detailOf(method: string, args: readonly unknown[]): string | undefined {
  if (method === 'recordAccepted') return `execution ${String(args[1])} accepted, ${String(args[2])} credits`;
  return undefined;
}

/**
 * The same object whose `methods` park the item when they throw IllegalTransitionError (and rethrow it). Used by the
 * journal around every write that moves a state.
 */
export function parkingIllegalMoves<T extends object>(api: T, methods: readonly (keyof T & string)[], deps: ParkingDeps): T {
  const report = deps.policy?.report ?? ((error: IllegalTransitionError, attention: string) => {
    console.error(`[journal] ${error.message}: ${attention}`);
  });
  const guarded = { ...api };
  for (const key of methods) {
    const method = api[key] as unknown as (...args: unknown[]) => unknown;
    (guarded as Record<string, unknown>)[key] = (...args: unknown[]) => {
      try {
        return method(...args);
      } catch (error) {
        if (error instanceof IllegalTransitionError && !deps.inTransaction()) {
          const attention = attentionText(error, detailOf(key, args));
          try { deps.park(error.itemId, attention); } finally { report(error, attention); }
        }
        throw error;
      }
    };
  }
  return guarded;
}
