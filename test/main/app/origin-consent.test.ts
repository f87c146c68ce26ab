import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../main/core/app/create-core';
import type { ConfirmOriginChange, ConsentRequest } from '../../../main/core/app/origin-consent';
import type { CoreOptions, HostCapabilities } from '../../../main/core/app/types';
import { createCodeConsent } from '../../../main/host/consent-code';
import { createInMemorySecretStore, type SecretStore } from '../../../main/core/secrets';
import { startEmbeddedSandbox } from '../../../main/sandbox/embedded';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher } from '../../../shared/ipc/dispatch';
import { startTestSandbox } from '../../helpers/sandbox';
import { useCoreTestBed } from './core-test-bed';

// Issue 30 item 1: a compromised renderer (any IPC message, any arguments) must not be able to move the stored key,
// or the photos, to an origin of its choosing. The "attacker" is a second sandbox; it must see no request at all.

const host: HostCapabilities = { host: 'browser', platform: 'linux', previewUrlFor: (p) => `/media/x/${encodeURIComponent(p)}` };
const bed = useCoreTestBed('consent');
let attacker: RunningSandbox;
beforeAll(async () => (attacker = await startTestSandbox()));
afterAll(() => attacker.close());

/** A user who answers each question from a script (true = confirm), and remembers what was asked. */
function scriptedUser(...answers: boolean[]): ConfirmOriginChange & { asked: ConsentRequest[] } {
  const asked: ConsentRequest[] = [];
  return { via: 'dialog', asked, confirm: async (request) => (asked.push(request), answers.shift() ?? false) };
}

let counter = 0;
async function start(extra: Partial<CoreOptions> & { secretStore?: SecretStore } = {}) {
  counter += 1;
  const core = await createCore({
    host, stateDir: join(bed.dir, `state-${counter}`), env: {}, secretStore: createInMemorySecretStore(), startEmbeddedService: startEmbeddedSandbox,
    withEngine: false, ...extra,
  });
  return { core, dispatch: createInvokeDispatcher(contract, core.handlers, { secrets: core.secrets }) };
}

const requestsTo = (sandbox: RunningSandbox) => Object.values(sandbox.stats().requestsByRoute).reduce((a, b) => a + b, 0);
const origin = (url: string) => new URL(url).origin;

