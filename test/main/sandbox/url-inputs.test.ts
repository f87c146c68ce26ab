import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { sandboxApi, startTestSandbox, waitForExecution } from '../../helpers/sandbox';

// http(s) image inputs: the sandbox downloads them itself, with a time limit, a size limit and content sniffing.

let origin: Server;
let base: string;
let sandbox: RunningSandbox;
let api: ReturnType<typeof sandboxApi>;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#22aa44' } }).png().toBuffer();
  origin = createServer((req, res) => {
    switch (req.url) {
      case '/photo.bin':
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(png);
      case '/redirect':
        res.writeHead(302, { location: '/photo.bin' });
        return res.end();
      case '/page.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end('<html><body>not an image</body></html>');
      case '/huge-chunked':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png);
        res.write(Buffer.alloc(60_000));
        return res.end();
      case '/huge-declared':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '999999999' });
        return res.write(png); // never finishes: the declared length alone must be refused
      case '/hang':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.write(png.subarray(0, 10)); // stalls mid-body
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  sandbox = await startTestSandbox({ executionDurationMs: 20, limits: { maxImageBytes: 50_000, downloadTimeoutMs: 300, allowPrivateUrls: true } });
  api = sandboxApi(sandbox);
});
afterAll(async () => {
  await sandbox.close();
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
});

const execute = (photo: string) => api('/workflows/color-grade/execute', { body: { images: { photo }, texts: { look: 'warm' } } });

describe('http(s) image inputs', () => {
  it('downloads the image and trusts the bytes, not the Content-Type', async () => {
    const { status, body } = await execute(`${base}/photo.bin`);
    expect(status).toBe(202);
    expect((await waitForExecution(sandbox, body.executionId)).status).toBe('completed');
  });

  it('follows redirects', async () => {
    expect((await execute(`${base}/redirect`)).status).toBe(202);
  });

  it('refuses an HTML page served as image/png with 415', async () => {
    const { status, body } = await execute(`${base}/page.png`);
    expect(status).toBe(415);
    expect(body.error).toMatchObject({ code: 'unsupported_media_type', field: 'images.photo' });
  });

  it('answers 422 image_download_failed for an HTTP error, naming the field', async () => {
    const { status, body } = await execute(`${base}/missing.jpg`);
    expect(status).toBe(422);
    expect(body.error).toMatchObject({ code: 'validation_failed', field: 'images.photo', reason: 'image_download_failed' });
    expect(body.error.message).toContain('HTTP 404');
  });

  it('answers 422 when the host refuses the connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { status, body } = await execute(`http://127.0.0.1:${port}/x.png`);
    expect(status).toBe(422);
    expect(body.error.reason).toBe('image_download_failed');
  });

  it('gives up after the download time limit', async () => {
    const { status, body } = await execute(`${base}/hang`);
    expect(status).toBe(422);
    expect(body.error.message).toContain('timed out');
  });

  it('refuses images over the size limit, declared or streamed (413)', async () => {
    for (const path of ['/huge-declared', '/huge-chunked']) {
      const { status, body } = await execute(`${base}${path}`);
      expect(status, path).toBe(413);
      expect(body.error).toMatchObject({ code: 'image_too_large', field: 'images.photo', limit: 50_000 });
    }
  });

  it('charged only the successful executions', async () => {
    const stats = sandbox.stats();
    expect(stats.executionsCreated).toBe(2);
    expect((await api('/balance')).body.apiCredits).toBe(1000 - 2);
  });
});
