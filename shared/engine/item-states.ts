import { ITEM_STATES, type ItemState } from './model';

// The item state machine: every change of an item's state is one of these events, and this table says from which
// states it may happen and which state it leads to. The journal applies it on every write (main/core/journal), so
// no part of the engine can move an item along a path that is not written here. The state groups below are the
// only lists of states anywhere: a screen, a report or the scheduler asks a group, never spells states out.
//
// Adding a state: add it to ITEM_STATES (model.ts), give it its rows here (the events that lead into and out of
// it), and add it to the groups it belongs to. The table tests (test/shared/item-states.test.ts) check that every
// state is reachable and that every group and row names only known states.

export const ITEM_EVENTS = [
  'encode', 'requeue', 'submit', 'wait', 'accept', 'adopt', 'answer-lost', 'claimed-elsewhere', 'refused',
  'queued', 'progress', 'complete', 'execution-failed', 'execution-cancelled', 'execution-gone',
  'save', 'save-skipped', 'save-failed', 'encode-failed', 'cancel', 'restore', 'retry', 'redownload', 'resubmit',
  'balance-uncharged', 'balance-charged', 'follow', 'unfollow', 'take-result', 'follow-lost', 'reuse-result',
  'server-error', 'export-result', 'taken-over',
] as const;
export type ItemEvent = (typeof ITEM_EVENTS)[number];

interface Transition {
  readonly from: readonly ItemState[];
  readonly to: ItemState;
  /** Why this move exists (shown by the table test names and docs/engine.md). */
  readonly why: string;
  /** The item's reason described the state it leaves (an encoding phase): cleared unless the change sets one. */
  readonly clearsReason?: true;
}

export const ITEM_TRANSITIONS: Readonly<Record<ItemEvent, Transition>> = {
  encode: { from: ['pending'], to: 'encoding', why: 'the encoder picked the item up' },
  requeue: { from: ['encoding'], to: 'pending', why: 'nothing was sent: restart, or the engine stopped with the payload unsent', clearsReason: true },
  submit: { from: ['encoding'], to: 'submitting', why: 'journalled (fsynced) before the POST leaves' },
  wait: { from: ['submitting'], to: 'encoding', why: 'an answered refusal that costs nothing (rate limit, 402, 401, ledger unreachable): back to the ready queue' },
  accept: {
    from: ['submitting', 'unknown'], to: 'submitted',
    why: 'the service answered with an execution id (charged); also when the answer comes after a restart marked the item unknown',
  },
  adopt: { from: ['pending'], to: 'submitted', why: 'following an execution another instance submitted' },
  'answer-lost': { from: ['submitting'], to: 'unknown', why: 'the request may have reached the service: never resubmitted automatically' },
  'claimed-elsewhere': { from: ['submitting'], to: 'cancelled', why: 'the studio ledger says another instance owns the photo' },
  refused: { from: ['submitting'], to: 'failed', why: 'the service refused it for good: nothing was charged' },
  'server-error': {
    from: ['submitting'], to: 'failed',
    why: 'the service answered with a server error (5xx): it may have started an execution, so resending is the user\'s call (its claim: may have been charged)',
  },
  queued: { from: ['submitted', 'running'], to: 'submitted', why: 'a poll says the execution is queued' },
  progress: { from: ['submitted', 'running'], to: 'running', why: 'a poll says the execution is running' },
  complete: { from: ['submitted', 'running'], to: 'downloading', why: 'the execution completed: its result URLs are journalled' },
  'execution-failed': { from: ['submitted', 'running'], to: 'failed', why: 'the execution failed and the service refunded it' },
  'execution-cancelled': { from: ['submitted', 'running'], to: 'failed', why: 'the service cancelled or expired the execution' },
  'execution-gone': {
    from: ['submitted', 'running', 'downloading'], to: 'charged-no-result',
    why: 'the service no longer knows an execution it accepted (and charged), and its result was not saved nor kept: kept out of "Retry failed", reported to the provider',
  },
  save: { from: ['downloading'], to: 'saved', why: 'every result is on disk under its final name' },
  'save-skipped': { from: ['downloading'], to: 'skipped', why: 'collision policy "skip": the name was taken' },
  'save-failed': { from: ['downloading'], to: 'failed', why: 'the paid result could not be downloaded or written' },
  'taken-over': {
    from: ['downloading'], to: 'skipped',
    why: 'studio: another instance took the photo over while this one was paused past its lease, and saves its result: written once, by that instance',
  },
  'encode-failed': { from: ['encoding'], to: 'failed', why: 'the source could not be read or encoded' },
  cancel: { from: ['pending', 'encoding', 'following'], to: 'cancelled', why: 'cancelled before anything was sent' },
  restore: { from: ['cancelled'], to: 'pending', why: 'a cancelled batch resumed: what it never sent runs after all' },
  retry: { from: ['failed'], to: 'pending', why: '"Retry failed" for an item whose result was never paid for' },
  redownload: { from: ['failed'], to: 'downloading', why: '"Retry failed" for a paid result that was not saved: fetched again, not re-executed' },
  resubmit: { from: ['unknown', 'failed', 'charged-no-result'], to: 'pending', why: 'the user explicitly sends it again (and is told what it costs)' },
  'balance-uncharged': {
    from: ['unknown'], to: 'pending',
    why: 'the balance proves no lost submission was charged (engine/balance-evidence.ts): sent once more, automatically',
  },
  'balance-charged': {
    from: ['unknown'], to: 'charged-no-result',
    why: 'the balance proves every lost submission was charged: reported to the provider like an execution it forgot',
  },
  follow: {
    from: ['pending', 'encoding'], to: 'following',
    why: 'the same photo (content, workflow, parameters, account) is claimed by another item: this one waits for that paid result instead of paying again',
  },
  unfollow: { from: ['following'], to: 'pending', why: 'the claim it waited for was released or refunded: nothing of it is at the service, so this item may send it' },
  'take-result': {
    from: ['following'], to: 'downloading',
    why: 'the claim it follows has its paid result: saved into this batch\'s own output plan without a new execution',
  },
  'reuse-result': {
    from: ['following'], to: 'saved',
    why: 'the claim it follows was saved exactly where this batch saves it (same output settings and folder): those files are its result, nothing is written twice',
  },
  'export-result': {
    from: ['pending'], to: 'downloading',
    why: 'exported again: a result already paid for (in another batch) made into this batch\'s deliverables, never sent to the service',
  },
  'follow-lost': {
    from: ['following'], to: 'skipped',
    why: 'the claim it followed ended without a result it can take (the answer was lost, or the service lost the result): never paid again automatically',
  },
};

