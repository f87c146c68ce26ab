// Which credits a session spends, derived from the service and the key together: the built-in sandbox, or a test
// key (`sk_test_…`) against any service, spends free test credits; only a live key against a live service spends
// real ones. One rule for the header badge, the cost dialogs and the CLI's wording.

export type CreditKind = 'test' | 'real';

export function creditKindOf(status: { mode: 'sandbox' | 'live'; keyMasked: string | null }): CreditKind {
  if (status.mode === 'sandbox') return 'test';
  return status.keyMasked?.startsWith('sk_test_') ? 'test' : 'real';
}

/** "13 credits" or "13 free test credits" (one rounding and plural rule everywhere). */
export function creditsText(value: number, kind: CreditKind = 'real'): string {
  const rounded = Math.round(value * 100) / 100;
  const unit = rounded === 1 ? 'credit' : 'credits';
  return `${rounded.toLocaleString('en-US')} ${kind === 'test' ? `free test ${unit}` : unit}`;
}

/** "1 photo", "2 photos": counts that read right. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? word : many}`;
}
