import { createReadStream, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { contentTypeFor } from '../../main/core/media/content-types';

// A plain static file server on 127.0.0.1 for pages built into a temp folder and opened in Chromium (the Queue's
// bench page: the e2e scale tests and bench/ui-queue.ts, bench/_scale-ui-browser.ts). Test and bench use only.

export interface StaticServer {
  port: number;
  close(): Promise<void>;
}

/** The file under `root` a URL path names, or null when the path leads outside it. */
export function fileUnder(root: string, pathname: string): string | null {
  const path = normalize(join(root, pathname));
  return path.startsWith(root) ? path : null;
}

/** Serves what `fileFor` maps a request's (decoded) URL path to; a missing file or null is a 404. */
export async function serveStatic(fileFor: (pathname: string) => string | null): Promise<StaticServer> {
  const server = createServer((req, res) => {
    const path = fileFor(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!path || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': contentTypeFor(path) });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((done) => server.close(() => done())) };
}
