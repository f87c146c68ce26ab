import { matchesItemFilter, type ItemFilter } from '../../shared/ipc/channels/item-window';
import type { ItemView } from '../../shared/engine/model';

// The Queue's and Review's lists of a batch's items, a window at a time (issue 34: a 100k-item batch is never held
// by the renderer). A list is one batch under one filter; it holds the pages main sent (batches:itemWindow), at most
// MAX_PAGES of them, the ones nearest where the user looks.

/** Rows per request: a few screens of the queue table. */
export const PAGE_SIZE = 200;
/** Pages kept per list (1,600 rows): the visible ones and their neighbours; farther ones are dropped. */
export const MAX_PAGES = 8;

export interface ItemList {
  batchId: string;
  filter: ItemFilter;
  /** Items that match the filter, as main last said (kept up to date from the batch's counts between reads). */
  total: number;
  /** Page number → its items in queue order. */
  pages: Record<number, ItemView[]>;
  /** Main answered at least once. */
  loaded: boolean;
  /** A progress event moved an item into or out of the filter: the loaded pages are read again (throttled). */
  stale: boolean;
}

export const listKey = (batchId: string, filter: ItemFilter): string => `${batchId}|${filter}`;

export const emptyList = (batchId: string, filter: ItemFilter): ItemList => ({ batchId, filter, total: 0, pages: {}, loaded: false, stale: false });

/**
 * Rows beyond the window whose page is asked for ahead: a list scrolled into the next page finds it loaded, so its
 * rows render once with their photos instead of as placeholders and then again when the page lands (a frame each).
 */
export const PAGE_LEAD = PAGE_SIZE / 4;

/**
 * The pages a window of rows [first, last] needs: those under it first (asked before the rest), then the one before or
 * after it when the window is within PAGE_LEAD rows of it.
 */
export function pagesForWindow(first: number, last: number, count: number): number[] {
  if (count === 0 || last < first) return [];
  const onScreen = { from: Math.floor(first / PAGE_SIZE), to: Math.floor(Math.min(count - 1, last) / PAGE_SIZE) };
  const pages: number[] = [];
  for (let page = onScreen.from; page <= onScreen.to; page++) pages.push(page);
  const before = Math.floor(Math.max(0, first - PAGE_LEAD) / PAGE_SIZE);
  const after = Math.floor(Math.min(count - 1, last + PAGE_LEAD) / PAGE_SIZE);
  if (before < onScreen.from) pages.push(before);
  if (after > onScreen.to) pages.push(after);
  return pages;
}

/** The item at `index` of the list, if its page is loaded. */
export function itemAt(list: ItemList | undefined, index: number): ItemView | undefined {
  return list?.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
}

/**
 * Adds a page and drops the pages farthest from it beyond MAX_PAGES — never `keep` (Review's saved list: the page
 * holding the photo on screen, which its strip may have scrolled far away from).
 */
export function withPage(pages: Record<number, ItemView[]>, page: number, items: ItemView[], keep?: number): Record<number, ItemView[]> {
  const next = { ...pages, [page]: items };
  const numbers = Object.keys(next).map(Number);
  if (numbers.length <= MAX_PAGES) return next;
  const distance = (n: number) => (n === keep ? -1 : Math.abs(n - page));
  numbers.sort((a, b) => distance(a) - distance(b));
  for (const far of numbers.slice(MAX_PAGES)) delete next[far];
  return next;
}

/**
 * id → index in the list, per pages object, made once from its pages (≤ MAX_PAGES × PAGE_SIZE ids). A patch copies
 * the pages object but never moves an item, so the patched object shares its parent's locator; a new page (withPage)
 * makes a new pages object, whose locator is built again the first time a patch needs it.
 */
const locators = new WeakMap<Record<number, ItemView[]>, Map<string, number>>();
function locatorOf(pages: Record<number, ItemView[]>): Map<string, number> {
  let locator = locators.get(pages);
  if (!locator) {
    locator = new Map();
    for (const [key, page] of Object.entries(pages)) {
      const base = Number(key) * PAGE_SIZE;
      page.forEach((item, at) => locator!.set(item.id, base + at));
    }
    locators.set(pages, locator);
  }
  return locator;
}

/**
 * A list with the changed items patched in, O(changed): one lookup each, and only the pages that hold one are
 * copied, so rows whose item did not change keep the same object and do not render again. An item that left the
 * filter stays in place with its new state until the pages are read again (stale); one that joined it and is not
 * loaded, too.
 */
export function patchList(list: ItemList, changed: readonly ItemView[]): ItemList {
  const locator = locatorOf(list.pages);
  let pages: Record<number, ItemView[]> | null = null;
  const copied = new Set<number>();
  let stale = list.stale;
  for (const item of changed) {
    const matches = matchesItemFilter(item.state, list.filter);
    const index = locator.get(item.id);
    if (index === undefined) {
      if (matches && list.filter !== 'all') stale = true;
      continue;
    }
    if (!pages) {
      pages = { ...list.pages };
      locators.set(pages, locator);
    }
    const number = Math.floor(index / PAGE_SIZE);
    if (!copied.has(number)) {
      pages[number] = pages[number]!.slice();
      copied.add(number);
    }
    pages[number]![index % PAGE_SIZE] = item;
    if (!matches) stale = true;
  }
  return pages || stale !== list.stale ? { ...list, pages: pages ?? list.pages, stale } : list;
}
