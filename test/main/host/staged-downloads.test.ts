import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWABLE_EDGE } from '../../../main/core/images/viewable';
import { createReviewCopies } from '../../../main/host/review-copy';
import { sendDownload } from '../../../main/host/downloads';
import { createStagedCleaner, refuseReviewCopies, requireOutputForStaged, STAGED_GRACE_MS, stagedFolderOf } from '../../../main/host/staged-batches';
import type { BatchSummary, ItemView } from '../../../shared/engine/model';
import type { Handlers } from '../../../shared/ipc/contract';

// Issue 31 #13: photos added in the browser were staged under <state>/uploads/<random>/, their results written into
// <state>/uploads/<random>/Batchroom/ (only reachable one Download at a time) and the copies never removed.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-staged-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const exists = (path: string) => readFile(path).then(() => true, () => false);

function item(batchId: string, id: string, state: ItemView['state'], source: string, outputs: string[] = []): ItemView {
  return { id, batchId, position: 0, displayName: id, sources: { image: source }, state, progress: 0, reason: null, executionId: null, outputs, creditsCharged: 0, verdict: null, updatedAt: '' };
}
function batch(id: string, state: BatchSummary['state'], trialRest: number | null = null): BatchSummary {
  return { id, state, trialRest } as unknown as BatchSummary;
}
function fakeHandlers(batches: BatchSummary[], items: ItemView[]): Handlers {
  return {
    'batches:list': async () => batches,
    'batches:items': async ({ batchId, offset = 0, limit = 500 }: { batchId: string; offset?: number; limit?: number }) => {
      const mine = items.filter((i) => i.batchId === batchId);
      return { total: mine.length, items: mine.slice(offset, offset + limit) };
    },
  } as unknown as Handlers;
}

async function stage(uploads: string, name: string): Promise<string> {
  const folder = join(uploads, Math.random().toString(16).slice(2, 10).padEnd(16, '0'));
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, name), name);
  return join(folder, name);
}

describe('staged uploads need an output folder', () => {
  it('refuses an estimate or a start of staged photos without one, and lets every other batch through', () => {
    const uploads = join(dir, 'uploads');
    const staged = join(uploads, '0123456789abcdef', 'IMG_1.jpg');
    const spec = (paths: string[], outputFolder = '') => ({ inputs: { paths }, output: { outputFolder } });
    expect(() => requireOutputForStaged('batches:estimate', spec([staged]), uploads)).toThrow(/need an output folder/);
    expect(() => requireOutputForStaged('batches:create', spec(['/photos/a.jpg', staged]), uploads)).toThrow(/need an output folder/);
    expect(() => requireOutputForStaged('batches:create', spec([staged], '/out'), uploads)).not.toThrow();
    expect(() => requireOutputForStaged('batches:create', spec(['/photos/a.jpg']), uploads)).not.toThrow();
    expect(() => requireOutputForStaged('settings:get', {}, uploads)).not.toThrow();
    expect(stagedFolderOf(uploads, join(uploads, '..', 'x', 'a.jpg'))).toBeNull();
    expect(stagedFolderOf(uploads, join(uploads, 'nothex', 'a.jpg'))).toBeNull();
  });
});

