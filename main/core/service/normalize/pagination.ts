import { isRecord, pickValue, toText } from './wire';

const NEXT_KEYS = ['next', 'nextPage', 'nextPageUrl', 'nextUrl', 'nextLink'];
const CONTAINER_KEYS = ['links', '_links', 'pagination', 'paging', 'meta', 'page'];

function linkOf(value: unknown): string | undefined {
  if (isRecord(value)) return toText(pickValue(value, ['href', 'url', 'uri']));
  return typeof value === 'string' ? toText(value) : undefined;
}

/**
 * The absolute URL of the next page of a list answer, when the answer links one (`next`, `links.next`,
 * `_links.next.href`, `pagination.next`, also inside a `{data: …}` envelope). Only links on the service's own origin
 * count: following a link elsewhere would send the key there. Numbers and opaque cursors are not followed (the
 * query parameter they belong to is unknown).
 */
export function nextPageUrl(body: unknown, baseUrl: string, origin: string): string | undefined {
  const records = [body, ...(isRecord(body) ? [pickValue(body, ['data', 'result'])] : [])].filter(isRecord);
  for (const record of records) {
    const candidates = [pickValue(record, NEXT_KEYS), ...CONTAINER_KEYS.map((k) => pickValue(record, [k])).filter(isRecord).map((c) => pickValue(c, NEXT_KEYS))];
    for (const candidate of candidates) {
      const link = linkOf(candidate);
      if (!link || /^\d+$/.test(link)) continue;
      if (!link.includes('/') && !link.includes('?')) continue; // an opaque cursor
      try {
        const url = new URL(link, `${baseUrl}/`);
        if (url.origin === origin) return url.toString();
      } catch {
        // not a URL: ignore
      }
    }
  }
  return undefined;
}
