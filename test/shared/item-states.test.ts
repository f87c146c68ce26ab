import { describe, expect, it } from 'vitest';
import {
  canApply, IllegalTransitionError, INITIAL_ITEM_STATES, inGroup, ITEM_EVENTS, ITEM_STATE_GROUPS, ITEM_TRANSITIONS, nextItemState, statesOf,
  type ItemEvent,
} from '../../shared/engine/item-states';
import { ITEM_STATES, type ItemState } from '../../shared/engine/model';
import { transitionChecker } from '../../main/core/journal/transitions';

// The whole table, written out as the paths the engine takes: a change to a row shows up here as a failing case.
const LEGAL: [ItemState, ItemEvent, ItemState][] = [
  ['pending', 'encode', 'encoding'],
  ['encoding', 'requeue', 'pending'],
  ['encoding', 'submit', 'submitting'],
  ['encoding', 'encode-failed', 'failed'],
  ['submitting', 'wait', 'encoding'],
  ['submitting', 'accept', 'submitted'],
  ['unknown', 'accept', 'submitted'],
  ['pending', 'adopt', 'submitted'],
  ['submitting', 'answer-lost', 'unknown'],
  ['submitting', 'claimed-elsewhere', 'cancelled'],
  ['submitting', 'refused', 'failed'],
  ['submitted', 'progress', 'running'],
  ['running', 'progress', 'running'],
  ['running', 'queued', 'submitted'],
  ['submitted', 'queued', 'submitted'],
  ['submitted', 'complete', 'downloading'],
  ['running', 'complete', 'downloading'],
  ['submitted', 'execution-failed', 'failed'],
  ['running', 'execution-failed', 'failed'],
  ['submitted', 'execution-cancelled', 'failed'],
  ['running', 'execution-cancelled', 'failed'],
  ['submitted', 'execution-gone', 'charged-no-result'],
  ['running', 'execution-gone', 'charged-no-result'],
  ['downloading', 'execution-gone', 'charged-no-result'],
  ['downloading', 'save', 'saved'],
  ['downloading', 'save-skipped', 'skipped'],
  ['downloading', 'save-failed', 'failed'],
  ['downloading', 'taken-over', 'skipped'],
  ['pending', 'cancel', 'cancelled'],
  ['encoding', 'cancel', 'cancelled'],
  ['failed', 'retry', 'pending'],
  ['failed', 'redownload', 'downloading'],
  ['unknown', 'resubmit', 'pending'],
  ['failed', 'resubmit', 'pending'],
  ['charged-no-result', 'resubmit', 'pending'],
  ['unknown', 'balance-uncharged', 'pending'],
  ['unknown', 'balance-charged', 'charged-no-result'],
  ['cancelled', 'restore', 'pending'],
  ['pending', 'follow', 'following'],
  ['encoding', 'follow', 'following'],
  ['following', 'unfollow', 'pending'],
  ['following', 'take-result', 'downloading'],
  ['following', 'follow-lost', 'skipped'],
  ['following', 'cancel', 'cancelled'],
  ['following', 'reuse-result', 'saved'],
  ['submitting', 'server-error', 'failed'],
  ['pending', 'export-result', 'downloading'],
];

// Moves that must never happen: each one would pay twice, lose a paid result or resurrect a finished item.
const ILLEGAL: [ItemState, ItemEvent][] = [
  ['pending', 'submit'], // never sent without being encoded and journalled `submitting` first
  ['following', 'submit'], // a follower never sends: it goes back to pending first, when the claim it followed is released
  ['following', 'encode'],
  ['submitting', 'follow'], // once sent, an item is the owner of its claim: it never follows another
  ['unknown', 'retry'], // "Retry failed" never resends an item that may have been charged
  ['charged-no-result', 'retry'], // …nor one that was charged and lost: only an explicit resubmit, which shows the cost
  ['charged-no-result', 'redownload'],
  ['unknown', 'submit'],
  ['saved', 'save'], // a result is saved once
  ['saved', 'cancel'],
  ['submitting', 'cancel'], // sent: the service cannot stop it
  ['submitted', 'cancel'],
  ['downloading', 'cancel'],
  ['cancelled', 'encode'],
  ['skipped', 'encode'],
  ['saved', 'resubmit'],
  ['failed', 'accept'],
  ['pending', 'complete'],
];

