import sharp from 'sharp';
import { AppError } from '../../../shared/errors';
import type { Balance, ExecuteRequest, WorkflowDetail } from '../../../shared/service/model';
import type { ExecuteOutcome, ExecutionPoll, ServiceClient } from '../../../main/core/service/types';

// A scripted in-memory service for engine tests that need exact control (lost answers, refusals, timing).

export interface FakeClientOptions {
  balance?: number;
  /** Decide the fate of the n-th execute call (0-based). */
  onExecute?: (n: number, request: ExecuteRequest) => ExecuteOutcome | AppError | null;
  durationMs?: number;
  /** While `held` is true, every execution keeps running (lets a test act while executions are in flight). */
  hold?: { held: boolean };
}

export const FAKE_WORKFLOW: WorkflowDetail = {
  id: 'fake-edit', name: 'Fake Edit', description: '', tags: [], creditCost: 1,
  inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', required: true }], textFields: [], switchFields: [] },
};

export function createFakeClient(options: FakeClientOptions = {}) {
  let balance = options.balance ?? 1000;
  let calls = 0;
  const executions = new Map<string, { doneAt: number }>();
  const result = sharp({ create: { width: 32, height: 32, channels: 3, background: '#808080' } }).jpeg().toBuffer();
  const client: ServiceClient & { executeCalls: () => number; setBalance: (n: number) => void } = {
    baseUrl: 'http://fake.test/api/v1',
    account: {},
    executeCalls: () => calls,
    setBalance: (n) => { balance = n; },
    listWorkflows: async () => ({ workflows: [FAKE_WORKFLOW] }),
    getWorkflow: async (id) => {
      if (id !== FAKE_WORKFLOW.id) throw new AppError('not_found', `no workflow ${id}`);
      return FAKE_WORKFLOW;
    },
    execute: async (_workflow, request) => {
      const n = calls++;
      const scripted = options.onExecute?.(n, request) ?? null;
      if (scripted instanceof AppError) throw scripted;
      if (scripted) return scripted;
      if (balance < FAKE_WORKFLOW.creditCost) throw new AppError('insufficient_credits', 'not enough credits', { available: balance });
      balance -= FAKE_WORKFLOW.creditCost;
      const id = `exe_fake_${n}`;
      executions.set(id, { doneAt: Date.now() + (options.durationMs ?? 30) });
      return { kind: 'accepted', executionId: id };
    },
    getExecution: async (id): Promise<ExecutionPoll> => {
      const execution = executions.get(id);
      if (!execution) throw new AppError('not_found', `no execution ${id}`);
      const done = Date.now() >= execution.doneAt && !options.hold?.held;
      return done
        ? { id, status: 'completed', progress: 100, resultUrls: [`http://fake.test/results/${id}.jpg`] }
        : { id, status: 'running', progress: 50, resultUrls: [] };
    },
    getBalance: async (): Promise<Balance> => ({ apiCredits: balance, webCredits: { total: 0, breakdown: [] } }),
    downloadResult: async () => new Response(new Uint8Array(await result)),
  };
  return client;
}
