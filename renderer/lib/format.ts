import type { CreditKind } from '../../shared/engine/money';
import { activeFormat } from '../i18n/active';

/**
 * Small formatting helpers for credits, durations and paths, in the page's language (shared/i18n/format.ts; the CLI
 * keeps its English formatter, shared/engine/money.ts). Components may use `useFormat()` instead; both agree.
 */

export function formatCredits(n: number, kind: CreditKind = 'real'): string {
  return activeFormat().credits(n, kind);
}

export function formatNumber(n: number, decimals = 3): string {
  return activeFormat().number(n, decimals);
}

export function formatEta(ms: number | null): string {
  return activeFormat().eta(ms);
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
  return activeFormat().percent(fraction);
}

/** The last two parts of a folder (`shoot-a/Batchroom`): enough to tell batches apart in a narrow list. */
export function shortFolder(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : path;
}
