import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { ZipFile } from 'yazl';
import type { Handlers } from '../../shared/ipc/contract';
import type { ItemView } from '../../shared/engine/model';
import { contentTypeFor } from '../core/media/content-types';

// A browser cannot open the output folder, so the browser host hands results out over HTTP: one result as it is on
// disk (never the screen rendition a TIFF or HEIC is shown as), or a batch's results as one zip, streamed as it is
// written — a 2,000-photo batch is never held in memory or in a temporary file. Only files the core saved as some
// item's result can be named (by batch and item id): a URL cannot select any other file.

export const DOWNLOAD_PREFIX = '/download/';

/** Every item of a batch, page by page (the items channel answers at most 10,000 at once). */
export async function batchItems(handlers: Handlers, batchId: string): Promise<ItemView[]> {
  const out: ItemView[] = [];
  for (;;) {
    const page = await handlers['batches:items']({ batchId, offset: out.length, limit: 10_000 });
    out.push(...page.items);
    if (page.items.length === 0 || out.length >= page.total) return out;
  }
}

/** Saved results that are still on disk, each with a name unique inside the zip. */
async function savedResults(items: ItemView[]): Promise<{ path: string; name: string }[]> {
  const used = new Set<string>();
  const out: { path: string; name: string }[] = [];
  for (const item of items) {
    if (item.state !== 'saved') continue;
    for (const path of item.outputs) {
      if (!(await stat(path).then((s) => s.isFile(), () => false))) continue;
      let name = basename(path);
      for (let n = 2; used.has(name.toLowerCase()); n++) name = basename(path).replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext}`);
      used.add(name.toLowerCase());
      out.push({ path, name });
    }
  }
  return out;
}

const attachment = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * Answers `/download/<batchId>.zip` (every saved result of the batch) and `/download/<batchId>/<itemId>` (that item's
 * first result); false when the path names neither, or nothing to send.
 */
export async function sendDownload(response: ServerResponse, pathname: string, handlers: Handlers, headers: Record<string, string>, method: string): Promise<boolean> {
  const rest = pathname.slice(DOWNLOAD_PREFIX.length);
  const zip = /^([\w-]+)\.zip$/.exec(rest);
  const one = /^([\w-]+)\/([\w-]+)$/.exec(rest);
  const batchId = zip?.[1] ?? one?.[1];
  if (!batchId) return false;
  const items = await batchItems(handlers, batchId).catch(() => null);
  if (!items) return false;
  const results = await savedResults(one ? items.filter((i) => i.id === one[2]) : items);
  if (results.length === 0) return false;
  if (one) {
    const { path, name } = results[0]!;
    response.writeHead(200, { ...headers, 'Content-Type': contentTypeFor(path), 'Content-Length': String((await stat(path)).size), 'Content-Disposition': attachment(name) });
    if (method === 'HEAD') return (response.end(), true);
    // A browser that goes away mid-download: the file is closed, the wait ends.
    await new Promise<void>((done) => {
      const file = createReadStream(path).on('error', () => (response.destroy(), done())).on('end', done);
      response.on('close', () => (file.destroy(), done()));
      file.pipe(response);
    });
    return true;
  }
  response.writeHead(200, { ...headers, 'Content-Type': 'application/zip', 'Content-Disposition': attachment(`Batchroom-${batchId.slice(0, 8)}.zip`) });
  if (method === 'HEAD') return (response.end(), true);
  const archive = new ZipFile();
  // A result removed while the zip is written: the download ends short (the browser says it failed), nothing else.
  archive.on('error', () => response.destroy());
  // Photos are compressed already: stored, not deflated — the zip costs no CPU and streams at disk speed.
  for (const { path, name } of results) archive.addFile(path, name, { compress: false });
  archive.end();
  await new Promise<void>((done) => {
    archive.outputStream.on('error', () => (response.destroy(), done())).on('end', done).pipe(response);
    // yazl's output is a stream.PassThrough (typed as a plain ReadableStream): ended with the browser's connection.
    response.on('close', () => ((archive.outputStream as unknown as { destroy(): void }).destroy(), done()));
  });
  return true;
}
