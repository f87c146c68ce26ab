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

/** The item at `index` of the list, if its page is loaded. */
export function itemAt(list: ItemList | undefined, index: number): ItemView | undefined {
  return list?.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
}

/** Adds a page and drops the pages farthest from it beyond MAX_PAGES. */
export function withPage(pages: Record<number, ItemView[]>, page: number, items: ItemView[]): Record<number, ItemView[]> {
  const next = { ...pages, [page]: items };
  const numbers = Object.keys(next).map(Number);
  if (numbers.length <= MAX_PAGES) return next;
  numbers.sort((a, b) => Math.abs(a - page) - Math.abs(b - page));
  for (const far of numbers.slice(MAX_PAGES)) delete next[far];
  return next;
}

/** id → index per page array, made once per array (a page is replaced, never changed, so it stays right). */
const indexes = new WeakMap<ItemView[], Map<string, number>>();
function indexOf(page: ItemView[]): Map<string, number> {
  let index = indexes.get(page);
  if (!index) {
    index = new Map(page.map((item, i) => [item.id, i]));
    indexes.set(page, index);
  }
  return index;
}

/**
 * A list with the changed items patched in, O(changed × loaded pages): only the pages that hold one are copied, so
 * rows whose item did not change keep the same object and do not render again. An item that left the filter stays
 * in place with its new state until the pages are read again (stale); one that joined it and is not loaded, too.
 */
export function patchList(list: ItemList, changed: readonly ItemView[]): ItemList {
  let pages: Record<number, ItemView[]> | null = null;
  let stale = list.stale;
  for (const item of changed) {
    const matches = matchesItemFilter(item.state, list.filter);
    let found = false;
    for (const key of Object.keys(list.pages)) {
      const number = Number(key);
      const original = list.pages[number]!;
      const at = indexOf(original).get(item.id);
      if (at === undefined) continue;
      found = true;
      pages ??= { ...list.pages };
      let page = pages[number]!;
      if (page === original) {
        page = original.slice();
        indexes.set(page, indexOf(original));
        pages[number] = page;
      }
      page[at] = item;
      if (!matches) stale = true;
      break;
    }
    if (!found && matches && list.filter !== 'all') stale = true;
  }
  return pages || stale !== list.stale ? { ...list, pages: pages ?? list.pages, stale } : list;
}
