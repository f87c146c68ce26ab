import { describe, expect, it } from 'vitest';
import { BACKOFF, backoffDelay, retryPolicy, startingAt, withRetries } from '../../../main/core/service/retry';
import { ServiceError } from '../../../main/core/service/errors';
import { silentLogger } from '../../../main/core/log';

// The one back-off module. Each named policy is checked against the wait its call site used before it had a name
// (the formulas below are the ones it replaced), so moving them here changed no delay.

const seq = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('backoffDelay', () => {
  it('doubles from the first wait and stops at the cap', () => {
    expect(seq(6).map((r) => backoffDelay({ firstMs: 100, maxMs: 1_000 }, r))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('stops doubling after maxDoublings, below the cap', () => {
    expect(seq(7).map((r) => backoffDelay({ firstMs: 10, maxMs: 30_000, maxDoublings: 4 }, r))).toEqual([10, 20, 40, 80, 160, 160, 160]);
  });

  it('treats a negative or fractional retry as the first, and never overflows on a long outage', () => {
    expect(backoffDelay({ firstMs: 100, maxMs: 1_000 }, -3)).toBe(100);
    expect(backoffDelay({ firstMs: 100, maxMs: 1_000 }, 1.7)).toBe(200);
    expect(backoffDelay({ firstMs: 100, maxMs: 1_000 }, 10_000)).toBe(1_000);
    expect(backoffDelay({ firstMs: 100, maxMs: Number.POSITIVE_INFINITY }, 10_000)).toBeLessThan(Number.POSITIVE_INFINITY);
  });

  it('startingAt keeps the cap and the doubling limit', () => {
    const policy = startingAt(BACKOFF.studioConnect, 100);
    expect(policy).toEqual({ firstMs: 100, maxMs: 30_000, maxDoublings: 4 });
    expect(backoffDelay(startingAt(BACKOFF.hotFolderRefused, 200), 20)).toBe(600_000);
  });
});

describe('the named policies keep the waits their call sites had', () => {
  it('engine: refused submit (attempts from 1), failed status look (overdue from 1), download retry (attempt from 1)', () => {
    for (const attempts of seq(10).map((n) => n + 1)) {
      expect(backoffDelay(BACKOFF.submitRefused, attempts - 1)).toBe(Math.min(10_000, 250 * 2 ** attempts));
      expect(backoffDelay(BACKOFF.statusFailed, attempts - 1)).toBe(Math.min(10_000, 250 * 2 ** Math.min(attempts, 6)));
    }
    expect([1, 2, 3, 4].map((a) => backoffDelay(BACKOFF.download, a - 1))).toEqual([600, 1_200, 2_400, 4_800]);
  });

  it('engine: recording an accepted id, idle polling, offline probes', () => {
    for (const n of seq(10)) {
      expect(backoffDelay(BACKOFF.recordAccepted, n)).toBe(Math.min(5_000, 250 * 2 ** n));
      expect(backoffDelay(BACKOFF.idlePoll, n)).toBe(Math.min(5_000, 500 * 2 ** Math.min(n, 4)));
    }
    expect(seq(6).map((n) => backoffDelay(BACKOFF.offlineProbe, n))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('balance evidence re-reads after twice, then four times the settle time', () => {
    expect([1, 2].map((a) => backoffDelay(startingAt(BACKOFF.balanceReread, 3_000 * 2), a - 1))).toEqual([6_000, 12_000]);
    expect([1, 2].map((a) => backoffDelay(BACKOFF.balanceReread, a - 1))).toEqual([6_000, 12_000]);
  });

  it('studio connect and a refused hot-folder batch, with their default and a configured first wait', () => {
    for (const retryMs of [2_000, 150]) {
      for (const n of seq(8)) {
        expect(backoffDelay(startingAt(BACKOFF.studioConnect, retryMs), n)).toBe(Math.min(30_000, retryMs * 2 ** Math.min(n, 4)));
      }
    }
    expect(seq(8).map((n) => backoffDelay(BACKOFF.studioConnect, n))).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000]);
    for (const retryMs of [30_000, 200]) {
      for (const failures of seq(12).map((n) => n + 1)) {
        expect(backoffDelay(startingAt(BACKOFF.hotFolderRefused, retryMs), failures - 1)).toBe(Math.min(retryMs * 2 ** (failures - 1), 600_000));
      }
    }
  });
});

describe('withRetries uses the same doubling for its jitter ceiling', () => {
  it('waits at most base·2^n, capped, between tries', async () => {
    const waits: number[] = [];
    const policy = retryPolicy({ attempts: 6, baseDelayMs: 300, maxDelayMs: 2_000, totalMs: 60_000, random: () => 0.999999, sleep: async (ms) => void waits.push(ms) });
    await expect(withRetries(policy, { log: silentLogger, label: 'test' }, async () => ({ retry: new ServiceError('network', 'down') }))).rejects.toThrow('down');
    expect(waits).toEqual([299, 599, 1_199, 1_999, 1_999]);
  });
});
