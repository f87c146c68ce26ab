import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studioChannels } from '../../../shared/ipc/channels/studio';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';
import { createStudioHandlers, type StudioHandlerDeps } from '../../../main/core/studio/handlers';
import { LEDGER_KEYCHAIN_SERVICE } from '../../../main/core/studio/password';
import { openStudioLedger } from '../../../main/core/studio/studio-ledger';
import { createInMemoryKeytar } from '../../../main/core/secrets';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';

// The app's studio:* channels against a real PostgreSQL, through the same dispatcher every host uses (arguments and
// results checked against the contract); the keychain is an in-memory keytar.

let server: TestPostgres;
let home: string;

beforeAll(async () => {
  server = await startTestPostgres();
  home = mkdtempSync(join(tmpdir(), 'br-studio-home-'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

function setup(overrides: Partial<StudioHandlerDeps> = {}) {
  const keytar = createInMemoryKeytar();
  let saved: string | null = null;
  // HOME points at an empty folder: no ~/.pgpass of the machine running the tests takes part.
  const deps: StudioHandlerDeps = { ledgerUrl: () => saved, env: { HOME: home }, keytar: async () => keytar, ...overrides };
  const call = createInvokeDispatcher(studioChannels, createStudioHandlers(deps));
  return { keytar, call, setUrl: (url: string | null) => { saved = url; } };
}

describe('studio:* handlers', () => {
  it('saves the password in the keychain under the display URL; the connection test then logs in with it', async () => {
    const { keytar, call, setUrl } = setup();
    setUrl(server.url); // a password goes only to the saved ledger's host (studio-password-leak.test.ts)
    const before = await call('studio:testConnection', { url: server.url });
    expect(before).toMatchObject({ ok: true, data: { ok: false, ledger: server.url } });
    expect((before as { data: { message: string } }).data.message).toMatch(/password|login|refused/i);

    const saved = await call('studio:savePassword', { url: `  ${server.url}  `, password: server.password });
    expect(saved).toEqual({ ok: true, data: { ledger: server.url, shadowedBy: null } });
    expect(await keytar.getPassword(LEDGER_KEYCHAIN_SERVICE, server.url)).toBe(server.password);
    expect(JSON.stringify(saved)).not.toContain(server.password);

    const after = await call('studio:testConnection', { url: server.url });
    expect(after).toMatchObject({ ok: true, data: { ok: true, ledger: server.url, message: expect.stringMatching(/^connected to PostgreSQL \d+/) } });

    expect(await call('studio:forgetPassword', { url: server.url })).toEqual({ ok: true, data: { ledger: server.url, removed: true } });
    expect(await keytar.getPassword(LEDGER_KEYCHAIN_SERVICE, server.url)).toBeNull();
    expect(await call('studio:forgetPassword', { url: server.url })).toEqual({ ok: true, data: { ledger: server.url, removed: false } });
  });

  it('says when PGPASSWORD wins over the password saved in the keychain', async () => {
    const { call } = setup({ env: { HOME: home, PGPASSWORD: 'from-env' } });
    expect(await call('studio:savePassword', { url: server.url, password: 'typed-pw' })).toEqual({ ok: true, data: { ledger: server.url, shadowedBy: 'PGPASSWORD' } });
  });

  it('refuses a password in the URL, an empty password, and a URL that is not postgres://', async () => {
    const { keytar, call } = setup();
    const inUrl = await call('studio:savePassword', { url: server.url.replace('postgres@', 'postgres:hunter2@'), password: 'x' });
    expect(inUrl).toMatchObject({ ok: false, code: 'validation', field: 'ledgerUrl' });
    expect(JSON.stringify(inUrl)).not.toContain('hunter2');
    expect(await call('studio:savePassword', { url: server.url, password: '' })).toMatchObject({ ok: false, code: 'bad_request', field: 'password' });
    expect(await call('studio:testConnection', { url: 'mysql://me@db/x' })).toMatchObject({ ok: true, data: { ok: false, message: expect.stringMatching(/must start with postgres:\/\//) } });
    expect(keytar.entries.size).toBe(0);
  });

  it('without a keychain, tells the user to use PGPASSWORD or ~/.pgpass and never echoes the password', async () => {
    const broken = setup({ keytar: async () => ({ ...createInMemoryKeytar(), setPassword: async (_s, _a, pw) => { throw new Error(`Cannot autolaunch D-Bus (${pw})`); } }) });
    const refused = await broken.call('studio:savePassword', { url: server.url, password: 'sekret-123' });
    expect(refused).toMatchObject({ ok: false, code: 'keychain_unavailable', hint: expect.stringMatching(/PGPASSWORD.*~\/\.pgpass/) });
    expect(JSON.stringify(refused)).not.toContain('sekret-123');
    const missing = setup({ keytar: () => Promise.reject(new Error('keytar.node: cannot open shared object file')) });
    expect(await missing.call('studio:forgetPassword', { url: server.url })).toMatchObject({ ok: false, code: 'keychain_unavailable' });
  });

  it('reads the status of the saved ledger: a clear refusal when none is set, then its instances and budgets', async () => {
    const { call, setUrl, keytar } = setup();
    expect(await call('studio:status', {})).toMatchObject({ ok: false, code: 'unavailable', message: expect.stringMatching(/No shared studio ledger is set/) });
    setUrl(server.url);
    await keytar.setPassword(LEDGER_KEYCHAIN_SERVICE, server.url, server.password);
    expect(await call('studio:status', {})).toEqual({ ok: true, data: { ledger: server.url, schemaVersion: 0, instances: [], claimsInFlight: [], folders: [] } });

    const ledger = await openStudioLedger({ url: server.url, instanceId: 'panel-a', version: '9.9.9', env: { PGPASSWORD: server.password }, heartbeatMs: 3_600_000 });
    try {
      await ledger.setFolder('shoot', 100);
      await ledger.claim({ key: 'k1', folderKey: 'shoot', contentHash: 'h1', workflowId: 'wf', parametersHash: 'ph', relPath: 'a/IMG_1.jpg', sourcePath: '/mnt/a/IMG_1.jpg', cost: 2 });
      const status = await call('studio:status', {});
      expect(status).toMatchObject({
        ok: true,
        data: {
          instances: [expect.objectContaining({ id: 'panel-a', version: '9.9.9', alive: true, stopped: false, inFlight: 1 })],
          claimsInFlight: [expect.objectContaining({ folderKey: 'shoot', relPath: 'a/IMG_1.jpg', state: 'claimed', owner: 'panel-a' })],
          folders: [expect.objectContaining({ folderKey: 'shoot', budget: 100, creditsCommitted: 2 })],
        },
      });
    } finally {
      await ledger.close();
    }
    await server.stopServer();
    try {
      expect(await call('studio:status', {})).toMatchObject({ ok: false, code: 'unavailable', message: expect.stringMatching(/studio ledger unreachable/) });
    } finally {
      await server.startServer();
    }
  }, 30_000);
});
