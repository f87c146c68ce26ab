import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { OWNER_ONLY_FILE_MODE } from '../settings/state-dir';
import { writeFileAtomic } from '../recipes/recipe-files';

// balance-readings.jsonl only grows (one line per balance read; an unchanged one once a minute), so it is pruned to
// what reports need. The rule (docs/recipes.md, "The balance"):
// 1. readings older than KEEP_DAYS go, but the last one of each account before that cut-off stays: a report of a
//    period starting at the cut-off still has its "last reading at or before the start";
// 2. if what is left is still over the size cap, readings older than a day are thinned to the last one per account
//    per hour (a report's bracketing readings move by at most an hour, and the balance change still adds up between
//    the readings it names);
// 3. only if that is still over the cap (many accounts on one state folder), the oldest lines go until it fits, and
//    the cap wins over the KEEP_DAYS.

/** One reading as balance-readings.ts keeps it (declared here too: that file imports this one). */
interface BalanceReadingRecord {
  at: string;
  account: string;
  credits: number;
}

export const BALANCE_KEEP_DAYS = 400;
export const BALANCE_MAX_BYTES = 16 * 1024 * 1024;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface PruneLimits {
  keepDays: number;
  maxBytes: number;
}

const lineOf = (r: BalanceReadingRecord): string => `${JSON.stringify({ at: r.at, account: r.account, credits: r.credits })}\n`;
const bytesOf = (readings: BalanceReadingRecord[]): number => readings.reduce((n, r) => n + Buffer.byteLength(lineOf(r)), 0);

/** The readings the rule keeps, oldest first (`readings` sorted by time). Pure: the file is written by the caller. */
export function pruneReadings(readings: BalanceReadingRecord[], now: Date, limits: PruneLimits): BalanceReadingRecord[] {
  const cutoff = now.getTime() - limits.keepDays * DAY_MS;
  const lastBefore = new Map<string, BalanceReadingRecord>();
  const recent: BalanceReadingRecord[] = [];
  for (const r of readings) {
    if (Date.parse(r.at) < cutoff) lastBefore.set(r.account, r);
    else recent.push(r);
  }
  let kept = [...lastBefore.values(), ...recent].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  if (bytesOf(kept) <= limits.maxBytes) return kept;
  const thinFrom = now.getTime() - DAY_MS;
  const lastOfHour = new Map<string, number>(); // account + hour → index of the last reading of that hour
  kept.forEach((r, i) => {
    const t = Date.parse(r.at);
    if (t < thinFrom) lastOfHour.set(`${r.account}\n${Math.floor(t / HOUR_MS)}`, i);
  });
  const hourLast = new Set(lastOfHour.values());
  kept = kept.filter((r, i) => Date.parse(r.at) >= thinFrom || hourLast.has(i));
  let size = bytesOf(kept);
  let drop = 0;
  while (size > limits.maxBytes && drop < kept.length) size -= Buffer.byteLength(lineOf(kept[drop++]!));
  return kept.slice(drop);
}

/** Whether the file may need pruning: over the cap, or its first (oldest appended) line older than the days kept. */
export function needsPrune(path: string, now: Date, limits: PruneLimits): boolean {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return false;
  }
  if (size > limits.maxBytes) return true;
  if (size === 0) return false;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(256);
    const n = readSync(fd, head, 0, head.length, 0);
    const at = /"at":"([^"]+)"/.exec(head.subarray(0, n).toString('utf8'))?.[1];
    return at !== undefined && Date.parse(at) < now.getTime() - limits.keepDays * DAY_MS;
  } finally {
    closeSync(fd);
  }
}

/**
 * Rewrites the file with the readings the rule keeps, atomically (a temp file, flushed, renamed over it): a crash
 * leaves the old file or the new one, never half of either. `parse` reads the file's text as `list` does.
 */
export function pruneReadingsFile(path: string, now: Date, limits: PruneLimits,
  parse: (text: string) => BalanceReadingRecord[]): { before: number; after: number } {
  const readings = parse(readFileSync(path, 'utf8'));
  const kept = pruneReadings(readings, now, limits);
  writeFileAtomic(path, kept.map(lineOf).join(''), { mode: OWNER_ONLY_FILE_MODE });
  return { before: readings.length, after: kept.length };
}
