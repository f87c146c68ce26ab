import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../main/core/app/create-core';
import { createInMemorySecretStore } from '../../../main/core/secrets';
import { startEmbeddedSandbox } from '../../../main/sandbox/embedded';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';

// The studio channels as every host serves them (createCore's handler map, the hosts' dispatcher): studio:status
// follows the URL saved in settings at each call, and settings:update refuses a ledger URL carrying a password.

let server: TestPostgres;
let dir: string;

beforeAll(async () => {
  server = await startTestPostgres();
  dir = mkdtempSync(join(tmpdir(), 'br-studio-core-'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('studio channels in the core', () => {
  it('reads the ledger saved in settings, and keeps a password out of the settings', async () => {
    const core = await createCore({
      host: { host: 'browser', platform: 'linux', previewUrlFor: (p) => p }, stateDir: join(dir, 'state'), withEngine: false,
      env: { PGPASSWORD: server.password, HOME: dir }, secretStore: createInMemorySecretStore(), startEmbeddedService: startEmbeddedSandbox,
      // The user confirms the ledger they typed (main asks: it receives the database password; origin-consent.test.ts).
      confirmOriginChange: { via: 'dialog', confirm: async () => true },
    });
    try {
      const call = createInvokeDispatcher(contract, core.handlers, { secrets: core.secrets });
      expect(await call('studio:status', {})).toMatchObject({ ok: false, code: 'unavailable', message: expect.stringMatching(/No shared studio ledger is set/) });

      const withPassword = await call('settings:update', { patch: { studioLedgerUrl: server.url.replace('postgres@', `postgres:${server.password}@`) } });
      expect(withPassword).toMatchObject({ ok: false, code: 'bad_request', field: 'patch.studioLedgerUrl' });
      expect(JSON.stringify(withPassword)).not.toContain(server.password);
      expect(await call('settings:get', {})).toMatchObject({ ok: true, data: { settings: { studioLedgerUrl: null } } });

      expect(await call('settings:update', { patch: { studioLedgerUrl: server.url } })).toMatchObject({ ok: true, data: { studioLedgerUrl: server.url } });
      expect(await call('studio:status', {})).toEqual({ ok: true, data: { ledger: server.url, schemaVersion: 0, instances: [], claimsInFlight: [], folders: [] } });
      expect(await call('studio:testConnection', { url: server.url })).toMatchObject({ ok: true, data: { ok: true } });
    } finally {
      await core.shutdown();
    }
  }, 30_000);
});
