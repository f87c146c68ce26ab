import { expect } from 'vitest';
import { createServiceClient, type ServiceClientOptions } from '../../../main/core/service/client';
import { ServiceError } from '../../../main/core/service/errors';
import type { WorkflowDetail } from '../../../shared/service/model';

export const TEST_KEY = 'sk_live_TestKeyDoNotLeak0123456789';

export const WORKFLOW: WorkflowDetail = {
  id: 'warm-look',
  name: 'Warm look',
  description: '',
  tags: [],
  creditCost: 2,
  inputSchema: {
    imageFields: [{ id: 'photo', label: 'Photo', required: true }],
    textFields: [{ id: 'look', label: 'Look', required: false, presetOptions: [{ id: 'warm', label: 'Warm' }] }],
    switchFields: [],
  },
};

export const REQUEST = { images: { photo: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==' }, texts: { look: 'warm' } };

export const WORKFLOW_WIRE = { id: 'warm-look', name: 'Warm look', creditCost: 2, inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', required: true }], textFields: [], switchFields: [] } };

/** A sleep that records the delays asked for and returns at once (no wall-clock waiting in unit tests). */
export function fakeSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    delays.push(ms);
    if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
  };
  return { delays, sleep };
}

/** Awaits a promise that must reject with a ServiceError, and returns the error for assertions. */
export async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a rejection');
}

/** A client with fast, recorded retries (no wall-clock waiting): `delays` lists the backoffs it asked for. */
export function testClient(baseUrl: string, extra: Partial<ServiceClientOptions> = {}, apiKey = TEST_KEY) {
  const sleep = fakeSleep();
  const client = createServiceClient({
    baseUrl, apiKey, timeoutMs: 2_000,
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50, totalMs: 10_000, sleep: sleep.sleep }, ...extra,
  });
  return Object.assign(client, { delays: sleep.delays });
}
