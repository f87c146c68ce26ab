import { describe, expect, it } from 'vitest';
import {
  CLAIM_EVENT_OF_ITEM_EVENT, CLAIM_EVENTS, CLAIM_STATE_GROUPS, CLAIM_STATES, CLAIM_TRANSITIONS, claimStateCheck, inClaimGroup, nextClaimState,
  type ClaimEvent, type ClaimState,
} from '../../shared/engine/claim-states';
import { ITEM_EVENTS } from '../../shared/engine/item-states';

// The claim table, as the paths a paid unit takes: a change to a row shows up here as a failing case.
const LEGAL: [ClaimState | null, ClaimEvent, ClaimState][] = [
  [null, 'submit', 'submitting'],
  ['claimed', 'submit', 'submitting'],
  ['submitting', 'not-sent', 'claimed'],
  ['claimed', 'release', 'released'],
  ['claimed', 'withdraw', 'released'],
  ['submitting', 'withdraw', 'released'],
  ['submitting', 'accept', 'accepted'],
  ['unknown', 'accept', 'accepted'],
  ['submitting', 'answer-lost', 'unknown'],
  ['submitting', 'refuse', 'failed'],
  ['accepted', 'complete', 'completed'],
  ['accepted', 'refund', 'failed'],
  ['completed', 'result-lost', 'charged-no-result'],
  ['unknown', 'result-lost', 'charged-no-result'],
  ['unknown', 'release', 'released'],
  ['completed', 'save', 'saved'],
  ['saved', 'submit', 'submitting'], // the user asked to run it again (its results were deleted, or --rerun)
  ['released', 'submit', 'submitting'],
];

// Moves that would pay twice or forget a payment.
const ILLEGAL: [ClaimState | null, ClaimEvent][] = [
  ['submitting', 'submit'], ['accepted', 'submit'], ['completed', 'submit'], // open: another item follows, never sends
  ['accepted', 'release'], ['completed', 'release'], ['accepted', 'withdraw'], ['unknown', 'withdraw'], // paid or maybe: never "nothing was sent"
  ['saved', 'complete'], ['charged-no-result', 'accept'], [null, 'save'],
];

describe('claim state machine', () => {
  it.each(LEGAL)('%s --%s--> %s', (from, event, to) => {
    expect(nextClaimState(from, event)).toBe(to);
  });

  it.each(ILLEGAL)('refuses %s --%s-->', (from, event) => {
    expect(nextClaimState(from, event)).toBeNull();
  });

  it('names only known states and events; every state is reachable', () => {
    const reached = new Set<ClaimState>();
    for (const event of CLAIM_EVENTS) {
      const row = CLAIM_TRANSITIONS[event];
      expect(CLAIM_STATES).toContain(row.to);
      for (const from of row.from) if (from !== null) expect(CLAIM_STATES).toContain(from);
      reached.add(row.to);
    }
    expect([...reached].sort()).toEqual([...CLAIM_STATES].sort());
    for (const group of Object.values(CLAIM_STATE_GROUPS)) for (const s of group) expect(CLAIM_STATES).toContain(s);
  });

  it('maps item events onto claim events that exist', () => {
    for (const [itemEvent, claimEvent] of Object.entries(CLAIM_EVENT_OF_ITEM_EVENT)) {
      expect(ITEM_EVENTS).toContain(itemEvent);
      expect(CLAIM_EVENTS).toContain(claimEvent);
    }
  });

  it('an open claim is what a second batch follows; a paid one is never open to a new sender', () => {
    for (const state of CLAIM_STATE_GROUPS.open) expect(nextClaimState(state, 'submit') === null || state === 'claimed').toBe(true);
    expect(inClaimGroup('open', 'unknown')).toBe(false);
    expect(inClaimGroup('open', null)).toBe(false);
  });

  it('generates the CHECK constraint of every claim store from the table', () => {
    const check = claimStateCheck('state');
    for (const state of CLAIM_STATES) expect(check).toContain(`'${state}'`);
    expect(check).toMatch(/^CHECK \(state IN \(/);
  });
});
