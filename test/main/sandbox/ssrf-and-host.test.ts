import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxOptionsFromFlags } from '../../../main/cli/commands/sandbox';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { guardedGet, isAllowedHostHeader, isPublicAddress, UrlRefused } from '../../../main/sandbox/url-guard';
import { sandboxApi, startTestSandbox } from '../../helpers/sandbox';

// The sandbox as a target: another site's page (DNS rebinding) must not drive it, and nobody may use its image
// downloads to reach the local network (SSRF) unless it was started for tests with --allow-private-urls.

let origin: Server;
let hits = 0;
let sandbox: RunningSandbox;

beforeAll(async () => {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
  origin = createServer((req, res) => {
    hits += 1;
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(png);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  sandbox = await startTestSandbox({ executionDurationMs: 20, limits: { downloadTimeoutMs: 2000 } });
});
afterAll(async () => {
  await sandbox.close();
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
});

describe('image URLs (SSRF guard)', () => {
  it.each([
    'http://127.0.0.1:PORT/photo.png',
    'http://localhost:PORT/photo.png',
    'http://[::1]:PORT/photo.png',
    'http://[::ffff:127.0.0.1]:PORT/photo.png',
    'http://0.0.0.0:PORT/photo.png',
    'http://2130706433:PORT/photo.png',
    'http://10.0.0.1/photo.png',
    'http://192.168.1.1/admin.png',
    'http://169.254.169.254/latest/meta-data/',
    // IPv4 inside IPv6 and IPv4 in other spellings (issue 30 item 10): each reaches the test origin on 127.0.0.1.
    'http://[::127.0.0.1]:PORT/photo.png',
    'http://[::7f00:1]:PORT/photo.png',
    'http://[::ffff:7f00:1]:PORT/photo.png',
    'http://[0:0:0:0:0:ffff:127.0.0.1]:PORT/photo.png',
    'http://[::ffff:0:7f00:1]:PORT/photo.png',
    'http://0x7f.1:PORT/photo.png',
    'http://0177.0.0.1:PORT/photo.png',
    'http://0x7f000001:PORT/photo.png',
    'http://127.1:PORT/photo.png',
  ])('refuses %s with 422 private_url and fetches nothing', async (template) => {
    const before = hits;
    const url = template.replace('PORT', String((origin.address() as AddressInfo).port));
    const { status, body } = await sandboxApi(sandbox)('/workflows/color-grade/execute', { body: { images: { photo: url }, texts: { look: 'warm' } } });
    expect(status).toBe(422);
    expect(body.error).toMatchObject({ code: 'validation_failed', field: 'images.photo', reason: 'private_url' });
    expect(hits).toBe(before);
  });

  it('refuses a public-looking first hop that redirects into the local network', async () => {
    const controller = new AbortController();
    // The test origin stands in for a public host: the resolver says its name is public, the redirect is not.
    const resolve = async (name: string) => (name === 'public.example' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }]);
    const port = (origin.address() as AddressInfo).port;
    await expect(guardedGet(new URL(`http://public.example:${port}/to-metadata`), { allowPrivate: false, signal: controller.signal, resolve }))
      .rejects.toBeInstanceOf(UrlRefused);
  });

  it('refuses a name that resolves to a private address (any of its answers)', async () => {
    const resolve = async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }];
    await expect(guardedGet(new URL('http://mixed.example/x.png'), { allowPrivate: false, signal: new AbortController().signal, resolve }))
      .rejects.toMatchObject({ reason: 'private_url' });
  });

  it.each([
    ['8.8.8.8', true], ['93.184.216.34', true], ['2606:4700::1111', true],
    ['127.0.0.1', false], ['10.2.3.4', false], ['172.16.0.1', false], ['172.31.255.255', false], ['192.168.0.1', false],
    ['169.254.169.254', false], ['100.64.0.1', false], ['0.0.0.0', false], ['224.0.0.1', false], ['255.255.255.255', false],
    ['::1', false], ['::', false], ['fe80::1', false], ['fd00::1', false], ['::ffff:10.0.0.1', false], ['::ffff:7f00:1', false],
    ['64:ff9b::a00:1', false], ['not-an-ip', false],
    // Every spelling of a private IPv4 address, inside IPv6 or not (issue 30 item 10).
    ['::127.0.0.1', false], ['[::127.0.0.1]', false], ['::7f00:1', false], ['::ffff:127.0.0.1', false],
    ['[::ffff:7f00:1]', false], ['0:0:0:0:0:ffff:7f00:1', false], ['0:0:0:0:0:0:127.0.0.1', false],
    ['::ffff:0:7f00:1', false], ['::ffff:0:127.0.0.1', false], ['::a9fe:a9fe', false], ['::ffff:a9fe:a9fe', false],
    ['::ffff:c0a8:101', false], ['64:ff9b::127.0.0.1', false], ['64:ff9b:1::7f00:1', false], ['::FFFF:7F00:1', false],
    ['fe80::1%eth0', false], ['0x7f.1', false], ['0x7f000001', false], ['2130706433', false], ['0177.0.0.1', false],
    ['127.1', false], ['017700000001', false], ['0xa9.0xfe.0xa9.0xfe', false], ['10.1', false], ['0', false],
    ['256.1.1.1', false], ['1.2.3.4.5', false], ['0x', false], ['', false],
    ['::ffff:8.8.8.8', true], ['::ffff:808:808', true], ['64:ff9b::808:808', true], ['0x8.0x8.0x8.0x8', true],
  ] as const)('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('--allow-private-urls opts a test sandbox in', () => {
    expect(sandboxOptionsFromFlags({ port: '0', host: '127.0.0.1', allowPrivateUrls: true }).limits).toMatchObject({ allowPrivateUrls: true });
    expect(sandboxOptionsFromFlags({ port: '0', host: '127.0.0.1' }).limits?.allowPrivateUrls).toBeUndefined();
  });
});

function rawGet(port: number, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/workflows', headers: { host, authorization: `Bearer ${sandbox.apiKey}` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Host header (DNS rebinding)', () => {
  it.each(['evil.example:PORT', 'evil.example', 'localhost.evil.example:PORT', '127.0.0.1:1', 'user@127.0.0.1:PORT'])('refuses Host %j with 403', async (template) => {
    const reply = await rawGet(sandbox.port, template.replace('PORT', String(sandbox.port)));
    expect(reply.status).toBe(403);
    expect(reply.body).toContain('forbidden_host');
  });

  it.each(['127.0.0.1:PORT', 'localhost:PORT', 'LOCALHOST:PORT'])('accepts Host %s', async (template) => {
    expect((await rawGet(sandbox.port, template.replace('PORT', String(sandbox.port)))).status).toBe(200);
  });

  it.each([
    ['[::1]:8080', true], ['192.168.1.5:8080', true], ['nas.local:8080', false], ['localhost:8081', false],
  ] as const)('a sandbox on 0.0.0.0:8080 answers Host %s: %s', (host, expected) => {
    expect(isAllowedHostHeader(host, 'http://0.0.0.0:8080')).toBe(expected);
  });
});
