import { join } from 'node:path';
import { createEngine, type Engine, type EngineOptions } from '../../../main/core/engine';
import { openJournal, type Journal } from '../../../main/core/journal';
import { createServiceClient, type ServiceClient } from '../../../main/core/service';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { makeTempDir } from './helpers';

/** An engine on a real journal against a real sandbox, in a temp folder: what most engine tests start from. */
export interface SandboxRig {
  dir: { path: string; cleanup: () => Promise<void> };
  sandbox: RunningSandbox;
  journal: Journal;
  /** The plain client of the sandbox (a test may wrap it and restart the engine with the wrapper). */
  client: ServiceClient;
  engine: Engine;
  /** Stops the engine (as a crash would when `graceful` is false) and starts a new one on the same journal. */
  restart(options?: { client?: ServiceClient; graceful?: boolean }): Promise<Engine>;
  close(): Promise<void>;
}

export interface SandboxRigOptions {
  credits?: number;
  executionDurationMs?: number;
  concurrency?: number;
  client?: (real: ServiceClient) => ServiceClient;
  /** More engine options, for the first engine and every restart. */
  engine?: Partial<Omit<EngineOptions, 'journal' | 'client' | 'concurrency'>>;
}

export async function startSandboxRig(options: SandboxRigOptions = {}): Promise<SandboxRig> {
  const dir = await makeTempDir();
  const sandbox = await startTestSandbox({ executionDurationMs: options.executionDurationMs ?? 60, credits: options.credits ?? 100 });
  const journal = openJournal(join(dir.path, 'state'));
  const client = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const concurrency = options.concurrency ?? 4;
  const rig: SandboxRig = {
    dir, sandbox, journal, client,
    engine: createEngine({ ...options.engine, journal, client: options.client ? options.client(client) : client, concurrency }),
    async restart({ client: next = client, graceful = true } = {}) {
      await rig.engine.stop({ graceful });
      rig.engine = createEngine({ ...options.engine, journal, client: next, concurrency });
      await rig.engine.start();
      return rig.engine;
    },
    async close() {
      await rig.engine.stop({ graceful: false });
      journal.close();
      await sandbox.close();
      await dir.cleanup();
    },
  };
  await rig.engine.start();
  return rig;
}
