import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { sandboxApi, startTestSandbox, tinyImageDataUrl, type LooseJson } from '../../helpers/sandbox';

// Every error status of the wire contract, each checked for the JSON shape { error: { code, message, ... } }.

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A valid tiny PNG whose header claims width × height: a decompression bomb as far as any decoder knows. */
async function bombPng(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer();
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

let sandbox: RunningSandbox;
let api: ReturnType<typeof sandboxApi>;
let photo: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ credits: 3, limits: { maxBodyBytes: 200_000, maxImageBytes: 100_000, maxImagePixels: 4_000_000 } });
  api = sandboxApi(sandbox);
  photo = await tinyImageDataUrl();
});
afterAll(() => sandbox.close());
afterEach(async () => {
  // No failed request may cost anything.
  expect((await api('/balance')).body.apiCredits).toBe(3);
});

const execute = (workflow: string, body: unknown) => api(`/workflows/${workflow}/execute`, { body });

function expectError(response: { status: number; body: LooseJson }, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.message).toBeTypeOf('string');
  expect(response.body.error.message.length).toBeGreaterThan(5);
}

describe('400', () => {
  it('invalid_json for unparseable or empty bodies', async () => {
    expectError(await api('/workflows/color-grade/execute', { rawBody: '{"images": {', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
    expectError(await api('/workflows/color-grade/execute', { rawBody: '', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
  });

  it('invalid_body when the JSON is not an object', async () => {
    expectError(await execute('color-grade', [1, 2]), 400, 'invalid_body');
    expectError(await execute('color-grade', 'text'), 400, 'invalid_body');
  });
});

describe('402', () => {
  it('insufficient_credits with required and available, charging nothing', async () => {
    const response = await execute('product-backdrop', { images: { product: photo } });
    expectError(response, 402, 'insufficient_credits');
    expect(response.body.error).toMatchObject({ required: 5, available: 3 });
  });
});

describe('404', () => {
  it('workflow_not_found when executing an unknown workflow', async () => {
    expectError(await execute('nope', { images: { photo } }), 404, 'workflow_not_found');
  });
});

describe('413', () => {
  it('payload_too_large for a body over the limit', async () => {
    const response = await execute('color-grade', { images: { photo: `data:image/png;base64,${'A'.repeat(250_000)}` }, texts: { look: 'warm' } });
    expectError(response, 413, 'payload_too_large');
    expect(response.body.error.limit).toBe(200_000);
  });

  it('image_too_large for an image over the byte limit', async () => {
    const big = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
    expect(big.length).toBeGreaterThan(100_000);
    expect(big.length).toBeLessThan(150_000);
    const response = await execute('color-grade', { images: { photo: dataUrl('image/png', big) }, texts: { look: 'warm' } });
    expectError(response, 413, 'image_too_large');
    expect(response.body.error.field).toBe('images.photo');
  });

  it('image_too_large for a decompression bomb (pixel count from the header, before decoding)', async () => {
    const response = await execute('color-grade', { images: { photo: dataUrl('image/png', await bombPng(60_000, 60_000)) }, texts: { look: 'warm' } });
    expectError(response, 413, 'image_too_large');
    expect(response.body.error).toMatchObject({ field: 'images.photo', width: 60_000, height: 60_000, limit: 4_000_000 });
  });
});

describe('415', () => {
  it('unsupported_content_type for a non-JSON request body', async () => {
    expectError(await api('/workflows/color-grade/execute', { rawBody: 'images=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_content_type');
  });

  it('unsupported_media_type when the declared mime does not match the bytes', async () => {
    const png = Buffer.from(photo.split(',')[1]!, 'base64');
    const response = await execute('color-grade', { images: { photo: dataUrl('image/jpeg', png) }, texts: { look: 'warm' } });
    expectError(response, 415, 'unsupported_media_type');
    expect(response.body.error).toMatchObject({ field: 'images.photo', declaredType: 'image/jpeg', detectedType: 'image/png' });
  });

  it.each([
    ['text bytes labelled as an image', 'image/png', Buffer.from('hello, not an image at all')],
    ['HEIC (recognised, not supported)', 'image/heic', Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(40)])],
    ['BMP', 'image/bmp', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])],
    ['a non-image data URL type', 'text/plain', Buffer.from('hello')],
  ])('unsupported_media_type for %s', async (_name, mime, bytes) => {
    expectError(await execute('color-grade', { images: { photo: dataUrl(mime, bytes) }, texts: { look: 'warm' } }), 415, 'unsupported_media_type');
  });

  it('corrupt_image for a truncated JPEG and for garbage after a valid signature', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).jpeg().toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    expectError(await execute('color-grade', { images: { photo: dataUrl('image/jpeg', truncated) }, texts: { look: 'warm' } }), 415, 'corrupt_image');
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(100, 7)]);
    expectError(await execute('color-grade', { images: { photo: dataUrl('image/jpeg', garbage) }, texts: { look: 'warm' } }), 415, 'corrupt_image');
  });
});

