import type { ChainLinkStore } from '../journal/chain-links';
import type { ServiceClient } from '../service/types';

// A chain step's photo is the previous step's result (issue 32 #3). The service downloads URLs itself, so the result
// is sent as its URL — the upload is saved — for as long as the service still has it. The URL is asked of the
// execution each time (a service may sign URLs for a while and hand out fresh ones), then fetched far enough to see
// it answer: a result the service dropped (410 Gone, an unknown execution) is sent from the saved file instead,
// uploaded like any photo. Any doubt means the upload: it costs bandwidth, never credits.

/** How long the liveness check may take before the saved file is uploaded instead. */
const PROBE_TIMEOUT_MS = 15_000;

/** The URL the service has the result of `path` under now, or null when the file must be uploaded. */
export async function liveChainResultUrl(links: Pick<ChainLinkStore, 'chainLinkOf'>, client: Pick<ServiceClient, 'getExecution' | 'downloadResult'>,
  path: string): Promise<string | null> {
  const link = links.chainLinkOf(path);
  if (!link) return null;
  try {
    const execution = await client.getExecution(link.executionId, { timeoutMs: PROBE_TIMEOUT_MS });
    const url = execution.status === 'completed' ? execution.resultUrls[link.resultIndex] : undefined;
    if (!url) return null;
    const response = await client.downloadResult(url, { timeoutMs: PROBE_TIMEOUT_MS });
    // Its headers are the answer: the body is not read (the service will download it itself).
    await response.body?.cancel().catch(() => undefined);
    return url;
  } catch {
    return null;
  }
}
