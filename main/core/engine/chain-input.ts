import type { ChainLinkStore } from '../journal/chain-links';
import type { ServiceClient } from '../service/types';

// A chain step's photo is the previous step's result (issue 32 #3). The service downloads URLs itself, so the result
// is sent as its URL — the upload is saved — for as long as the service still has it and the saved file is still
// that result. The URL is asked of the execution each time (a service may sign URLs for a while and hand out fresh
// ones), then fetched as the service will fetch it — without our key — far enough to see it answer. A result the
// service dropped (410 Gone, an unknown execution), a URL that needs the key, or a saved file changed since it was
// placed: the file as it is now is uploaded instead, like any photo. Any doubt means the upload: it costs
// bandwidth, never credits.

/** How long the liveness check may take before the saved file is uploaded instead. */
const PROBE_TIMEOUT_MS = 15_000;

/** Fetches a URL as the service would (no Authorization, no cookies) far enough to see whether it answers. */
export type UrlProbe = (url: string) => Promise<boolean>;

export const probeAsService: UrlProbe = async (url) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'follow', headers: { accept: 'image/*' } });
  // Its headers are the answer: the body is not read (the service will download it itself).
  await response.body?.cancel().catch(() => undefined);
  return response.ok;
};

/**
 * The URL the service has the result saved at `path` under now, or null when the file must be uploaded.
 * `contentHash` is the file's hash as the planner read it (what this step is keyed and paid on).
 */
export async function liveChainResultUrl(links: Pick<ChainLinkStore, 'chainLinkOf'>, client: Pick<ServiceClient, 'getExecution'>,
  path: string, contentHash: string | null, probe: UrlProbe = probeAsService): Promise<string | null> {
  const link = links.chainLinkOf(path);
  if (!link || link.contentHash === null || link.contentHash !== contentHash) return null;
  try {
    const execution = await client.getExecution(link.executionId, { timeoutMs: PROBE_TIMEOUT_MS });
    const url = execution.status === 'completed' ? execution.resultUrls[link.resultIndex] : undefined;
    if (!url || !/^https?:\/\//i.test(url)) return null;
    return (await probe(url)) ? url : null;
  } catch {
    return null;
  }
}