describe('422 names the field', () => {
  const cases: [string, string, () => unknown, string][] = [
    ['missing images', 'color-grade', () => ({ texts: { look: 'warm' } }), 'images'],
    ['missing required image', 'before-after', () => ({ images: { before: photo } }), 'images.after'],
    ['empty image value', 'color-grade', () => ({ images: { photo: '' }, texts: { look: 'warm' } }), 'images.photo'],
    ['unknown image field', 'color-grade', () => ({ images: { photo, extra: photo }, texts: { look: 'warm' } }), 'images.extra'],
    ['non-string image value', 'color-grade', () => ({ images: { photo: 42 }, texts: { look: 'warm' } }), 'images.photo'],
    ['missing required text', 'color-grade', () => ({ images: { photo } }), 'texts.look'],
    ['unknown text field', 'color-grade', () => ({ images: { photo }, texts: { look: 'warm', mood: 'x' } }), 'texts.mood'],
    ['value not in presetOptions', 'color-grade', () => ({ images: { photo }, texts: { look: 'purple' } }), 'texts.look'],
    ['empty required free text', 'caption-watermark', () => ({ images: { photo }, texts: { caption: '   ' } }), 'texts.caption'],
    ['free text too long', 'caption-watermark', () => ({ images: { photo }, texts: { caption: 'x'.repeat(201) } }), 'texts.caption'],
    ['control characters in free text', 'caption-watermark', () => ({ images: { photo }, texts: { caption: 'a\u0007b' } }), 'texts.caption'],
    ['unknown switch field', 'film-effects', () => ({ images: { photo }, switchSelections: { filters: ['grain'] } }), 'switchSelections.filters'],
    ['unknown switch option', 'film-effects', () => ({ images: { photo }, switchSelections: { effects: ['grain', 'lasers'] } }), 'switchSelections.effects'],
    ['too few switch options', 'film-effects', () => ({ images: { photo }, switchSelections: { effects: [] } }), 'switchSelections.effects'],
    ['switch value not an array', 'film-effects', () => ({ images: { photo }, switchSelections: { effects: 'grain' } }), 'switchSelections.effects'],
    ['bad aspect ratio', 'auto-enhance', () => ({ images: { photo }, globalOverrides: { aspectRatio: '5:4' } }), 'globalOverrides.aspectRatio'],
    ['bad image size', 'auto-enhance', () => ({ images: { photo }, globalOverrides: { imageSize: '4K' } }), 'globalOverrides.imageSize'],
    ['unknown override', 'auto-enhance', () => ({ images: { photo }, globalOverrides: { quality: 'max' } }), 'globalOverrides.quality'],
    ['unknown top-level key', 'auto-enhance', () => ({ images: { photo }, switches: {} }), 'switches'],
    ['invalid base64', 'auto-enhance', () => ({ images: { photo: 'data:image/png;base64,iVBORw0KGgo$$$$' } }), 'images.photo'],
    ['base64 without padding', 'auto-enhance', () => ({ images: { photo: photo.replace(/=+$/, '').slice(0, -1) } }), 'images.photo'],
    ['data URL not base64', 'auto-enhance', () => ({ images: { photo: 'data:image/png,rawbytes' } }), 'images.photo'],
    ['file:// URL', 'auto-enhance', () => ({ images: { photo: 'file:///etc/passwd' } }), 'images.photo'],
    ['ftp:// URL', 'auto-enhance', () => ({ images: { photo: 'ftp://example.com/a.jpg' } }), 'images.photo'],
    ['not a URL at all', 'auto-enhance', () => ({ images: { photo: 'just words' } }), 'images.photo'],
  ];
  it.each(cases)('%s → %s', async (_name, workflow, body, field) => {
    const response = await execute(workflow, body());
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.field).toBe(field);
  });

  it('lists the allowed values where there is a closed set', async () => {
    const preset = await execute('color-grade', { images: { photo }, texts: { look: 'purple' } });
    expect(preset.body.error.allowed).toContain('warm');
    const ratio = await execute('auto-enhance', { images: { photo }, globalOverrides: { aspectRatio: '5:4' } });
    expect(ratio.body.error.allowed).toEqual(['1:1', '2:3', '3:2', '3:4', '4:3', '9:16', '16:9', '21:9']);
  });
});

describe('429', () => {
  it('rate_limited with Retry-After once the per-key token bucket is empty; other keys unaffected', async () => {
    const limited = await startTestSandbox({ limits: { requestsPerSecond: 1, burst: 3 } });
    try {
      const limitedApi = sandboxApi(limited);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limitedApi('/balance')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const response = await limitedApi('/balance');
      expectError(response, 429, 'rate_limited');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(response.body.error.retryAfterSeconds).toBe(Number(response.headers.get('retry-after')));
      expect((await sandboxApi(limited, 'sk_test_otherkey0001')('/balance')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('concurrency_limit with Retry-After while too many executions are queued or running', async () => {
    const busy = await startTestSandbox({ executionDurationMs: 60_000, limits: { maxConcurrentExecutions: 1 } });
    try {
      const busyApi = sandboxApi(busy);
      const body = { images: { photo }, texts: { look: 'warm' } };
      expect((await busyApi('/workflows/color-grade/execute', { body })).status).toBe(202);
      const second = await busyApi('/workflows/color-grade/execute', { body });
      expectError(second, 429, 'concurrency_limit');
      expect(second.headers.get('retry-after')).toBe('1');
      expect(busy.stats().executionsCreated).toBe(1);
    } finally {
      await busy.close();
    }
  });
});
