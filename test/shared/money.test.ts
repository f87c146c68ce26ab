import { describe, expect, it } from 'vitest';
import { CREDIT_TOLERANCE, creditAmount, formatCredits, unitsWithin, withinCredits } from '../../shared/engine/money';

describe('money: one budget tolerance', () => {
  it('counts a spend summed in floating point as within a budget it equals', () => {
    const spend = 0.1 + 0.1 + 0.1; // 0.30000000000000004
    expect(spend > 0.3).toBe(true);
    expect(withinCredits(spend, 0.3)).toBe(true);
    expect(withinCredits(3 * 0.7, 2.1)).toBe(true);
  });

  it('refuses what really passes the limit, and has no limit without one', () => {
    expect(withinCredits(0.31, 0.3)).toBe(false);
    expect(withinCredits(0.3 + 10 * CREDIT_TOLERANCE, 0.3)).toBe(false);
    expect(withinCredits(1e9, null)).toBe(true);
    expect(withinCredits(5, 0)).toBe(false);
    expect(withinCredits(0, 0)).toBe(true);
  });

  it('counts how many units fit what is left', () => {
    expect(unitsWithin(0.3, 0.1)).toBe(3); // 0.3 / 0.1 is 2.9999999999999996
    expect(unitsWithin(0.7, 0.1)).toBe(7);
    expect(unitsWithin(5, 2)).toBe(2);
    expect(unitsWithin(0.05, 0.1)).toBe(0);
    expect(unitsWithin(-3, 1)).toBe(0);
    expect(unitsWithin(3, 0)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('money: one credit formatter', () => {
  it.each([
    [1, 'real', '1 credit'], [3, 'real', '3 credits'], [0, 'real', '0 credits'], [0.5, 'real', '0.5 credits'],
    [13, 'real', '13 credits'], [1200, 'real', '1,200 credits'], [1234.567, 'real', '1,234.57 credits'],
    [1 / 3, 'real', '0.33 credits'], [0.1 + 0.2, 'real', '0.3 credits'], [0.999, 'real', '1 credit'], [1.005, 'real', '1.01 credits'],
    [-1, 'real', '-1 credit'], [-400, 'real', '-400 credits'],
    [1, 'test', '1 free test credit'], [13, 'test', '13 free test credits'], [0.5, 'test', '0.5 free test credits'],
  ] as const)('%d %s credits read "%s"', (value, kind, text) => {
    expect(formatCredits(value, kind)).toBe(text);
  });

  it('writes amounts without Intl, as en-US does, to two decimals', () => {
    for (const n of [0, 1, 7.5, 12.25, 999, 1000, 1234.5, 1e6, 123456.78]) expect(creditAmount(n)).toBe(n.toLocaleString('en-US', { maximumFractionDigits: 2 }));
    expect(creditAmount(-0.001)).toBe('0');
  });
});
