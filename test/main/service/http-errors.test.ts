import { describe, expect, it } from 'vitest';
import { errorFromResponse, parseRetryAfter, readErrorBody, scrubImageBytes } from '../../../main/core/service/http-errors';

const KEY = 'sk_live_Zx9SecretKeyValue1234';

function mapped(status: number, body: unknown, retryAfter: string | null = null) {
  return errorFromResponse({ status, body, retryAfterHeader: retryAfter, endpoint: 'POST /api/v1/workflows/w/execute', secrets: [KEY] });
}

describe('readErrorBody', () => {
  it.each([
    ['error as a string', { error: 'Bad aspect ratio' }, 'Bad aspect ratio'],
    ['error as an object', { error: { code: 'x', message: 'Bad aspect ratio' } }, 'Bad aspect ratio'],
    ['message', { message: 'Bad aspect ratio' }, 'Bad aspect ratio'],
    ['detail string', { detail: 'Bad aspect ratio' }, 'Bad aspect ratio'],
    ['FastAPI detail list', { detail: [{ loc: ['body', 'globalOverrides', 'aspectRatio'], msg: 'Bad aspect ratio' }] }, 'Bad aspect ratio'],
    ['errors of strings', { errors: ['Bad aspect ratio'] }, 'Bad aspect ratio'],
    ['errors of objects', { errors: [{ field: 'x', message: 'Bad aspect ratio' }] }, 'Bad aspect ratio'],
    ['problem+json', { type: 'about:blank', title: 'Bad aspect ratio', status: 422 }, 'Bad aspect ratio'],
    ['plain text', 'Bad aspect ratio', 'Bad aspect ratio'],
  ])('reads the message from %s', (_name, body, message) => {
    expect(readErrorBody(body).message).toBe(message);
  });

  it('reads code, field, retry-after and credit facts', () => {
    expect(readErrorBody({ error: { code: 'validation_failed', message: 'm', field: 'texts.look' } })).toMatchObject({ code: 'validation_failed', field: 'texts.look' });
    expect(readErrorBody({ detail: [{ loc: ['body', 'texts', 'look'], msg: 'm' }] }).field).toBe('texts.look');
    expect(readErrorBody({ error: 'insufficient_credits', message: 'Top up', required: 5, available: '2' })).toMatchObject({ code: 'insufficient_credits', message: 'Top up', required: 5, available: 2 });
    expect(readErrorBody({ error: { code: 'rate_limited', message: 'm', retryAfterSeconds: 3 } }).retryAfterMs).toBe(3000);
    expect(readErrorBody({ retry_after_ms: 250 }).retryAfterMs).toBe(250);
  });

  it('ignores HTML error pages', () => {
    expect(readErrorBody('<html><body>502 Bad Gateway</body></html>').message).toBeUndefined();
  });
});

describe('errorFromResponse', () => {
  it.each([
    [401, {}, 'unauthorized'],
    [403, { error: 'forbidden' }, 'unauthorized'],
    [402, {}, 'insufficient_credits'],
    [403, { error: { code: 'insufficient_credits', message: 'no money' } }, 'insufficient_credits'],
    [404, {}, 'not_found'],
    [410, { error: { code: 'result_expired' } }, 'not_found'],
    [422, { error: { code: 'validation_failed' } }, 'validation'],
    [400, { message: 'bad' }, 'validation'],
    [413, {}, 'payload_too_large'],
    [413, { error: { code: 'image_too_large' } }, 'payload_too_large'],
    [415, {}, 'unsupported_media'],
    [422, { error: { code: 'corrupt_image' } }, 'unsupported_media'],
    [429, { error: { code: 'concurrency_limit' } }, 'rate_limited'],
    [500, { error: { code: 'insufficient_credits' } }, 'server'],
    [503, {}, 'server'],
    [504, {}, 'timeout'],
    [418, {}, 'server'],
  ])('maps HTTP %i %j to %s', (status, body, code) => {
    const error = mapped(status, body);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
  });

  it('writes plain-language messages that quote the service and carry the facts', () => {
    const credits = mapped(402, { error: { code: 'insufficient_credits', message: 'Not enough credits', required: 5, available: 2 } });
    expect(credits.message).toMatch(/^Not enough credits for this request \(HTTP 402 from POST \/api\/v1\/workflows\/w\/execute\): Not enough credits \(needs 5, 2 available\)\.$/);
    expect([credits.required, credits.available]).toEqual([5, 2]);
    const limited = mapped(429, { error: 'slow down' }, '7');
    expect(limited.retryAfterMs).toBe(7000);
    expect(limited.message).toContain('retry in 7 s');
    expect(mapped(422, { error: { message: 'bad', field: 'globalOverrides.aspectRatio' } }).field).toBe('globalOverrides.aspectRatio');
  });

  it('never repeats the key or image bytes the service echoed back', () => {
    const echoed = mapped(401, { error: `Key ${KEY} is not valid; also Bearer ${KEY}; sk_live_someOtherKey9876` });
    expect(echoed.message).not.toContain(KEY);
    expect(echoed.message).not.toContain('someOtherKey');
    const dataUrl = `data:image/png;base64,${'iVBORw0KGgo'.repeat(50)}`;
    const image = mapped(422, { error: { message: `cannot decode ${dataUrl}`, field: 'images.photo' } });
    expect(image.message).not.toContain('iVBORw0KGgo');
    expect(image.message).toContain('data:image/png;base64,…');
    expect(JSON.stringify(image.detail)).not.toContain(KEY);
  });

  it('bounds very long service messages', () => {
    expect(mapped(400, { message: 'x '.repeat(2000) }).message.length).toBeLessThan(450);
  });
});

describe('parseRetryAfter and scrubImageBytes', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1, 0, 0, 0))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('removes long base64 runs', () => {
    expect(scrubImageBytes(`a ${'A'.repeat(300)} b`)).toBe('a … b');
  });
});
