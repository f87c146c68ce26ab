import { isRecord, pickValue, toBool, toNumber, toText, type WireRecord } from './wire';

// Services paginate lists in many ways. Every style below is read from the answer itself (top level, inside a
// `{data: …}` envelope, or inside a links/pagination/meta/page/pageInfo container); key spelling does not matter
// (`has_more` = `hasMore`).

const LINK_KEYS = ['next', 'nextPage', 'nextPageUrl', 'nextUrl', 'nextLink', 'nextHref'];
/** Opaque cursors and the query parameter each one goes back in. */
const CURSOR_KEYS: ReadonlyArray<readonly [key: string, param: string]> = [
  ['nextCursor', 'cursor'], ['nextPageToken', 'pageToken'], ['continuationToken', 'continuationToken'], ['endCursor', 'after'], ['cursor', 'cursor'],
];
const MORE_KEYS = ['hasMore', 'hasNextPage', 'hasNext', 'moreAvailable', 'more'];
const PAGE_KEYS = ['page', 'currentPage', 'pageNumber', 'pageIndex'];
const TOTAL_PAGES_KEYS = ['totalPages', 'pageCount', 'lastPage', 'numPages', 'pages'];
const OFFSET_KEYS = ['offset', 'skip', 'start'];
const LIMIT_KEYS = ['limit', 'pageSize', 'perPage'];
const TOTAL_KEYS = ['total', 'totalCount', 'totalItems', 'totalResults', 'totalSize'];
const CONTAINER_KEYS = ['links', '_links', 'pagination', 'paging', 'meta', 'page', 'pageInfo', 'cursor', 'cursors'];

/** What one page of a list answer says about the rest of the list. */
export interface PageInfo {
  /** The absolute URL of the next page, when the answer says how to ask for it. */
  next?: string;
  /** The answer says more entries exist (a next link or cursor, hasMore, page < totalPages, offset + n < total). */
  more: boolean;
  /** Why the next page cannot be asked for although more exist (e.g. it is linked on another host). */
  blocked?: string;
  /** The number of entries of the whole list, when the answer says. */
  total?: number;
}

function recordsOf(body: unknown): WireRecord[] {
  const top = [body, ...(isRecord(body) ? [pickValue(body, ['data', 'result'])] : [])].filter(isRecord);
  return [...top, ...top.flatMap((r) => CONTAINER_KEYS.map((k) => pickValue(r, [k])).filter(isRecord))];
}

function first<T>(records: WireRecord[], keys: readonly string[], convert: (value: unknown) => T | undefined): T | undefined {
  for (const record of records) {
    for (const key of keys) {
      const value = convert(pickValue(record, [key]));
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

function linkOf(value: unknown): string | undefined {
  if (isRecord(value)) return toText(pickValue(value, ['href', 'url', 'uri']));
  return toText(value);
}

function withParams(requestUrl: string, params: Record<string, string | number | undefined>): string {
  const url = new URL(requestUrl);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.toString();
}

/**
 * Reads how to ask for the page after this one. `requestUrl` is the absolute URL this answer came from (its query —
 * the tag filter, the current cursor — is kept), `entries` the number of list entries in it. A link counts only on
 * the service's own origin: following one elsewhere would send the key there.
 */
export function readPage(body: unknown, requestUrl: string, entries: number, origin: string): PageInfo {
  const records = recordsOf(body);
  const total = first(records, TOTAL_KEYS, toNumber);
  const hasMore = first(records, MORE_KEYS, (v) => (typeof v === 'object' ? undefined : toBool(v)));
  if (hasMore === false) return { more: false, total };
  const current = new URL(requestUrl);

  const link = first(records, LINK_KEYS, linkOf);
  if (link !== undefined && /^\d+$/.test(link)) return { more: true, next: withParams(requestUrl, { page: link }), total };
  if (link !== undefined && (link.includes('/') || link.includes('?'))) {
    try {
      const url = new URL(link, requestUrl);
      if (url.origin === origin) return { more: true, next: url.toString(), total };
      return { more: true, blocked: `the next page is linked on another host (${url.host})`, total };
    } catch {
      // not a URL: read as a cursor below
    }
  }
  if (link !== undefined) return { more: true, next: withParams(requestUrl, { cursor: link }), total };

  for (const [key, param] of CURSOR_KEYS) {
    const cursor = first(records, [key], (v) => (typeof v === 'string' ? toText(v) : undefined));
    if (cursor === undefined) continue;
    // A plain `cursor` equal to the one sent is an echo of the request, not a next page. A `nextCursor` equal to it
    // is a service going round in circles: the same URL comes back and the caller's loop guard reports it.
    if (key === 'cursor' && cursor === current.searchParams.get(param)) continue;
    return { more: true, next: withParams(requestUrl, { [param]: cursor }), total };
  }

  const page = first(records, PAGE_KEYS, toNumber);
  const totalPages = first(records, TOTAL_PAGES_KEYS, toNumber);
  if (page !== undefined && totalPages !== undefined) {
    return page < totalPages ? { more: true, next: withParams(requestUrl, { page: page + 1 }), total } : { more: hasMore === true, total };
  }

  const offset = first(records, OFFSET_KEYS, toNumber);
  const limit = first(records, LIMIT_KEYS, toNumber);
  if (offset !== undefined && (total !== undefined || hasMore === true)) {
    const nextOffset = offset + entries;
    const more = hasMore === true || (total !== undefined && nextOffset < total);
    return more ? { more, next: withParams(requestUrl, { offset: nextOffset, limit }), total } : { more, total };
  }

  if (hasMore === true) {
    // More exist and nothing else says how to ask: the page number is the only convention left to try. A service
    // that ignores it answers the same page again, which the caller's loop guard reports.
    const asked = page ?? toNumber(current.searchParams.get('page')) ?? 1;
    return { more: true, next: withParams(requestUrl, { page: asked + 1 }), total };
  }
  return { more: false, total };
}
