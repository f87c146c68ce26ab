import { mkdtemp, mkdir, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../../main/core/app/event-bus';
import type { Core } from '../../../main/core/app/types';
import { startBrowserHost, type BrowserHost } from '../../../main/host/browser-host';
import { createHostMediaRegistry } from '../../../main/host/media-registry';
import { loadShellCache, shellReferences } from '../../../main/host/shell-cache';
import type { Handlers } from '../../../shared/ipc/contract';

// The app shell is served from memory (main/host/shell-cache.ts): only what index.html names, only inside the
// renderer folder, and never once the file on disk is no longer the one that was read.

const INDEX = `<!doctype html><title>Shell</title>
<script type="module" crossorigin src="./assets/app.js"></script>
<link rel="stylesheet" crossorigin href="./assets/app.css">
<link rel="modulepreload" href="/assets/app.js.map">
<script src="./assets/link.js"></script>
<script src="https://cdn.example/x.js"></script><link rel="icon" href="data:,">`;

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('app shell cache', () => {
  let dir: string;
  let rendererDir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-shell-'));
    rendererDir = join(dir, 'renderer');
    await mkdir(join(rendererDir, 'assets'), { recursive: true });
    await writeFile(join(rendererDir, 'index.html'), INDEX);
    await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("v1")');
    await writeFile(join(rendererDir, 'assets', 'app.css'), 'body{}');
    await writeFile(join(rendererDir, 'assets', 'app.js.map'), '{"sources":["secret source"]}');
    await writeFile(join(dir, 'secret.txt'), 'not for you');
    await symlink(join(dir, 'secret.txt'), join(rendererDir, 'assets', 'link.js'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the local scripts and styles an HTML page loads, not other origins or data: URLs', () => {
    expect(shellReferences(INDEX).sort()).toEqual(['/assets/app.js', '/assets/app.js.map', '/assets/app.css', '/assets/link.js'].sort());
  });

  it('holds index.html and the files it names inside the folder — no source map, nothing through a symlink out', () => {
    const cache = loadShellCache(rendererDir);
    expect([...cache.paths].sort()).toEqual(['/assets/app.css', '/assets/app.js', '/index.html']);
    expect(cache.fresh('/')?.body.toString()).toBe(INDEX);
    expect(cache.fresh('/assets/app.js')?.contentType).toMatch(/^text\/javascript/);
    expect(cache.fresh('/assets/link.js')).toBeNull();
    expect(cache.fresh('/assets/app.js.map')).toBeNull();
  });

  it('gives nothing for a file changed, replaced, removed or swapped for a symlink since it was read', async () => {
    const cache = loadShellCache(rendererDir);
    await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("v2, longer")');
    expect(cache.fresh('/assets/app.js')).toBeNull();
    await writeFile(join(rendererDir, 'next.css'), 'body{}');
    await rename(join(rendererDir, 'next.css'), join(rendererDir, 'assets', 'app.css'));
    expect(cache.fresh('/assets/app.css')).toBeNull();
    await unlink(join(rendererDir, 'index.html'));
    await symlink(join(dir, 'secret.txt'), join(rendererDir, 'index.html'));
    expect(cache.fresh('/')).toBeNull();
  });

  it('is empty for a folder without index.html', () => {
    expect(loadShellCache(join(dir, 'missing')).paths).toEqual([]);
  });

  describe('served by the browser host', () => {
    let host: BrowserHost;
    const token = 'S'.repeat(43);

    beforeEach(async () => {
      const bus = createEventBus();
      const core: Core = {
        handlers: {} as Handlers, onEvent: bus.onEvent, emit: bus.emit, secrets: () => [], hasArmedHotFolders: () => false,
        busyCount: () => 0, shutdown: async () => undefined,
      };
      host = await startBrowserHost({ core, media: createHostMediaRegistry(), rendererDir, uploadDir: join(dir, 'uploads'), token });
    });
    afterEach(async () => {
      await host.close();
    });

    it('with the page headers, and the current file once the one in memory is out of date', async () => {
      const page = await get(host.port, `/?token=${token}`);
      expect(page.status).toBe(200);
      expect(page.body).toBe(INDEX);
      expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(page.headers['cache-control']).toBe('no-store');
      const cookie = String(page.headers['set-cookie']).split(';')[0]!;
      expect((await get(host.port, '/assets/app.js', { cookie })).body).toBe('console.log("v1")');
      expect((await get(host.port, '/assets/app.js')).status).toBe(401); // still behind the token

      await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("v2, rebuilt")');
      expect((await get(host.port, '/assets/app.js', { cookie })).body).toBe('console.log("v2, rebuilt")');
      await unlink(join(rendererDir, 'index.html'));
      await symlink(join(dir, 'secret.txt'), join(rendererDir, 'index.html'));
      const swapped = await get(host.port, '/', { cookie });
      expect(swapped.body).not.toContain('not for you');
      expect(swapped.body).not.toBe(INDEX);
    });
  });
});
