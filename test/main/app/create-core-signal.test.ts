import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../main/core/app/create-core';
import type { StartStep } from '../../../main/core/app/start-steps';
import type { CoreOptions } from '../../../main/core/app/types';
import { createLogger } from '../../../main/core/log';
import { createInMemorySecretStore } from '../../../main/core/secrets';
import { seedUnfinishedState, unfinishedStateNow } from '../../helpers/unfinished-state';
import { useCoreTestBed } from './core-test-bed';

// A host that stops while the core starts (`ui`: Ctrl-C in the ≈ 0.2 s the journal, engine and hot folders load)
// passes createCore a signal: wherever it aborts, the start stops there — nothing armed, nothing submitted — and
// what had opened is closed again, the journal left as a later start expects it.

const STEPS: StartStep[] = ['service', 'journal', 'recovery', 'hot folders', 'submitting'];
const bed = useCoreTestBed('core-signal');

const executes = bed.executes;

function coreOptions(stateDir: string, extra: Partial<CoreOptions>): CoreOptions {
  return { host: { host: 'browser', platform: 'linux', previewUrlFor: (p) => `/media/x/${encodeURIComponent(p)}` }, stateDir, env: {}, secretStore: createInMemorySecretStore(), startHotFolders: true, ...extra };
}

describe('createCore stopped by its signal while it starts', { timeout: 60_000 }, () => {
  for (const [index, step] of STEPS.entries()) {
    it(`before "${step}": nothing from there on runs, what opened is closed (the lock before the connection), and a later start finds the journal as it expects`, async () => {
      const root = join(bed.dir, step.replace(' ', '-'));
      const stateDir = join(root, 'state');
      const seeded = await seedUnfinishedState(stateDir, root, bed.sandbox);
      const controller = new AbortController();
      const stopped = new Error('stopped while the core started');
      const reached: string[] = [];
      const logger = createLogger({
        minLevel: 'debug',
        sink: (record) => {
          if (record.message !== 'core start') return;
          reached.push(String(record.fields?.step));
          if (record.fields?.step === step) controller.abort(stopped);
        },
      });
      // The connection is the embedded service's (no key): its close says whether the engine lock was still held.
      let lockHeldAtClose: boolean | undefined;
      const startEmbeddedService = async () => ({
        url: bed.sandbox.url,
        apiKey: bed.sandbox.apiKey,
        close: async () => {
          lockHeldAtClose = existsSync(join(stateDir, 'engine.lock'));
        },
      });
      const before = executes();

      await expect(createCore(coreOptions(stateDir, { logger, startEmbeddedService, signal: controller.signal }))).rejects.toBe(stopped);
      expect(reached).toEqual(STEPS.slice(0, index + 1));
      expect(lockHeldAtClose).toBe(step === 'service' ? undefined : false); // before "service" nothing was opened
      expect(existsSync(join(stateDir, 'engine.lock'))).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 300)); // nothing left running sends anything later either
      expect(executes()).toBe(before);
      const recovered = STEPS.indexOf('recovery') < index;
      expect(unfinishedStateNow(stateDir, seeded)).toEqual({
        pending: 'pending',
        encoding: recovered ? 'pending' : 'encoding',
        // Armed only from "submitting" on, and then closed before its photo went further than the journal.
        hotFolderBatches: step === 'submitting' ? expect.any(Number) : 0,
      });

      // The next start (no signal) takes the lock, recovers, and sends what was waiting.
      const next = await createCore(coreOptions(stateDir, { startEmbeddedService }));
      try {
        await expect.poll(executes, { timeout: 20_000, interval: 50 }).toBeGreaterThan(before);
      } finally {
        await next.shutdown();
      }
    });
  }
});
