import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testClient } from './fixtures';
import { json, startStub, type StubHandler } from './stub-server';

// One catalog of 7 workflows served 3 at a time in each pagination style a service may use. Every style must list
// all 7, keep the query (the tag filter) on every page, and not warn; a listing that has to stop early must warn.

type Stub = Awaited<ReturnType<typeof startStub>>;
let stub: Stub;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => {
  await stub.close();
});

const ALL = Array.from({ length: 7 }, (_, i) => ({ id: `wf-${i + 1}`, name: `Workflow ${i + 1}`, cost: 1 }));
const SIZE = 3;
const PAGES = Math.ceil(ALL.length / SIZE);

/** A handler answering from the request's query: `(query, origin) => body`. */
const serve = (answer: (q: URLSearchParams) => unknown): StubHandler => (req, res) => json(res, 200, answer(new URL(req.url, 'http://x').searchParams));
const num = (q: URLSearchParams, name: string, fallback: number) => Number(q.get(name) ?? fallback);
const slice = (from: number) => ALL.slice(from, from + SIZE);
const pageOf = (page: number) => slice((page - 1) * SIZE);
const cursorOf = (from: number) => (from < ALL.length ? Buffer.from(`at:${from}`).toString('base64url') : null);
const fromCursor = (c: string | null) => (c ? Number(Buffer.from(c, 'base64url').toString().slice(3)) : 0);

const STYLES: Array<[style: string, handler: StubHandler]> = [
  ['link `next` (relative)', serve((q) => {
    const page = num(q, 'page', 1);
    return { items: pageOf(page), next: page < PAGES ? `/api/v1/workflows?tag=t&page=${page + 1}` : null };
  })],
  ['`links.next.href` (absolute) in a data envelope', (req, res) => {
    const page = num(new URL(req.url, 'http://x').searchParams, 'page', 1);
    json(res, 200, { data: { workflows: pageOf(page) }, links: { next: page < PAGES ? { href: `${stub.origin}/api/v1/workflows?tag=t&page=${page + 1}` } : null } });
  }],
  ['`page` / `totalPages`', serve((q) => ({ workflows: pageOf(num(q, 'page', 1)), page: num(q, 'page', 1), totalPages: PAGES }))],
  ['`meta.current_page` / `meta.last_page`', serve((q) => ({ data: pageOf(num(q, 'page', 1)), meta: { current_page: num(q, 'page', 1), last_page: PAGES } }))],
  ['`hasMore` with `page`', serve((q) => ({ items: pageOf(num(q, 'page', 1)), page: num(q, 'page', 1), hasMore: num(q, 'page', 1) < PAGES }))],
  ['`has_more` alone (the page number is asked for)', serve((q) => ({ items: pageOf(num(q, 'page', 1)), has_more: num(q, 'page', 1) < PAGES }))],
  ['`nextPage` as a number', serve((q) => ({ items: pageOf(num(q, 'page', 1)), nextPage: num(q, 'page', 1) < PAGES ? num(q, 'page', 1) + 1 : null }))],
  ['`offset` / `limit` / `total`', serve((q) => ({ items: slice(num(q, 'offset', 0)), offset: num(q, 'offset', 0), limit: SIZE, total: ALL.length }))],
  ['`cursor` / `nextCursor`', serve((q) => {
    const from = fromCursor(q.get('cursor'));
    return { items: slice(from), cursor: q.get('cursor'), nextCursor: cursorOf(from + SIZE) };
  })],
  ['`next_cursor` + `has_more`', serve((q) => {
    const from = fromCursor(q.get('cursor'));
    return { data: slice(from), has_more: from + SIZE < ALL.length, next_cursor: cursorOf(from + SIZE) };
  })],
  ['`pageInfo.hasNextPage` / `endCursor`', serve((q) => {
    const from = fromCursor(q.get('after'));
    return { workflows: slice(from), pageInfo: { hasNextPage: from + SIZE < ALL.length, endCursor: cursorOf(from + SIZE) } };
  })],
];

describe('catalog pagination', () => {
  it.each(STYLES)('follows %s to the end, keeping the tag filter, without a warning', async (_style, handler) => {
    stub.reply(handler);
    const catalog = await testClient(stub.origin).listWorkflows({ tag: 't' });
    expect(catalog.workflows.map((w) => w.id)).toEqual(ALL.map((w) => w.id));
    expect(catalog.warning).toBeUndefined();
    expect(stub.requests).toHaveLength(PAGES);
    for (const request of stub.requests) expect(new URL(request.url, 'http://x').searchParams.get('tag')).toBe('t');
  });

  const CUT_SHORT: Array<[what: string, handler: () => StubHandler, listed: number, reason: RegExp]> = [
    ['a service that ignores the page number while saying hasMore', () => serve(() => ({ items: pageOf(1), hasMore: true })), 3, /no workflow that was not already listed/],
    ['a repeated nextCursor', () => serve((q) => ({ items: slice(fromCursor(q.get('cursor'))), nextCursor: cursorOf(0) })), 3, /already sent/],
    ['a next link pointing back at a page already sent', () => serve((q) => ({ items: pageOf(num(q, 'page', 1)), next: '/api/v1/workflows?page=2' })), 6, /already sent/],
    ['a next link on another host', () => serve(() => ({ items: pageOf(1), next: 'https://elsewhere.example.com/api/v1/workflows?page=2' })), 3, /another host \(elsewhere\.example\.com\)/],
    ['hasMore with page = totalPages', () => serve(() => ({ items: pageOf(1), page: 1, totalPages: 1, hasMore: true })), 3, /did not say how/],
    ['a total larger than what the pages held', () => serve(() => ({ items: pageOf(1), total: 12 })), 3, /counts 12 workflows/],
    ['more pages than the page limit', () => serve((q) => {
      const page = num(q, 'page', 1);
      return { items: [{ id: `p${page}`, name: `P${page}`, cost: 1 }], page, totalPages: 80 };
    }), 50, /after 50 pages/],
  ];

  it.each(CUT_SHORT)('warns instead of passing a partial catalog for complete: %s', async (_what, handler, listed, reason) => {
    stub.reply(handler());
    const catalog = await testClient(stub.origin).listWorkflows();
    expect(catalog.workflows).toHaveLength(listed);
    expect(catalog.warning).toMatch(/^The catalog may be incomplete: \d+ workflows? listed, but the service says more exist/);
    expect(catalog.warning).toMatch(reason);
    expect(stub.requests.every((r) => r.url.startsWith('/api/v1/workflows'))).toBe(true);
  });

  it('stops without a warning when the service says there is no more', async () => {
    stub.reply(serve(() => ({ items: pageOf(1), hasMore: false, next: '/api/v1/workflows?page=2', total: 3 })));
    const catalog = await testClient(stub.origin).listWorkflows();
    expect(catalog).toEqual({ workflows: pageOf(1).map((w) => expect.objectContaining({ id: w.id })) });
    expect(stub.requests).toHaveLength(1);
  });
});
