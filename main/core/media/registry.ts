import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * Previews and results reach a renderer only through tokens: the core registers a path it vouches for (an input the
 * user chose, a result it saved) and hands out a URL carrying a random token, never the path. Whatever a request
 * names, it can only select one of these entries — there is no traversal to defend. Each host (the Electron media
 * protocol, the browser host's media route) formats the URL its own way.
 */
export interface MediaRegistry {
  /** Registers a file and returns its URL. Same file, same URL. */
  urlFor(path: string): string;
  /** The registered file behind a token, or undefined. */
  pathFor(token: string): string | undefined;
  readonly size: number;
}

export interface MediaRegistryOptions {
  formatUrl: (token: string, absolutePath: string) => string;
  newToken?: () => string;
}

export function createMediaRegistry({ formatUrl, newToken = () => randomBytes(16).toString('hex') }: MediaRegistryOptions): MediaRegistry {
  const tokenByPath = new Map<string, string>();
  const pathByToken = new Map<string, string>();
  return {
    urlFor(path) {
      const absolute = resolve(path);
      let token = tokenByPath.get(absolute);
      if (!token) {
        token = newToken();
        tokenByPath.set(absolute, token);
        pathByToken.set(token, absolute);
      }
      return formatUrl(token, absolute);
    },
    pathFor: (token) => pathByToken.get(token),
    get size() {
      return pathByToken.size;
    },
  };
}
