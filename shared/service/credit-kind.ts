import { formatNumber, type CreditKind } from '../engine/money';

// Which credits a session spends, derived from the service and the key together: the built-in sandbox, or a test
// key (`sk_test_…`) against any service, spends free test credits; only a live key against a live service spends
// real ones. One rule for the header badge, the cost dialogs and the CLI's wording.

export type { CreditKind };

export function creditKindOf(status: { mode: 'sandbox' | 'live'; keyMasked: string | null }): CreditKind {
  if (status.mode === 'sandbox') return 'test';
  return status.keyMasked?.startsWith('sk_test_') ? 'test' : 'real';
}

/** "1 photo", "2 photos": counts that read right (credits: formatCredits in shared/engine/money.ts). */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${formatNumber(count)} ${count === 1 ? word : many}`;
}