/** The state `event` leads to from `from`, or null when the table has no such move. */
export function nextItemState(from: ItemState, event: ItemEvent): ItemState | null {
  const row = ITEM_TRANSITIONS[event];
  return row.from.includes(from) ? row.to : null;
}

export function canApply(from: ItemState, event: ItemEvent): boolean {
  return nextItemState(from, event) !== null;
}

/** States an item may be in for `event` to apply (a bulk move selects these). */
export function statesAllowing(event: ItemEvent): readonly ItemState[] {
  return ITEM_TRANSITIONS[event].from;
}

export class IllegalTransitionError extends Error {
  constructor(readonly itemId: string, readonly from: ItemState, readonly event: ItemEvent) {
    super(`illegal item transition: ${from} --${event}--> (item ${itemId}); allowed from ${ITEM_TRANSITIONS[event].from.join(', ')}`);
    this.name = 'IllegalTransitionError';
  }
}

const group = (...states: ItemState[]): ReadonlySet<ItemState> => new Set(states);
/** Ended for good without a file to write: never named. */
const WRITES_NOTHING: ReadonlySet<ItemState> = group('cancelled', 'skipped', 'charged-no-result');

/** The state groups: each defined once, here. */
export const ITEM_STATE_GROUPS = {
  /** Being worked on: encoding, at the service or downloading (the UI's "active" filter, the CLI's in-flight count). */
  inFlight: group('encoding', 'submitting', 'submitted', 'running', 'downloading'),
  /** Sent to the service: it cannot be stopped, and it is (or may be) paid for. */
  sent: group('submitting', 'submitted', 'running', 'downloading'),
  /** An execution id is known and the service is being polled for it. */
  followed: group('submitted', 'running'),
  /** Nothing more will happen without the user: the batch is complete when every item is in one of these. */
  terminal: group('saved', 'failed', 'cancelled', 'unknown', 'charged-no-result', 'skipped'),
  /** The balance may still move for these (a charge not answered yet, a refund not seen yet): balance evidence waits. */
  moneyMoving: group('submitting', 'submitted', 'running'),
  /** Charged by the service (an accepted execution that was not refunded), whatever became of the result. */
  charged: group('submitted', 'running', 'downloading', 'saved', 'charged-no-result'),
  /** Picked up again by "Retry failed". */
  retryable: group('failed'),
  /** May be sent again on the user's explicit request (unknown: may have been charged; charged-no-result: was). */
  resubmittable: group('unknown', 'failed', 'charged-no-result'),
  /** Terminal and never to be submitted again automatically (a hot folder's ledger treats the photo as done). */
  settled: group('saved', 'cancelled', 'unknown', 'charged-no-result', 'skipped'),
  /** Ended without a result: a hot folder counts these as failed. */
  unsuccessful: group('failed', 'unknown', 'charged-no-result'),
  /** Not sent by this item and not ended: exactly what a cancel stops, nothing of it paid (the queue's "waiting"). */
  unsent: group(...ITEM_TRANSITIONS.cancel.from),
  /** Take part in output naming: will, may still, or did write a file (cancelled, skipped, charged-no-result never do). */
  named: group(...ITEM_STATES.filter((s) => !WRITES_NOTHING.has(s))),
} as const;
export type ItemStateGroup = keyof typeof ITEM_STATE_GROUPS;

export function inGroup(group: ItemStateGroup, state: ItemState): boolean {
  return ITEM_STATE_GROUPS[group].has(state);
}

/** A group as an ordered list (ITEM_STATES order), for SQL `IN (…)` and for walking states in order. */
export function statesOf(group: ItemStateGroup): ItemState[] {
  return ITEM_STATES.filter((s) => ITEM_STATE_GROUPS[group].has(s));
}

/** States a new item may start in (planner): everything else is reached through the table. */
export const INITIAL_ITEM_STATES: ReadonlySet<ItemState> = group('pending', 'skipped');
