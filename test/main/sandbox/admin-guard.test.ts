import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedAdminOrigin } from '../../../main/sandbox/admin-guard';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';

// Issue 30 item 9: any web page could POST /sandbox/outage or /sandbox/faults (no key, Origin ignored, a text/plain
// body accepted — a "simple" cross-origin request needing no preflight) and take the sandbox down. Each refusal
// below must leave the sandbox serving and its faults unchanged.

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

const base = () => sandbox.url.replace(/\/api\/v1$/, '');
const key = () => `Bearer ${sandbox.apiKey}`;
const json = 'application/json';

describe('sandbox admin routes', () => {
  it.each([
    ['no key', '/sandbox/outage', { 'content-type': json }, 401],
    ['no key', '/sandbox/faults', { 'content-type': json }, 401],
    ['a form post (text/plain)', '/sandbox/outage', { 'content-type': 'text/plain', auth: true }, 415],
    ['a form post (urlencoded)', '/sandbox/faults', { 'content-type': 'application/x-www-form-urlencoded', auth: true }, 415],
    ['no content type', '/sandbox/outage', { auth: true }, 415],
    ['a foreign Origin', '/sandbox/outage', { 'content-type': json, origin: 'https://evil.example', auth: true }, 403],
    ['a foreign Origin', '/sandbox/faults', { 'content-type': json, origin: 'http://127.0.0.1:1', auth: true }, 403],
    ['Origin null', '/sandbox/faults', { 'content-type': json, origin: 'null', auth: true }, 403],
    ['a foreign Origin', '/sandbox/credits', { 'content-type': json, origin: 'http://evil.localhost', auth: true }, 403],
  ] as const)('refuses %s on %s (%#)', async (_what, path, headers, status) => {
    const { auth, ...rest } = headers as Record<string, string | boolean>;
    const body = path === '/sandbox/outage' ? '{"ms":60000}' : path === '/sandbox/credits' ? '{"credits":0}' : '{"dropBeforeRate":1}';
    const response = await fetch(`${base()}${path}`, { method: 'POST', headers: { ...(rest as Record<string, string>), ...(auth ? { authorization: key() } : {}) }, body });
    expect(response.status).toBe(status);
    // Still serving, faults untouched.
    const faults = await fetch(`${base()}/sandbox/faults`, { headers: { authorization: key() } });
    expect(faults.status).toBe(200);
    expect(((await faults.json()) as { faults: { dropBeforeRate: number } }).faults.dropBeforeRate).toBe(0);
  });

  it('GET /sandbox/faults needs the key too', async () => {
    expect((await fetch(`${base()}/sandbox/faults`)).status).toBe(401);
  });

  it('accepts the key with a JSON body, from no Origin or the sandbox\'s own', async () => {
    const own = new URL(sandbox.url).origin;
    for (const origin of [undefined, own]) {
      const response = await fetch(`${base()}/sandbox/faults`, {
        method: 'POST', headers: { 'content-type': json, authorization: key(), ...(origin ? { origin } : {}) }, body: '{"latencyMs":0}',
      });
      expect(response.status).toBe(200);
    }
  });

  it.each([
    [undefined, true], ['http://127.0.0.1:4010', true], ['http://localhost:4010', true], ['http://[::1]:4010', true],
    ['http://127.0.0.1:4011', false], ['https://127.0.0.1:4010', false], ['http://evil.example:4010', false], ['null', false],
    ['http://192.168.1.5:4010', false],
  ] as const)('Origin %s for a sandbox on 127.0.0.1:4010: %s', (origin, expected) => {
    expect(isAllowedAdminOrigin(origin, 'http://127.0.0.1:4010')).toBe(expected);
  });
});
