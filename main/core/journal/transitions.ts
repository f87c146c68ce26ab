import { IllegalTransitionError, nextItemState, ITEM_TRANSITIONS, type ItemEvent } from '../../../shared/engine/item-states';
import type { ItemState } from '../../../shared/engine/model';

// How the journal enforces the item state machine (shared/engine/item-states.ts). An event the table does not allow
// from the item's current state is a bug in the engine: under test it throws, so the path is found and fixed; in
// production it is logged and the event's target state is applied as before, so a user's batch never stalls on it.

export interface TransitionPolicy {
  /** Throw on an illegal transition (tests) rather than log it (production). */
  strict?: boolean;
  /** Where a production illegal transition is reported (the app's logger). */
  report?: (error: IllegalTransitionError) => void;
}

/** Vitest sets VITEST in every worker and child it starts with the test environment. */
export const isTestRun = (): boolean => Boolean(process.env.VITEST) || process.env.NODE_ENV === 'test';

export function transitionChecker(policy: TransitionPolicy = {}): (itemId: string, from: ItemState, event: ItemEvent) => ItemState {
  const strict = policy.strict ?? isTestRun();
  const report = policy.report ?? ((error: IllegalTransitionError) => { console.error(`[journal] ${error.message}`); });
  return (itemId, from, event) => {
    const to = nextItemState(from, event);
    if (to !== null) return to;
    const error = new IllegalTransitionError(itemId, from, event);
    if (strict) throw error;
    report(error);
    return ITEM_TRANSITIONS[event].to;
  };
}