describe('staged copies are removed when their batch ends', () => {
  it('removes a completed batch\'s copies, keeps those an unfinished, cancelled or try-first batch may still send', async () => {
    const uploads = join(dir, 'ended');
    const [a, b, shared, tried, failed] = await Promise.all(['a.jpg', 'b.jpg', 'shared.jpg', 'tried.jpg', 'failed.jpg'].map((n) => stage(uploads, n)));
    const batches = [batch('done', 'completed'), batch('running', 'running'), batch('trial', 'completed', 5), batch('gone', 'cancelled')];
    const items = [item('done', 'i1', 'saved', a!), item('done', 'i2', 'saved', shared!), item('running', 'i3', 'pending', shared!),
      item('trial', 'i4', 'saved', tried!), item('gone', 'i5', 'cancelled', b!), item('done', 'i6', 'failed', failed!)];
    const freed: number[] = [];
    const cleaner = createStagedCleaner(fakeHandlers(batches, items), uploads, { freed: (files) => freed.push(files) });
    cleaner.onBatches(batches);
    await cleaner.idle();
    expect(await exists(a!)).toBe(false);
    // A cancelled batch is not over: Resume sends its photos again, and results already at the service still arrive
    // (their metadata and names come from the original).
    expect(await exists(b!)).toBe(true);
    expect(freed).toEqual([1]);
    expect(await exists(shared!)).toBe(true); // the running batch still reads it
    expect(await exists(tried!)).toBe(true); // "Continue with the other 5" still needs the originals
    expect(await exists(failed!)).toBe(true); // "Retry failed" sends it again
  });

  it('keeps a screen-size review copy of an ended batch\'s photo in place of the full one (Review\'s "before")', async () => {
    const uploads = join(dir, 'review');
    const photo = await stage(uploads, 'IMG_9.tif');
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#a33' } }).tiff({ compression: 'none' }).toFile(photo);
    const full = (await stat(photo)).size;
    let freedBytes = 0;
    const cleaner = createStagedCleaner(fakeHandlers([batch('b', 'completed')], [item('b', 'i', 'saved', photo)]), uploads, {
      reviewCopy: createReviewCopies(join(dir, 'review-previews')), freed: (_files, bytes) => (freedBytes += bytes),
    });
    cleaner.onBatches([batch('b', 'completed')]);
    await cleaner.idle();
    const meta = await sharp(photo).metadata();
    expect([meta.format, Math.max(meta.width!, meta.height!)]).toEqual(['webp', VIEWABLE_EDGE]);
    expect(freedBytes).toBe(full - (await stat(photo)).size);
    expect(freedBytes).toBeGreaterThan(full * 0.9);
  });

  it('sweeps at start every staged folder no unfinished batch uses and untouched for a day; a draft from before a restart stays', async () => {
    const uploads = join(dir, 'sweep');
    const [stale, used, draft, fresh] = await Promise.all(['stale.jpg', 'used.jpg', 'draft.jpg', 'fresh.jpg'].map((n) => stage(uploads, n)));
    const startedAt = Date.now();
    const old = new Date(startedAt - STAGED_GRACE_MS - 60_000);
    for (const path of [stale!, used!]) await utimes(join(path, '..'), old, old);
    // Staged an hour ago by a page that outlived the restart: its form still names it (or a try's untried photo).
    await utimes(join(draft!, '..'), new Date(startedAt - 3600_000), new Date(startedAt - 3600_000));
    await utimes(join(fresh!, '..'), new Date(startedAt + 1000), new Date(startedAt + 1000));
    const cleaner = createStagedCleaner(fakeHandlers([batch('paused', 'paused')], [item('paused', 'i1', 'pending', used!)]), uploads);
    expect(await cleaner.sweep(startedAt)).toBe(1);
    expect([await exists(stale!), await exists(used!), await exists(draft!), await exists(fresh!)]).toEqual([false, true, true, true]);
  });

  it('never sends a review copy: a batch or a re-run naming one is refused by name, a full staged photo is not', async () => {
    const uploads = join(dir, 'refuse');
    const [photo, other] = await Promise.all(['IMG_7.jpg', 'IMG_8.jpg'].map((n) => stage(uploads, n)));
    await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#3a3' } }).jpeg().toFile(photo!);
    const batches = [batch('b', 'completed')];
    const items = [item('b', 'i', 'saved', photo!)];
    const handlers = fakeHandlers(batches, items);
    const cleaner = createStagedCleaner(handlers, uploads, { reviewCopy: createReviewCopies(join(dir, 'refuse-previews')) });
    const spec = (paths: string[]) => ({ inputs: { paths }, output: { outputFolder: '/out' } });
    // Before the batch completes, nothing is refused.
    await expect(refuseReviewCopies('batches:create', spec([photo!]), uploads, async () => handlers)).resolves.toBeUndefined();
    cleaner.onBatches(batches);
    await cleaner.idle();
    await expect(refuseReviewCopies('batches:create', spec([photo!]), uploads, async () => handlers)).rejects.toThrow(/^IMG_7\.jpg was added in the browser, and its full copy was cleaned up/);
    await expect(refuseReviewCopies('batches:estimate', spec([other!]), uploads, async () => handlers)).resolves.toBeUndefined();
    await expect(refuseReviewCopies('items:rerun', { itemIds: ['i'], parameters: {} }, uploads, async () => handlers)).rejects.toThrow(/IMG_7\.jpg/);
    // Other channels never wait for the core.
    await expect(refuseReviewCopies('workflows:list', {}, uploads, () => new Promise(() => undefined))).resolves.toBeUndefined();
  });
});

/** The entries of a zip, read from its central directory (stored entries: their bytes follow the local header). */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    out.set(name, zip.subarray(data, data + size));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return out;
}

describe('downloads from the browser host', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const out = join(dir, 'out');
    const other = join(dir, 'out2');
    await mkdir(out);
    await mkdir(other);
    for (const [folder, name, body] of [[out, 'IMG_1_grade.jpg', 'one'], [out, 'IMG_2_grade.tif', 'two'], [other, 'IMG_1_grade.jpg', 'three']] as const) {
      await writeFile(join(folder, name), body);
    }
    const items = [item('b1', 'i1', 'saved', '/s/1.jpg', [join(out, 'IMG_1_grade.jpg')]), item('b1', 'i2', 'saved', '/s/2.tif', [join(out, 'IMG_2_grade.tif')]),
      item('b1', 'i3', 'saved', '/s/3.jpg', [join(other, 'IMG_1_grade.jpg')]), item('b1', 'i4', 'failed', '/s/4.jpg'),
      item('b1', 'i5', 'saved', '/s/5.jpg', [join(out, 'deleted.jpg')])];
    const handlers = fakeHandlers([batch('b1', 'completed')], items);
    server = createServer((request, response) => {
      void sendDownload(response, new URL(request.url!, 'http://x').pathname, handlers, {}, 'GET').then((sent) => {
        if (!sent) response.writeHead(404).end();
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const fetchBytes = (path: string) => new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) })).on('error', reject);
    }).on('error', reject);
  });

  it('"Download all" is a zip of every saved result still on disk, each name once', async () => {
    const reply = await fetchBytes('/download/b1.zip');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/zip');
    expect(String(reply.headers['content-disposition'])).toMatch(/^attachment; filename="Batchroom-b1\.zip"/);
    const entries = unzip(reply.body);
    expect([...entries.keys()]).toEqual(['IMG_1_grade.jpg', 'IMG_2_grade.tif', 'IMG_1_grade (2).jpg']);
    expect([...entries.values()].map(String)).toEqual(['one', 'two', 'three']);
  });

  it('one result is the file itself; unknown batches, items without a result and other paths are not found', async () => {
    const one = await fetchBytes('/download/b1/i2');
    expect([one.status, String(one.body), one.headers['content-type']]).toEqual([200, 'two', 'image/tiff']);
    expect(String(one.headers['content-disposition'])).toContain('filename="IMG_2_grade.tif"');
    for (const path of ['/download/nope.zip', '/download/b1/i4', '/download/b1/i5', '/download/b1/..%2Fetc', '/download/b1']) {
      expect((await fetchBytes(path)).status, path).toBe(404);
    }
  });
});
