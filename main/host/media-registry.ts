import { randomBytes } from 'node:crypto';
import { basename, resolve } from 'node:path';

export const MEDIA_PREFIX = '/media/';

export interface MediaRegistry {
  /** Registers a file the core vouches for and returns its URL path (`/media/<id>/<name>`). Same file, same URL. */
  urlFor(path: string): string;
  /** The registered file behind an id, or undefined: ids are random, so a URL cannot name any other file. */
  pathFor(id: string): string | undefined;
  readonly size: number;
}

/**
 * The browser host's media route serves ONLY files registered here. The URL carries a random id, never the path:
 * whatever a request puts after `/media/`, it can only ever select one of these entries — no traversal to defend.
 * The trailing file name is cosmetic (it gives downloads and devtools a readable name) and is ignored.
 */
export function createMediaRegistry(): MediaRegistry {
  const idByPath = new Map<string, string>();
  const pathById = new Map<string, string>();
  return {
    urlFor(path) {
      const absolute = resolve(path);
      let id = idByPath.get(absolute);
      if (!id) {
        id = randomBytes(12).toString('hex');
        idByPath.set(absolute, id);
        pathById.set(id, absolute);
      }
      return `${MEDIA_PREFIX}${id}/${encodeURIComponent(basename(absolute))}`;
    },
    pathFor: (id) => pathById.get(id),
    get size() {
      return pathById.size;
    },
  };
}