describe('origin consent (core)', () => {
  it('settings:update {serviceUrl} + key:reuse without a confirmation: the key stays, the attacker hears nothing', async () => {
    const secretStore = createInMemorySecretStore();
    const user = scriptedUser(true); // the user once chose the real service; every later question is refused
    const { core, dispatch } = await start({ secretStore, confirmOriginChange: user });
    try {
      expect(await dispatch('settings:update', { patch: { serviceUrl: bed.sandbox.url } })).toMatchObject({ ok: true });
      expect(await dispatch('key:set', { apiKey: bed.sandbox.apiKey })).toMatchObject({ ok: true, data: { mode: 'live' } });
      const before = requestsTo(attacker);

      // The compromised renderer's two steps.
      expect(await dispatch('settings:update', { patch: { serviceUrl: attacker.url } })).toMatchObject({ ok: false, code: 'cancelled' });
      expect(await dispatch('key:reuse', { fromServiceUrl: bed.sandbox.url })).toMatchObject({ ok: true, data: { serviceUrl: bed.sandbox.url } }); // same origin: nothing moves
      expect(await dispatch('settings:get', {})).toMatchObject({ ok: true, data: { settings: { serviceUrl: bed.sandbox.url } } });
      expect(await secretStore.get(attacker.url)).toBeNull();
      expect(await dispatch('balance:get', {})).toMatchObject({ ok: true }); // still the real service
      expect(requestsTo(attacker)).toBe(before);
      expect(user.asked.at(-1)).toEqual({ kind: 'change-service', from: origin(bed.sandbox.url), to: origin(attacker.url) });
    } finally {
      await core.shutdown();
    }
  });

  it('key:reuse to another origin waits for its own confirmation, even after the service change was confirmed', async () => {
    const secretStore = createInMemorySecretStore();
    await secretStore.set(bed.sandbox.url, bed.sandbox.apiKey);
    const user = scriptedUser(true, true, false, true); // real service, then attacker's URL, then: refuse, confirm
    const { core, dispatch } = await start({ secretStore, confirmOriginChange: user });
    try {
      await dispatch('settings:update', { patch: { serviceUrl: bed.sandbox.url } });
      expect(await dispatch('settings:update', { patch: { serviceUrl: attacker.url } })).toMatchObject({ ok: true });
      const before = requestsTo(attacker);
      expect(await dispatch('key:reuse', { fromServiceUrl: bed.sandbox.url })).toMatchObject({ ok: false, code: 'cancelled' });
      expect(user.asked.at(-1)).toEqual({ kind: 'move-key', from: origin(bed.sandbox.url), to: origin(attacker.url) });
      expect(await secretStore.get(attacker.url)).toBeNull();
      expect(requestsTo(attacker)).toBe(before); // not even the validating balance read
      // Confirmed: it moves (and is validated there).
      expect(await dispatch('key:reuse', { fromServiceUrl: bed.sandbox.url })).toMatchObject({ ok: true, data: { mode: 'live', serviceUrl: attacker.url } });
      expect(await secretStore.get(attacker.url)).toBe(bed.sandbox.apiKey);
    } finally {
      await core.shutdown();
    }
  });

  it('a host that cannot ask refuses every change of origin', async () => {
    const { core, dispatch } = await start();
    try {
      const before = requestsTo(attacker);
      expect(await dispatch('settings:update', { patch: { serviceUrl: attacker.url } })).toMatchObject({ ok: false, code: 'cancelled' });
      expect(await dispatch('settings:update', { patch: { theme: 'dark' } })).toMatchObject({ ok: true }); // the rest is as before
      expect(await dispatch('consent:answer', { code: '12345678' })).toMatchObject({ ok: false, code: 'unsupported' });
      expect(requestsTo(attacker)).toBe(before);
    } finally {
      await core.shutdown();
    }
  });

  it('key:allowOrigin is refused without a confirmation and works with one', async () => {
    const here = bed.sandbox.url;
    const other = here.replace('127.0.0.1', 'localhost');
    const user = scriptedUser(true, true, false, true);
    const { core, dispatch } = await start({ env: { BATCHROOM_API_KEY: bed.sandbox.apiKey }, confirmOriginChange: user });
    try {
      await dispatch('settings:update', { patch: { serviceUrl: here } });
      expect(await dispatch('service:status', {})).toMatchObject({ ok: true, data: { mode: 'live', keySource: 'env' } });
      await dispatch('settings:update', { patch: { serviceUrl: other } });
      expect(await dispatch('key:allowOrigin', {})).toMatchObject({ ok: false, code: 'cancelled' });
      expect(user.asked.at(-1)).toEqual({ kind: 'trust-origin', from: origin(here), to: origin(other) });
      expect(await dispatch('key:status', {})).toMatchObject({ ok: true, data: { hasKey: false, awaitingOriginConfirmation: true } });
      expect(await dispatch('balance:get', {})).toMatchObject({ ok: false });
      expect(await dispatch('key:allowOrigin', {})).toMatchObject({ ok: true, data: { mode: 'live', source: 'env', awaitingOriginConfirmation: false } });
      expect(await dispatch('balance:get', {})).toMatchObject({ ok: true });
    } finally {
      await core.shutdown();
    }
  });

  it('browser host: the change waits for the terminal\'s code, tells the page, and takes only the right one', async () => {
    const printed: string[] = [];
    const { core, dispatch } = await start({ confirmOriginChange: createCodeConsent({ print: (text) => void printed.push(text) }) });
    const asked: unknown[] = [];
    core.onEvent((channel, payload) => channel === 'consent:requested' && asked.push(payload));
    const codeOnTerminal = () => [...printed.join('').matchAll(/type this code in the page: (\d{4}) (\d{4})/g)].at(-1)!.slice(1).join('');
    try {
      const refused = dispatch('settings:update', { patch: { serviceUrl: attacker.url } });
      await expect.poll(() => printed.length).toBeGreaterThan(0);
      expect(asked).toEqual([expect.objectContaining({ kind: 'change-service', to: origin(attacker.url), via: 'code' })]);
      const wrong = codeOnTerminal() === '00000000' ? '00000001' : '00000000';
      expect(await dispatch('consent:answer', { code: wrong })).toEqual({ ok: true, data: { accepted: false, reason: 'wrong', triesLeft: 2 } });
      expect(await dispatch('consent:cancel', {})).toMatchObject({ ok: true });
      expect(await refused).toMatchObject({ ok: false, code: 'cancelled' });

      const accepted = dispatch('settings:update', { patch: { serviceUrl: bed.sandbox.url } });
      await expect.poll(() => asked.length).toBe(2);
      const code = codeOnTerminal();
      expect(await dispatch('consent:answer', { code })).toEqual({ ok: true, data: { accepted: true } });
      expect(await accepted).toMatchObject({ ok: true, data: { serviceUrl: bed.sandbox.url } });
      expect(await dispatch('consent:answer', { code })).toEqual({ ok: true, data: { accepted: false, reason: 'none' } }); // used up
    } finally {
      await core.shutdown();
    }
  });

  it('the studio ledger (it gets the database password): a new host, or no TLS, only with a confirmation', async () => {
    const user = scriptedUser(true, false, false);
    const { core, dispatch } = await start({ confirmOriginChange: user });
    try {
      // The user sets up their ledger once (confirmed)…
      expect(await dispatch('settings:update', { patch: { studioLedgerUrl: 'postgres://studio@127.0.0.1:5432/batchroom' } })).toMatchObject({ ok: true });
      expect(user.asked.at(-1)).toEqual({ kind: 'change-ledger', from: 'no studio ledger', to: 'postgres://127.0.0.1:5432' });
      // …then the compromised renderer points it at its own server, and turns TLS off: both refused, nothing saved.
      expect(await dispatch('settings:update', { patch: { studioLedgerUrl: 'postgres://studio@attacker.example:5432/batchroom?sslmode=require' } }))
        .toMatchObject({ ok: false, code: 'cancelled' });
      expect(await dispatch('settings:update', { patch: { studioLedgerAllowPlaintext: true } })).toMatchObject({ ok: false, code: 'cancelled' });
      expect(await dispatch('settings:get', {})).toMatchObject({
        ok: true, data: { settings: { studioLedgerUrl: 'postgres://studio@127.0.0.1:5432/batchroom', studioLedgerAllowPlaintext: false } },
      });
      // Another database on the same server asks nothing: the password goes where it went.
      expect(await dispatch('settings:update', { patch: { studioLedgerUrl: 'postgres://studio@127.0.0.1:5432/other' } })).toMatchObject({ ok: true });
      expect(user.asked).toHaveLength(3);
    } finally {
      await core.shutdown();
    }
  });
});
