import type { WorkflowCatalog, WorkflowSummary } from '../../../shared/service/model';
import { readPage } from './normalize/pagination';

/** Enough for any real catalog; a service that keeps linking pages past this is looping. */
export const MAX_CATALOG_PAGES = 50;

export interface PagedListDeps {
  /** GET one page (absolute URL) and return its parsed body. */
  fetchPage(url: string): Promise<unknown>;
  /** The workflows on one page and the number of raw list entries (malformed ones included, for offsets). */
  parse(body: unknown): { workflows: WorkflowSummary[]; entries: number };
  origin: string;
  maxPages?: number;
}

/**
 * Follows every pagination style `readPage` knows until the service says there is no more. When the listing has to
 * stop while the service says more exist, the catalog carries a warning instead of passing for complete.
 */
export async function collectCatalog(firstUrl: string, deps: PagedListDeps): Promise<WorkflowCatalog> {
  const maxPages = deps.maxPages ?? MAX_CATALOG_PAGES;
  const byId = new Map<string, WorkflowSummary>();
  const asked = new Set([firstUrl]);
  let url = firstUrl;
  let stoppedBecause: string | undefined;
  let total: number | undefined;
  for (let pages = 1; ; pages++) {
    const body = await deps.fetchPage(url);
    const { workflows, entries } = deps.parse(body);
    const before = byId.size;
    for (const workflow of workflows) if (!byId.has(workflow.id)) byId.set(workflow.id, workflow);
    const page = readPage(body, url, entries, deps.origin);
    total = page.total ?? total;
    if (!page.more) break;
    if (page.blocked) stoppedBecause = page.blocked;
    else if (!page.next) stoppedBecause = 'the service did not say how to ask for the next page';
    else if (asked.has(page.next)) stoppedBecause = 'the service pointed back at a page it had already sent';
    else if (pages > 1 && byId.size === before) stoppedBecause = 'a page brought no workflow that was not already listed';
    else if (pages >= maxPages) stoppedBecause = `the listing stopped after ${maxPages} pages`;
    if (stoppedBecause || !page.next) break;
    asked.add(page.next);
    url = page.next;
  }
  const workflows = [...byId.values()];
  if (!stoppedBecause && total !== undefined && workflows.length < total) {
    stoppedBecause = `the service counts ${total} workflows`;
  }
  if (!stoppedBecause) return { workflows };
  return { workflows, warning: `The catalog may be incomplete: ${workflows.length} workflow${workflows.length === 1 ? '' : 's'} listed, but the service says more exist (${stoppedBecause}).` };
}
