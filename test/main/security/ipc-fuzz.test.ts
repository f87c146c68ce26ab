import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../main/core/app/create-core';
import type { Core } from '../../../main/core/app/types';
import { createInMemorySecretStore } from '../../../main/core/secrets';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { ERROR_CODES } from '../../../shared/errors';
import { contract } from '../../../shared/ipc/contract';
import { createInvokeDispatcher, type InvokeDispatcher } from '../../../shared/ipc/dispatch';
import { startTestSandbox } from '../../helpers/sandbox';

// A compromised renderer sends whatever it likes. 10,000 seeded random messages — known and unknown channels,
// argument shapes built from each channel's own keys with hostile values — through the real core's handlers and the
// one dispatcher every host uses: nothing may throw, every answer is an envelope, every refusal a typed error.

const MESSAGES = 10_000;
const SEED = 0x5eed18;

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_STRINGS = [
  '', ' ', '\0', 'a\0b', '../../../../etc/passwd', '/etc/passwd', 'C:\\Windows\\System32\\calc.exe', '/Applications/Calculator.app',
  'file:///etc/passwd', 'batchroom://app/../../x', 'javascript:alert(1)', 'http://169.254.169.254/', '__proto__', 'constructor',
  'toString', 'x'.repeat(100_000), '😀'.repeat(1000), '%00%2e%2e%2f', 'sk_live_ABCDEFGHIJKLMNOP1234', '${jndi:ldap://x}', '<script>',
  "'; DROP TABLE items; --", 'NaN', '-1', '1e309', '\u202e', '\ud800',
];

function value(random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  switch (Math.floor(random() * (depth > 3 ? 7 : 10))) {
    case 0: return null;
    case 1: return undefined;
    case 2: return pick([0, -1, 1.5, 2 ** 53, -(2 ** 63), Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_VALUE, -0]);
    case 3: return pick([true, false]);
    case 4: return pick(HOSTILE_STRINGS);
    case 5: return Math.random().toString(36).slice(2);
    case 6: return pick([[], {}, '', 0]);
    case 7: return Array.from({ length: Math.floor(random() * 5) }, () => value(random, depth + 1));
    case 8: {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(random() * 4); i += 1) out[pick(['a', 'path', 'id', '__proto__', 'constructor', 'patch', 'apiKey'])] = value(random, depth + 1);
      return out;
    }
    default: return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
  }
}

/** The keys a channel's argument object expects (zod object shape), so shapes get past the first check sometimes. */
function keysOf(channel: string): string[] {
  const spec = (contract as Record<string, { kind: string; args?: { shape?: Record<string, unknown> } }>)[channel];
  return Object.keys(spec?.args?.shape ?? {});
}

function argumentsFor(channel: string, random: () => number): unknown {
  const roll = random();
  if (roll < 0.15) return value(random);
  const out: Record<string, unknown> = {};
  for (const key of keysOf(channel)) if (random() < 0.8) out[key] = value(random, 1);
  if (roll > 0.9) out[`extra${Math.floor(random() * 3)}`] = value(random, 1);
  return out;
}

let dir: string;
let sandbox: RunningSandbox;
let core: Core;
let dispatch: InvokeDispatcher;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-fuzz-'));
  sandbox = await startTestSandbox();
  core = await createCore({
    host: { host: 'browser', platform: 'linux', previewUrlFor: (p) => `/media/x/${encodeURIComponent(p)}` },
    stateDir: join(dir, 'state'), env: {}, secretStore: createInMemorySecretStore(), apiKey: sandbox.apiKey, serviceUrl: sandbox.url,
  });
  dispatch = createInvokeDispatcher(contract, core.handlers, { secrets: core.secrets });
});
afterAll(async () => {
  await core?.shutdown({ graceful: false, timeoutMs: 5000 });
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('IPC fuzz', () => {
  it(`answers ${MESSAGES} random messages with envelopes only: no crash, every refusal typed`, async () => {
    const random = prng(SEED);
    const channels = Object.keys(contract);
    const strays = ['', 'files:', 'files:reveal ', 'FILES:REVEAL', '__proto__', 'constructor', 'hasOwnProperty', 'batches:progress', 'app:navigate', 'x'.repeat(5000), 'settings:update\0'];
    const counts = { ok: 0, refused: 0, byCode: {} as Record<string, number> };
    const internal: string[] = [];
    for (let i = 0; i < MESSAGES; i += 1) {
      const channel = random() < 0.85 ? channels[Math.floor(random() * channels.length)]! : strays[Math.floor(random() * strays.length)]!;
      const args = argumentsFor(channel, random);
      let result: Awaited<ReturnType<InvokeDispatcher>>;
      try {
        result = await dispatch(channel, args);
      } catch (error) {
        throw new Error(`message ${i} (${channel}) crashed the dispatcher: ${String(error)}`);
      }
      expect(typeof result.ok).toBe('boolean');
      if (result.ok) {
        counts.ok += 1;
        continue;
      }
      counts.refused += 1;
      counts.byCode[result.code] = (counts.byCode[result.code] ?? 0) + 1;
      expect(ERROR_CODES, `message ${i} ${channel}`).toContain(result.code);
      expect(typeof result.message).toBe('string');
      expect(result.message).not.toContain('ABCDEFGHIJKLMNOP1234');
      if (result.code === 'internal') internal.push(`${channel}: ${result.message.slice(0, 200)}`);
    }
    // An `internal` answer is an unexpected exception inside a handler: a crash caught by the last net.
    expect(internal).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(counts.ok + counts.refused).toBe(MESSAGES);
    expect(counts.byCode.bad_request).toBeGreaterThan(0);
    // Paths named by the fuzzer were never granted: the files:* channels refused them with the typed code.
    expect(counts.byCode.forbidden_path ?? 0).toBeGreaterThan(0);
    console.info(`ipc fuzz: ${MESSAGES} messages, ${counts.ok} ok, ${counts.refused} refused ${JSON.stringify(counts.byCode)}`);
  }, 600_000);
});
