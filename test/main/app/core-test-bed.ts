import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';

const EXECUTE = 'POST /api/v1/workflows/:id/execute';

export interface CoreTestBed {
  /** A temp folder for the file's state dirs, hot folders and outputs (removed after the file). */
  readonly dir: string;
  /** One sandbox for the whole file, closed after it. */
  readonly sandbox: RunningSandbox;
  /** Executions the sandbox has been asked for so far (a test compares before and after). */
  executes(): number;
}

/** What every createCore test file starts from: registers beforeAll/afterAll; read the fields inside tests. */
export function useCoreTestBed(name: string): CoreTestBed {
  let dir: string | undefined;
  let sandbox: RunningSandbox | undefined;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is only there inside a test`);
    return value;
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `batchroom-${name}-`));
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() { return ready(dir, 'the test folder'); },
    get sandbox() { return ready(sandbox, 'the sandbox'); },
    executes: () => ready(sandbox, 'the sandbox').stats().requestsByRoute[EXECUTE] ?? 0,
  };
}