describe('item state machine', () => {
  it.each(LEGAL)('%s --%s--> %s', (from, event, to) => {
    expect(nextItemState(from, event)).toBe(to);
    expect(canApply(from, event)).toBe(true);
  });

  it.each(ILLEGAL)('refuses %s --%s-->', (from, event) => {
    expect(nextItemState(from, event)).toBeNull();
  });

  it('lists exactly the legal moves above (no row added without a case)', () => {
    const all = ITEM_EVENTS.flatMap((event) => ITEM_TRANSITIONS[event].from.map((from) => `${from} ${event} ${ITEM_TRANSITIONS[event].to}`));
    expect(all.sort()).toEqual(LEGAL.map((t) => t.join(' ')).sort());
  });

  it('reaches every state from an initial one, and names only known states', () => {
    const reached = new Set<ItemState>(INITIAL_ITEM_STATES);
    for (let grew = true; grew;) {
      grew = false;
      for (const event of ITEM_EVENTS) {
        const row = ITEM_TRANSITIONS[event];
        if (row.from.some((s) => reached.has(s)) && !reached.has(row.to)) { reached.add(row.to); grew = true; }
      }
    }
    expect([...reached].sort()).toEqual([...ITEM_STATES].sort());
    for (const set of Object.values(ITEM_STATE_GROUPS)) for (const s of set) expect(ITEM_STATES).toContain(s);
  });

  it('leaves a terminal state only on a user action (retry, redownload, resubmit), a late answer (accept) or the balance\'s proof', () => {
    const userOrLate = new Set<ItemEvent>(['retry', 'redownload', 'resubmit', 'restore', 'accept', 'balance-uncharged', 'balance-charged']);
    for (const event of ITEM_EVENTS) {
      if (ITEM_TRANSITIONS[event].from.some((s) => inGroup('terminal', s))) expect(userOrLate.has(event), event).toBe(true);
    }
  });

  it.each([
    ['inFlight', ['encoding', 'submitting', 'submitted', 'running', 'downloading']],
    ['sent', ['submitting', 'submitted', 'running', 'downloading']],
    ['followed', ['submitted', 'running']],
    ['terminal', ['saved', 'failed', 'cancelled', 'unknown', 'charged-no-result', 'skipped']],
    ['moneyMoving', ['submitting', 'submitted', 'running']],
    ['charged', ['submitted', 'running', 'downloading', 'saved', 'charged-no-result']],
    ['retryable', ['failed']],
    ['resubmittable', ['failed', 'unknown', 'charged-no-result']],
    ['settled', ['saved', 'cancelled', 'unknown', 'charged-no-result', 'skipped']],
    ['unsuccessful', ['failed', 'unknown', 'charged-no-result']],
    ['unsent', ['pending', 'following', 'encoding']],
    ['named', ['pending', 'following', 'encoding', 'submitting', 'submitted', 'running', 'downloading', 'saved', 'failed', 'unknown']],
  ] as const)('group %s is %j', (group, states) => {
    expect(statesOf(group)).toEqual(states);
  });

  it('groups agree with the table: cancel exactly before sending, retry exactly the retryable, resubmit exactly the resubmittable', () => {
    for (const state of ITEM_STATES) {
      expect(canApply(state, 'cancel'), state).toBe(!inGroup('sent', state) && !inGroup('terminal', state));
      expect(canApply(state, 'retry'), state).toBe(inGroup('retryable', state));
      expect(canApply(state, 'resubmit'), state).toBe(inGroup('resubmittable', state));
      expect(inGroup('settled', state), state).toBe(inGroup('terminal', state) && !inGroup('retryable', state));
      expect(inGroup('unsent', state), state).toBe(canApply(state, 'cancel'));
    }
  });
});

describe('journal transition policy', () => {
  it('throws on an illegal move in every environment (the journal parks the item: test/main/journal/transition-parking.test.ts)', () => {
    const check = transitionChecker();
    expect(check('i1', 'pending', 'encode')).toBe('encoding');
    expect(() => check('i1', 'saved', 'save')).toThrow(IllegalTransitionError);
    expect(() => check('i1', 'unknown', 'retry')).toThrow(/unknown --retry-->/);
    expect(() => check('i2', 'cancelled', 'encode-failed')).toThrow(IllegalTransitionError);
  });
});
