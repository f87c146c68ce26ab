import type { Logger } from '../../log';

/** What every normalizer needs: the call it is reading (for messages), where to warn, and the base for relative URLs. */
export interface NormalizeContext {
  endpoint: string;
  log: Logger;
  baseUrl: string;
}
