import type { DoneInput, FollowingInput } from './model';

// One wording for photos the done ledger knows, used by the CLI, the app's cost summary and the items' reasons.

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-23` (local date) of an ISO time; the text itself when it is not one. */
export function doneDay(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

const folderOf = (path: string) => path.replace(/[\\/][^\\/]*$/, '') || path;

function when(entries: readonly DoneInput[]): string {
  const days = [...new Set(entries.map((e) => doneDay(e.doneAt)))].sort();
  return days.length === 1 ? `on ${days[0]}` : `between ${days[0]} and ${days[days.length - 1]}`;
}

function where(entries: readonly DoneInput[]): string {
  const folders = [...new Set(entries.flatMap((e) => e.outputs.map(folderOf)))];
  if (folders.length === 0) return '';
  const others = folders.length - 1;
  return ` — results in ${folders[0]}${others > 0 ? ` and ${others} other ${others === 1 ? 'folder' : 'folders'}` : ''}`;
}

/** "13 already done on 2026-11-23 — results in /photos/out" (without a count for one item's own reason). */
export function describeAlreadyDone(entries: readonly DoneInput[], options: { count?: boolean } = {}): string {
  if (entries.length === 0) return '';
  const head = options.count === false ? 'already done' : `${entries.length} already done`;
  return `${head} ${when(entries)}${where(entries)}`;
}

/** "2 done on 2026-11-20, but their results are gone: offered again". */
export function describeResultsGone(entries: readonly DoneInput[]): string {
  if (entries.length === 0) return '';
  const their = entries.length === 1 ? 'its result is' : 'their results are';
  return `${entries.length} done ${when(entries)}, but ${their} gone: offered again`;
}

/**
 * "3 already running in another batch: paid once, 0 credits" — photos this batch takes from a batch that is already
 * sending (or has paid for) them (FollowingInput).
 */
export function describeFollowing(entries: readonly FollowingInput[]): string {
  if (entries.length === 0) return '';
  const paid = entries.filter((e) => e.paid).length;
  const what = paid === entries.length ? 'already paid for' : 'already running';
  return `${entries.length} ${what} in another batch: paid once, 0 credits (their results are saved here too)`;
}
