import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceKeyValidator } from '../../../main/core/app/settings-handlers';
import { silentLogger } from '../../../main/core/log';
import { createInMemorySecretStore, saveValidatedKey, type KeyValidator } from '../../../main/core/secrets';

const GOOD = 'sk_live_goodkey000000abcd';
const BALANCE = { apiCredits: 120, webCredits: { total: 5, breakdown: [{ label: 'monthly', credits: 5 }] } };

// A stand-in service: /api/v1/balance answers per key; /html/api/v1/balance answers like a web page would.
let server: Server;
let base: string;
const seenAuth: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization ?? '');
    if (req.url === '/html/api/v1/balance') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
    } else if (req.url === '/down/api/v1/balance') {
      res.writeHead(503).end();
    } else if (req.url !== '/api/v1/balance') {
      res.writeHead(404).end();
    } else if (req.headers.authorization === `Bearer ${GOOD}`) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(BALANCE));
    } else {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

// The validator every host uses: the real service client, so a key is judged by the same rules as every other call.
describe('serviceKeyValidator', () => {
  const validate = serviceKeyValidator(silentLogger);

  it('accepts a key the service accepts and reads the balance with a bearer header', async () => {
    expect(await validate(`${base}/api/v1`, GOOD)).toEqual({ ok: true, balance: BALANCE });
    expect(seenAuth.at(-1)).toBe(`Bearer ${GOOD}`);
  });

  it('classifies rejections: unauthorized, wrong URL, network', async () => {
    expect(await validate(`${base}/api/v1`, 'sk_live_badkey0000000000')).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(await validate(`${base}/nope/api/v1`, GOOD)).toMatchObject({ ok: false, reason: 'wrong-url' });
    expect(await validate(`${base}/html/api/v1`, GOOD)).toMatchObject({ ok: false, reason: 'wrong-url' });
    expect(await validate(`${base}/down/api/v1`, GOOD)).toMatchObject({ ok: false, reason: 'network' });
    // A port nobody listens on (the server's own port, closed in a second server) → connection refused.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    expect(await validate(`http://127.0.0.1:${port}/api/v1`, GOOD)).toMatchObject({ ok: false, reason: 'network' });
  });
});

describe('saveValidatedKey', () => {
  it('stores an accepted key (trimmed) and reports its masked form and balance', async () => {
    const secretStore = createInMemorySecretStore();
    const result = await saveValidatedKey({ secretStore, serviceUrl: base, apiKey: `${GOOD}\n`, validate: serviceKeyValidator(silentLogger) });
    expect(result).toEqual({ ok: true, serviceUrl: `${base}/api/v1`, masked: 'sk_live_…abcd', balance: BALANCE });
    expect(await secretStore.get(`${base}/api/v1/`)).toBe(GOOD);
  });

  it('stores nothing for a rejected key and explains why without repeating the key', async () => {
    const secretStore = createInMemorySecretStore();
    const bad = 'sk_live_badkey0000000000';
    const result = await saveValidatedKey({ secretStore, serviceUrl: base, apiKey: bad, validate: serviceKeyValidator(silentLogger) });
    expect(result).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(JSON.stringify(result)).not.toContain(bad);
    expect(await secretStore.list()).toEqual([]);
  });

  it('redacts the key from a validator detail and turns a throwing validator into a network rejection', async () => {
    const secretStore = createInMemorySecretStore();
    const echoing: KeyValidator = async (_url, key) => ({ ok: false, reason: 'network', detail: `failed with ${key}` });
    const r1 = await saveValidatedKey({ secretStore, serviceUrl: base, apiKey: GOOD, validate: echoing });
    expect(r1.ok === false && r1.message).not.toContain(GOOD);
    const throwing: KeyValidator = async (_url, key) => {
      throw new Error(`boom Bearer ${key}`);
    };
    const r2 = await saveValidatedKey({ secretStore, serviceUrl: base, apiKey: GOOD, validate: throwing });
    expect(r2).toMatchObject({ ok: false, reason: 'network' });
    expect(JSON.stringify(r2)).not.toContain(GOOD);
    expect(await secretStore.list()).toEqual([]);
  });

  it('refuses pasted junk before asking the service', async () => {
    let called = false;
    const validate: KeyValidator = async () => {
      called = true;
      return { ok: true, balance: null };
    };
    const secretStore = createInMemorySecretStore();
    for (const junk of ['', 'sk_live_ab cd1234', 'short']) {
      expect(await saveValidatedKey({ secretStore, serviceUrl: base, apiKey: junk, validate })).toMatchObject({ ok: false, reason: 'malformed' });
    }
    expect(called).toBe(false);
  });
});
