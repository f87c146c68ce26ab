import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createCore } from '../../../main/core/app/create-core';
import type { Core } from '../../../main/core/app/types';
import { browserHostCapabilities, startBrowserHost, type BrowserHost } from '../../../main/host/browser-host';
import { createCodeConsent } from '../../../main/host/consent-code';
import { createHostMediaRegistry } from '../../../main/host/media-registry';
import { createInMemorySecretStore } from '../../../main/core/secrets';

// The browser host end to end: the page (a real WebSocket with the token) asks to change the service; the core waits
// for the code printed on the "terminal"; only that code, once and in time, lets the change through.

let dir: string;
let core: Core;
let host: BrowserHost;
const printed: string[] = [];
let lateBy = 0; // the code's clock runs this far ahead: how the test lets a code expire without waiting 2 minutes
const codesPrinted = () => [...printed.join('').matchAll(/type this code in the page/g)].length;
const lastCode = () => [...printed.join('').matchAll(/type this code in the page: (\d{4}) (\d{4})/g)].at(-1)?.slice(1).join('') ?? '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-consent-ws-'));
  await mkdir(join(dir, 'renderer'), { recursive: true });
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Batchroom UI</title>');
  const media = createHostMediaRegistry();
  core = await createCore({
    host: browserHostCapabilities(media), stateDir: join(dir, 'state'), env: {}, secretStore: createInMemorySecretStore(), withEngine: false,
    confirmOriginChange: createCodeConsent({ print: (text) => void printed.push(text), now: () => Date.now() + lateBy }),
  });
  host = await startBrowserHost({ core, media, rendererDir: join(dir, 'renderer'), uploadDir: join(dir, 'uploads'), token: 'C'.repeat(43) });
});

afterAll(async () => {
  await host.close();
  await core.shutdown();
  await rm(dir, { recursive: true, force: true });
});

async function page() {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { origin: `http://127.0.0.1:${host.port}` } });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const inbox: Array<Record<string, unknown>> = [];
  ws.on('message', (data) => inbox.push(JSON.parse(String(data)) as Record<string, unknown>));
  let id = 0;
  const send = (channel: string, args: unknown) => {
    id += 1;
    ws.send(JSON.stringify({ id, channel, args }));
    return id;
  };
  const reply = async (of: number) => {
    await expect.poll(() => inbox.some((m) => m.id === of), { timeout: 5000 }).toBe(true);
    return inbox.find((m) => m.id === of)!.result as Record<string, unknown>;
  };
  return { ws, inbox, send, reply };
}

describe('browser host: the origin confirmation code', () => {
  it('refuses a wrong, a reused and an expired code; the right one, once and in time, lets the change through', async () => {
    const { ws, inbox, send, reply } = await page();
    try {
      const target = 'http://127.0.0.1:9/api/v1';
      const change = send('settings:update', { patch: { serviceUrl: target } });
      await expect.poll(() => inbox.find((m) => m.event === 'consent:requested')).toMatchObject({ payload: { kind: 'change-service', to: 'http://127.0.0.1:9', via: 'code' } });
      const code = lastCode();
      const wrong = code === '00000000' ? '99999999' : '00000000';
      expect(await reply(send('consent:answer', { code: wrong }))).toEqual({ ok: true, data: { accepted: false, reason: 'wrong', triesLeft: 2 } });
      expect(inbox.some((m) => m.id === change)).toBe(false); // still waiting for the person at the terminal
      expect(await reply(send('consent:answer', { code }))).toEqual({ ok: true, data: { accepted: true } });
      expect(await reply(change)).toMatchObject({ ok: true, data: { serviceUrl: target } });
      expect(await reply(send('consent:answer', { code }))).toEqual({ ok: true, data: { accepted: false, reason: 'none' } }); // reused

      // Expired: nobody typed it in time; the change is refused and the code no longer works.
      const back = send('settings:update', { patch: { serviceUrl: 'http://127.0.0.2:9/api/v1' } });
      await expect.poll(codesPrinted).toBe(2);
      lateBy = 120_001;
      const late = lastCode();
      expect(await reply(send('consent:answer', { code: late }))).toEqual({ ok: true, data: { accepted: false, reason: 'expired' } });
      expect(await reply(back)).toMatchObject({ ok: false, code: 'cancelled' });
      expect(await reply(send('consent:answer', { code: late }))).toEqual({ ok: true, data: { accepted: false, reason: 'none' } });
      expect(await reply(send('settings:get', {}))).toMatchObject({ ok: true, data: { settings: { serviceUrl: target } } });
    } finally {
      ws.close();
    }
  });
});
