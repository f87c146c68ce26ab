import { describe, expect, it } from 'vitest';
import { creditKindOf, plural } from '../../shared/service/credit-kind';

describe('credit kind', () => {
  it.each([
    [{ mode: 'sandbox' as const, keyMasked: null }, 'test'],
    [{ mode: 'sandbox' as const, keyMasked: 'sk_live_…abcd' }, 'test'],
    [{ mode: 'live' as const, keyMasked: 'sk_test_…abcd' }, 'test'],
    [{ mode: 'live' as const, keyMasked: 'sk_live_…abcd' }, 'real'],
    [{ mode: 'live' as const, keyMasked: null }, 'real'],
  ])('%o spends %s credits', (status, kind) => {
    expect(creditKindOf(status)).toBe(kind);
  });

  it.each([[0, '0 photos'], [1, '1 photo'], [2, '2 photos'], [10_000, '10,000 photos']])('%d → %s', (n, text) => {
    expect(plural(n, 'photo')).toBe(text);
  });
});
