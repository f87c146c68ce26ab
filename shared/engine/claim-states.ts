import type { ItemEvent } from './item-states';

// The claim state machine: one claim per paid unit (a photo's content, the workflow, its parameters and the service
// account), so that whatever way a photo comes in — a second `batchroom run` after Ctrl-C, Start pressed twice, a hot
// folder, another studio machine — it is sent and paid for once. The local journal (main/core/journal) applies this
// table on every claim write, in the same transaction as the item change that causes it; the studio's PostgreSQL
// ledger (main/core/studio) generates its CHECK constraint and its state lists from it. Nothing else spells claim
// states out.
//
//   claimed → submitting → accepted (execution id) → completed (paid; result URLs) → saved
//                       ↘ unknown (answer lost)      ↘ charged-no-result | failed (refunded) | released (never sent)

export const CLAIM_STATES = [
  'claimed', 'submitting', 'unknown', 'accepted', 'completed', 'saved', 'charged-no-result', 'failed', 'cancelled', 'skipped', 'released',
] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];

export const CLAIM_EVENTS = [
  'claim', 'submit', 'not-sent', 'withdraw', 'release', 'accept', 'answer-lost', 'refuse', 'complete', 'refund', 'result-lost', 'save', 'cancel', 'skip',
] as const;
export type ClaimEvent = (typeof CLAIM_EVENTS)[number];

interface ClaimTransition {
  /** States the event applies from; `null` is "no claim yet" (the row does not exist). */
  readonly from: readonly (ClaimState | null)[];
  readonly to: ClaimState;
  readonly why: string;
}

/** What a new owner may take over: nothing of these is at the service any more (or the user asked to pay again). */
const RECLAIMABLE: readonly (ClaimState | null)[] = [null, 'released', 'failed', 'cancelled', 'skipped', 'saved', 'charged-no-result', 'unknown'];

export const CLAIM_TRANSITIONS: Readonly<Record<ClaimEvent, ClaimTransition>> = {
  claim: { from: RECLAIMABLE, to: 'claimed', why: 'an owner takes the photo before anything is sent (studio: granted to one instance)' },
  submit: {
    from: [...RECLAIMABLE, 'claimed'], to: 'submitting',
    why: 'journalled before the POST leaves; refused while another owner holds it open (claimed, submitting, accepted, completed)',
  },
  'not-sent': { from: ['submitting'], to: 'claimed', why: 'the request never left (an answered refusal, a stop): still the owner\'s, nothing charged' },
  withdraw: { from: ['claimed', 'submitting'], to: 'released', why: 'given up before anything was sent (cancelled, put back, claimed by another studio instance)' },
  release: { from: ['claimed', 'unknown'], to: 'released', why: 'the balance proved the lost submission uncharged (or nothing was sent)' },
  accept: { from: [null, 'claimed', 'submitting', 'unknown'], to: 'accepted', why: 'the service answered with an execution id: paid' },
  'answer-lost': { from: ['submitting'], to: 'unknown', why: 'the request may have reached the service: may have been charged' },
  refuse: { from: ['submitting'], to: 'failed', why: 'the service refused it: nothing charged' },
  complete: { from: ['accepted'], to: 'completed', why: 'the execution finished: paid, its result URLs are known' },
  refund: { from: ['accepted', 'completed'], to: 'failed', why: 'the execution failed or was cancelled by the service, and refunded' },
  'result-lost': {
    from: ['accepted', 'completed', 'unknown'], to: 'charged-no-result',
    why: 'charged, and the result can no longer be had (the service forgot it, its URL expired with no bytes kept, or the balance proved a lost submission charged)',
  },
  save: { from: ['accepted', 'completed'], to: 'saved', why: 'the paid result is on disk' },
  cancel: { from: ['claimed'], to: 'cancelled', why: 'cancelled before anything was sent' },
  skip: { from: ['claimed', 'submitting', 'accepted', 'completed'], to: 'skipped', why: 'its result was not written (collision policy "skip")' },
};

const group = (...states: ClaimState[]): ReadonlySet<ClaimState> => new Set(states);

export const CLAIM_STATE_GROUPS = {
  /** Another item of the same photo follows this claim and never submits (the result is coming, or already here). */
  open: group('claimed', 'submitting', 'accepted', 'completed'),
  /** Being worked on by an owner (studio: what a dead instance's takeover looks at). */
  inFlight: group('claimed', 'submitting', 'accepted'),
  /** Charged by the service. */
  paid: group('accepted', 'completed', 'saved', 'charged-no-result'),
  /** Finished: a hot folder's ledger treats the photo as done (studio: the outcome of the claim). */
  done: group('saved', 'unknown', 'charged-no-result', 'cancelled', 'skipped'),
} as const;
export type ClaimStateGroup = keyof typeof CLAIM_STATE_GROUPS;

export function inClaimGroup(name: ClaimStateGroup, state: ClaimState | null): boolean {
  return state !== null && CLAIM_STATE_GROUPS[name].has(state);
}

/** A group as an ordered list (CLAIM_STATES order), e.g. for SQL `IN (…)`. */
export function claimStatesOf(name: ClaimStateGroup): ClaimState[] {
  return CLAIM_STATES.filter((s) => CLAIM_STATE_GROUPS[name].has(s));
}

/** The state `event` leads to from `from` (null: no claim yet), or null when the table has no such move. */
export function nextClaimState(from: ClaimState | null, event: ClaimEvent): ClaimState | null {
  const row = CLAIM_TRANSITIONS[event];
  return row.from.includes(from) ? row.to : null;
}

export function isClaimState(value: unknown): value is ClaimState {
  return typeof value === 'string' && (CLAIM_STATES as readonly string[]).includes(value);
}

/** A SQL list literal of states, `('a', 'b')`: states are fixed identifiers from this file, never user input. */
export function sqlStateList(states: readonly ClaimState[]): string {
  return `(${states.map((s) => `'${s}'`).join(', ')})`;
}

/**
 * The CHECK constraint every store of claims puts on its state column (the studio's PostgreSQL table): the table's
 * states, plus any `also` an existing store already allows (a store's constraint only ever widens).
 */
export function claimStateCheck(column = 'state', also: readonly string[] = []): string {
  const states = [...new Set<string>([...CLAIM_STATES, ...also.filter((s) => /^[a-z-]+$/.test(s))])];
  return `CHECK (${column} IN (${states.map((s) => `'${s}'`).join(', ')}))`;
}

/**
 * The claim event an item event causes on the item's own claim (the journal applies both in one transaction).
 * Absent: the item event leaves the claim as it is (a follower's save, a retry that has not sent anything yet).
 */
export const CLAIM_EVENT_OF_ITEM_EVENT: Partial<Readonly<Record<ItemEvent, ClaimEvent>>> = {
  submit: 'submit',
  wait: 'not-sent',
  requeue: 'withdraw',
  cancel: 'withdraw',
  'claimed-elsewhere': 'withdraw',
  'server-error': 'answer-lost',
  'save-skipped': 'skip',
  accept: 'accept',
  adopt: 'accept',
  'answer-lost': 'answer-lost',
  refused: 'refuse',
  complete: 'complete',
  'execution-failed': 'refund',
  'execution-cancelled': 'refund',
  'execution-gone': 'result-lost',
  'balance-charged': 'result-lost',
  'balance-uncharged': 'release',
  save: 'save',
};
