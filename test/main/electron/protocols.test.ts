import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../../main/electron/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../../main/electron/constants';
import { createMediaProtocolHandler, createElectronMediaRegistry } from '../../../main/electron/media-protocol';

let dir: string;
let root: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'batchroom-protocol-'));
  root = join(dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Batchroom</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'app.js.map'), '{"sources":["do not serve"]}');
  writeFileSync(join(dir, 'secret.txt'), 'do not serve');
  try {
    symlinkSync(join(dir, 'secret.txt'), join(root, 'assets', 'link.txt'));
  } catch {
    // Windows without symlink rights: the link case then checks a missing file, still a 404.
  }
  writeFileSync(join(dir, 'photo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => new Request(url, { method });

describe('batchroom://app/ (the renderer)', () => {
  it('serves the index with the CSP and a content type', async () => {
    const handler = createAppProtocolHandler(root);
    const response = await handler(get('batchroom://app/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>Batchroom</title>');
  });

  it('serves built assets', async () => {
    const response = await createAppProtocolHandler(root)(get('batchroom://app/assets/app.js'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(await response.text()).toBe('console.log(1)');
  });

  it.each([
    'batchroom://app/../secret.txt',
    'batchroom://app/%2e%2e/secret.txt',
    'batchroom://app/assets/..%2f..%2fsecret.txt',
    'batchroom://app/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    'batchroom://app/..%5csecret.txt',
    'batchroom://app/assets/link.txt',
    'batchroom://app/assets/app.js.map',
    'batchroom://app/assets/app.js%2emap',
    'batchroom://app/assets/app.js%00.html',
    'batchroom://app/%E0%A4%A',
    'batchroom://app/assets',
    'batchroom://app/missing.js',
    'batchroom://other/index.html',
  ])('refuses %s', async (url) => {
    const response = await createAppProtocolHandler(root)(get(url));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('do not serve');
  });

  it('accepts only GET and HEAD', async () => {
    const handler = createAppProtocolHandler(root);
    expect((await handler(get('batchroom://app/index.html', 'POST'))).status).toBe(405);
    const head = await handler(get('batchroom://app/index.html', 'HEAD'));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('batchroom-media:// (previews)', () => {
  it('serves a registered file under an opaque token', async () => {
    const registry = createElectronMediaRegistry();
    const url = registry.urlFor(join(dir, 'photo.jpg'));
    expect(url).toMatch(/^batchroom-media:\/\/file\/[0-9a-f]{32}$/);
    expect(url).not.toContain('photo');
    expect(registry.urlFor(join(dir, 'photo.jpg'))).toBe(url);
    const response = await createMediaProtocolHandler(registry)(get(url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
  });

  it('refuses tokens it never issued and paths in place of tokens', async () => {
    const registry = createElectronMediaRegistry();
    registry.urlFor(join(dir, 'photo.jpg'));
    const handler = createMediaProtocolHandler(registry);
    for (const url of [
      'batchroom-media://file/00000000000000000000000000000000',
      `batchroom-media://file/${encodeURIComponent(join(dir, 'secret.txt'))}`,
      'batchroom-media://file/../../secret.txt',
      'batchroom-media://other/abc',
    ]) {
      expect((await handler(get(url))).status, url).toBe(404);
    }
  });

  it('answers 404 when a registered file was replaced by a symlink (to anything) after registration', async () => {
    const registry = createElectronMediaRegistry();
    writeFileSync(join(dir, 'swap.jpg'), 'jpg');
    const url = registry.urlFor(join(dir, 'swap.jpg'));
    expect((await createMediaProtocolHandler(registry)(get(url))).status).toBe(200);
    unlinkSync(join(dir, 'swap.jpg'));
    symlinkSync(join(dir, 'secret.txt'), join(dir, 'swap.jpg'));
    const response = await createMediaProtocolHandler(registry)(get(url));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('do not serve');
  });

  it('answers 404 when a registered file has since disappeared', async () => {
    const registry = createElectronMediaRegistry();
    const url = registry.urlFor(join(dir, 'gone.jpg'));
    expect((await createMediaProtocolHandler(registry)(get(url))).status).toBe(404);
  });
});
