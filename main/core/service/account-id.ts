import { createHash } from 'node:crypto';
import type { ServiceClient } from './types';

/**
 * Names one account of one service without keeping its key: a hash of the service URL and the key. Claims
 * (journal/claims.ts) carry it, so an execution paid from one account is never followed with another key (its
 * status would not be ours to read) and switching keys never hides a photo that the other account paid for.
 */
export function accountIdFor(baseUrl: string, apiKey: string | null | undefined): string {
  return createHash('sha256').update(`batchroom-account\n${baseUrl}\n${apiKey ?? ''}`).digest('hex').slice(0, 32);
}

/** The account a client pays from (its service URL when the client does not say). */
export const accountIdOf = (client: Pick<ServiceClient, 'accountId' | 'baseUrl'>): string => client.accountId ?? accountIdFor(client.baseUrl, null);
