/** Small formatting helpers for credits, durations and paths. */

/**
 * A number as `toLocaleString('en-US')` writes it (1,234.5; at most three decimals), without Intl: a page's first
 * Intl call loads ICU's formatting data — 30–70 ms in Chromium, which fell on the first render of the catalog (every
 * workflow shows its cost). Numbers too large for plain digits still go through Intl. One difference: what rounds to
 * zero is written `0`, never `-0`.
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21) return n.toLocaleString('en-US');
  const [whole = '0', fraction] = roundedDigits(Math.abs(n)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const zero = whole === '0' && !fraction;
  return `${n < 0 && !zero ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/**
 * `abs` (below 1e21) to at most three decimals, halves up, as ICU rounds: on its shortest decimal form (`toString`),
 * not on the double — 0.5005 is 0.50049… as a double (`Math.round(n * 1000)` wrote 0.5), and negative halves then
 * moved up (-695.3415 was -695.341).
 */
function roundedDigits(abs: number): string {
  const text = abs.toString();
  if (text.includes('e')) return '0'; // below 1e-6 (1e21 and more went to Intl)
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length <= 3) return text;
  // In thousandths, as digits (BigInt: up to 24 of them).
  let thousandths = BigInt(whole + fraction.slice(0, 3));
  if (fraction[3]! >= '5') thousandths += 1n;
  const digits = thousandths.toString().padStart(4, '0');
  const kept = digits.slice(-3).replace(/0+$/, '');
  return `${digits.slice(0, -3)}${kept ? `.${kept}` : ''}`;
}

export function formatCredits(n: number): string {
  const rounded = Math.round(n * 100) / 100;
  return `${formatNumber(rounded)} ${Math.abs(rounded) === 1 ? 'credit' : 'credits'}`;
}

export function formatEta(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

export function dirName(path: string): string {
  const at = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return at > 0 ? path.slice(0, at) : path;
}

export function percent(fraction: number): string {
  return `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)}%`;
}
