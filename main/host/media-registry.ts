import { basename } from 'node:path';
import { createMediaRegistry, type MediaRegistry } from '../core/media/registry';

export type { MediaRegistry };
export const MEDIA_PREFIX = '/media/';

/**
 * The browser host's media route serves ONLY files registered here (`/media/<token>/<name>`). The trailing file name
 * is cosmetic (it gives downloads and devtools a readable name) and is ignored when serving.
 */
export function createHostMediaRegistry(newToken?: () => string): MediaRegistry {
  return createMediaRegistry({
    formatUrl: (token, absolute) => `${MEDIA_PREFIX}${token}/${encodeURIComponent(basename(absolute))}`,
    ...(newToken ? { newToken } : {}),
  });
}
