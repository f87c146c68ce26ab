/** Small formatting helpers for credits, durations and paths. */

/**
 * A number as `toLocaleString('en-US')` writes it (1,234.5; at most three decimals), without Intl: a page's first
 * Intl call loads ICU's formatting data — 30–70 ms in Chromium, which fell on the first render of the catalog (every
 * workflow shows its cost). Numbers too large for plain digits still go through Intl.
 */
export function formatNumber(n: number): string {
  const rounded = Math.round(n * 1000) / 1000;
  if (!Number.isFinite(rounded) || Math.abs(rounded) >= 1e21) return n.toLocaleString('en-US');
  const [whole = '0', fraction] = Math.abs(rounded).toString().split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${rounded < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
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
