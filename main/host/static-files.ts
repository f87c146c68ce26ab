import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { contentTypeFor } from '../core/media/content-types';

/** Streams a regular file with the given headers; resolves false when it is missing or not a file. */
export async function sendFile(response: ServerResponse, path: string, headers: Record<string, string>, method = 'GET'): Promise<boolean> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    size = info.size;
  } catch {
    return false;
  }
  response.writeHead(200, { 'Content-Type': contentTypeFor(path), 'Content-Length': String(size), ...headers });
  if (method === 'HEAD') {
    response.end();
    return true;
  }
  await new Promise<void>((done) => {
    const stream = createReadStream(path);
    stream.on('error', () => {
      response.destroy();
      done();
    });
    stream.on('end', done);
    stream.pipe(response);
  });
  return true;
}

export function notBuiltPage(rendererDir: string): string {
  return `<!doctype html><meta charset="utf-8"><title>Batchroom</title>
<body style="font-family: system-ui; max-width: 40rem; margin: 4rem auto">
<h1>The Batchroom interface is not built</h1>
<p>No <code>index.html</code> in <code>${escapeHtml(rendererDir)}</code>.</p>
<p>Build it with <code>npx vite build</code> in the Batchroom folder, then reload this page.</p>
</body>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
