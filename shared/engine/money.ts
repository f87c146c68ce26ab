/**
 * Which credits a session spends: free test credits (the built-in sandbox, an `sk_test_` key) or real ones
 * (shared/service/credit-kind.ts decides; defined here so the formatter needs nothing from there).
 */
export type CreditKind = 'test' | 'real';

// Money has one owner: how a spend is compared with a budget or a balance, and how an amount of credits is written.
// Every budget check (the estimate, the engine's guard, hot folders, the studio ledger) and every credit amount a
// person reads (CLI and app alike) goes through here. Before, three checks used three tolerances (none, 1e-9,
// 1e-6) — 3 photos at 0.1 credit fitted a 0.3 budget in the engine but not in the estimate — and five formatters
// rounded and pluralised each their own way ("1 credits", "0.333333 credits").

/**
 * Credits are decimal amounts summed in binary floating point (0.1 × 3 = 0.30000000000000004): a spend within this
 * much of a limit is within it. Far below any real price (the smallest is a hundredth of a credit).
 */
export const CREDIT_TOLERANCE = 1e-6;

/** Whether spending `amount` stays within `limit` (a budget or what a balance covers); null: no limit. */
export function withinCredits(amount: number, limit: number | null): boolean {
  return limit === null || amount <= limit + CREDIT_TOLERANCE;
}

/** How many units of `unitCost` fit in `left` credits (0 when none does; a free unit: unlimited). */
export function unitsWithin(left: number, unitCost: number): number {
  if (unitCost <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, Math.floor((left + CREDIT_TOLERANCE) / unitCost));
}

/**
 * `abs` (finite, below 1e21) to at most `decimals` decimals, halves up as ICU rounds: on its shortest decimal form
 * (`toString`), not on the double — 0.5005 is 0.50049… as a double (`Math.round(n * 1000)` wrote 0.5).
 */
function roundedDigits(abs: number, decimals: number): string {
  const text = abs.toString();
  if (text.includes('e')) return '0'; // below 1e-6 (1e21 and more never get here)
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length <= decimals) return text;
  // In units of the last kept decimal, as digits (BigInt: up to 24 of them).
  let units = BigInt(whole + fraction.slice(0, decimals));
  if (fraction[decimals]! >= '5') units += 1n;
  const digits = units.toString().padStart(decimals + 1, '0');
  const kept = digits.slice(-decimals).replace(/0+$/, '');
  return `${digits.slice(0, -decimals)}${kept ? `.${kept}` : ''}`;
}

/**
 * A number as `toLocaleString('en-US')` writes it (1,234.5; at most `decimals` decimals) without Intl: the CLI may
 * run on a Node without full ICU, and a page's first Intl call loads ICU's data (30–70 ms in Chromium). Numbers too
 * large for plain digits still go through Intl. What rounds to zero is written `0`, never `-0`.
 */
export function formatNumber(n: number, decimals = 3): string {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21) return n.toLocaleString('en-US');
  const [whole = '0', fraction] = roundedDigits(Math.abs(n), decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const zero = whole === '0' && !fraction;
  return `${n < 0 && !zero ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** An amount of credits without its unit: at most two decimals ("1,234.57", "0.5", "3"). */
export function creditAmount(n: number): string {
  return formatNumber(n, 2);
}

/**
 * "1 credit", "3 credits", "0.5 credits", "1,234.57 credits"; "free test credits" for test credits (the sandbox, a
 * test key). Singular exactly when the amount as written is 1.
 */
export function formatCredits(n: number, kind: CreditKind = 'real'): string {
  const amount = creditAmount(n);
  const unit = amount === '1' || amount === '-1' ? 'credit' : 'credits';
  return `${amount} ${kind === 'test' ? `free test ${unit}` : unit}`;
}
