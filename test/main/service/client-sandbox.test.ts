import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClientOptions } from '../../../main/core/service/client';
import { ServiceError } from '../../../main/core/service/errors';
import { sniffImageMime, toDataUrl } from '../../../main/core/service/image-input';
import type { ServiceClient } from '../../../main/core/service/types';
import { DEFAULT_FAULTS, startSandbox, type RunningSandbox } from '../../../main/sandbox/index';
import type { ExecuteRequest, WorkflowDetail } from '../../../shared/service/model';
import { fakeSleep, rejection } from './fixtures';

// Integration over real HTTP against the built-in sandbox, including its seeded fault injection.

let sandbox: RunningSandbox;
let photo: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 42, useEnv: false, executionDurationMs: 150, credits: 1000 });
  photo = toDataUrl(await sharp({ create: { width: 32, height: 24, channels: 3, background: '#c84' } }).png().toBuffer());
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setFaults(DEFAULT_FAULTS);
});

function client(extra: Partial<ServiceClientOptions> = {}): ServiceClient {
  return createServiceClient({
    baseUrl: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: 5_000,
    retry: { attempts: 4, baseDelayMs: 5, totalMs: 20_000, sleep: fakeSleep().sleep }, ...extra,
  });
}


async function waitForEnd(c: ServiceClient, id: string) {
  for (let i = 0; i < 200; i++) {
    const execution = await c.getExecution(id);
    if (['completed', 'failed', 'cancelled'].includes(execution.status)) return execution;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('execution did not finish');
}

const stats = () => sandbox.stats();
const executeRoute = 'POST /api/v1/workflows/:id/execute';
const colorGrade = async (c: ServiceClient) => c.getWorkflow('color-grade');
const gradeRequest = (wf: WorkflowDetail): ExecuteRequest => ({ images: { photo }, texts: { look: wf.inputSchema.textFields[0]!.presetOptions![0]!.id } });

describe('against the sandbox', () => {
  it('lists, reads every workflow detail and filters by tag', async () => {
    const c = client();
    const { workflows: all, warning } = await c.listWorkflows();
    expect(warning).toBeUndefined();
    expect(all.length).toBeGreaterThan(3);
    for (const summary of all) {
      const detail = await c.getWorkflow(summary.id);
      expect(detail).toMatchObject(summary);
      expect(detail.inputSchema.imageFields.length).toBeGreaterThan(0);
    }
    const tag = all[0]!.tags[0]!;
    const { workflows: tagged } = await c.listWorkflows({ tag });
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((w) => w.tags.includes(tag))).toBe(true);
  });

  it('runs an execution end to end: execute, poll, download, balance charged', async () => {
    const c = client();
    const before = await c.getBalance();
    const wf = await colorGrade(c);
    const outcome = await c.execute(wf, gradeRequest(wf));
    expect(outcome.kind).toBe('accepted');
    if (outcome.kind !== 'accepted') return;
    const done = await waitForEnd(c, outcome.executionId);
    expect(done.status).toBe('completed');
    expect(done.progress).toBe(100);
    const response = await c.downloadResult(done.resultUrls[0]!);
    expect(sniffImageMime(new Uint8Array(await response.arrayBuffer()))).not.toBeNull();
    expect((await c.getBalance()).apiCredits).toBe(before.apiCredits - wf.creditCost);
  });

  it('rejects locally exactly the requests the sandbox would reject, naming the same field', async () => {
    const c = client();
    const wf = await colorGrade(c);
    const good = gradeRequest(wf);
    const bad: ExecuteRequest[] = [
      { ...good, images: {} as ExecuteRequest['images'] },
      { ...good, images: { ...good.images, other: photo } },
      { ...good, texts: { look: 'no-such-look' } },
      { ...good, texts: { ...good.texts, extra: 'x' } },
      { ...good, globalOverrides: { aspectRatio: '5:4' as '1:1' } },
      { ...good, globalOverrides: { imageSize: '4K' as '1K' } },
    ];
    for (const request of bad) {
      const local = await rejection(c.execute(wf, request));
      expect(local.code).toBe('validation');
      const raw = await fetch(`${sandbox.url}/workflows/color-grade/execute`, {
        method: 'POST', headers: { Authorization: `Bearer ${sandbox.apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(request),
      });
      expect(raw.status).toBe(422);
      const body = (await raw.json()) as { error: { field: string } };
      expect(local.field).toBe(body.error.field);
    }
    expect(stats().requestsByRoute[executeRoute] ?? 0).toBe(bad.length + 1);
  });

  it('maps the sandbox errors: bad key, unknown workflow and execution, insufficient credits', async () => {
    const wrongKey = 'sk_live_NotASandboxKey12345678';
    const unauthorized = await rejection(client({ apiKey: wrongKey }).getBalance());
    expect(unauthorized.code).toBe('unauthorized');
    expect(unauthorized.message).not.toContain(wrongKey);
    const c = client();
    expect((await rejection(c.getWorkflow('nope'))).code).toBe('not_found');
    expect((await rejection(c.getExecution('nope'))).code).toBe('not_found');
    const poor = client({ apiKey: 'sk_test_PoorAccount000001' });
    const wf = await colorGrade(poor);
    await fetch(`${sandbox.url.replace('/api/v1', '')}/sandbox/credits`, {
      method: 'POST', headers: { Authorization: 'Bearer sk_test_PoorAccount000001', 'Content-Type': 'application/json' }, body: JSON.stringify({ credits: wf.creditCost - 1 }),
    });
    const credits = await rejection(poor.execute(wf, gradeRequest(wf)));
    expect(credits.code).toBe('insufficient_credits');
    expect([credits.required, credits.available]).toEqual([wf.creditCost, wf.creditCost - 1]);
  });
});

describe('against the sandbox with faults', () => {
  it('GETs survive drops before and after processing, 5xx, 429 and truncated JSON', async () => {
    sandbox.setFaults({ dropBeforeRate: 0.15, dropAfterRate: 0.15, serverErrorRate: 0.15, rateLimitRate: 0.15, malformedJsonRate: 0.15 });
    const c = client({ retry: { attempts: 10, baseDelayMs: 1, totalMs: 60_000, sleep: fakeSleep().sleep } });
    for (let i = 0; i < 15; i++) {
      expect((await c.getBalance()).apiCredits).toBeGreaterThanOrEqual(0);
      expect((await c.listWorkflows()).workflows.length).toBeGreaterThan(0);
    }
    const injected = stats().faultsInjected;
    for (const kind of ['dropBefore', 'dropAfter', 'serverError', 'rateLimit', 'malformedJson']) expect(injected[kind] ?? 0).toBeGreaterThan(0);
  });

  it('a GET that always fails ends with the matching error after bounded tries', async () => {
    sandbox.setFaults({ dropBeforeRate: 1 });
    const before = stats().requestsByRoute['GET /api/v1/balance'] ?? 0;
    expect((await rejection(client().getBalance())).code).toBe('network');
    expect((stats().requestsByRoute['GET /api/v1/balance'] ?? 0) - before).toBe(4);
  });

  it('execute: a drop after processing is "unknown", charged once and never resubmitted', async () => {
    const c = client();
    const wf = await colorGrade(c);
    const before = stats();
    sandbox.setFaults({ dropAfterRate: 1 });
    const outcome = await c.execute(wf, gradeRequest(wf));
    expect(outcome.kind).toBe('unknown');
    const after = stats();
    expect(after.requestsByRoute[executeRoute]! - (before.requestsByRoute[executeRoute] ?? 0)).toBe(1);
    expect(after.executionsCreated - before.executionsCreated).toBe(1);
  });

  it('execute: a drop before processing is also "unknown" (the client cannot tell) and is not resubmitted', async () => {
    const c = client();
    const wf = await colorGrade(c);
    const before = stats();
    sandbox.setFaults({ dropBeforeRate: 1 });
    expect((await c.execute(wf, gradeRequest(wf))).kind).toBe('unknown');
    const after = stats();
    expect(after.requestsByRoute[executeRoute]! - (before.requestsByRoute[executeRoute] ?? 0)).toBe(1);
    expect(after.executionsCreated).toBe(before.executionsCreated);
  });

  it('execute: a truncated accepted answer is "unknown" (it was charged)', async () => {
    const c = client();
    const wf = await colorGrade(c);
    const before = stats();
    sandbox.setFaults({ malformedJsonRate: 1 });
    expect((await c.execute(wf, gradeRequest(wf))).kind).toBe('unknown');
    expect(stats().executionsCreated - before.executionsCreated).toBe(1);
  });

  it('execute: 429 and 503 with Retry-After are retried; other 5xx are thrown without a retry', async () => {
    const c = client();
    const wf = await colorGrade(c);
    sandbox.setFaults({ rateLimitRate: 1 });
    let before = stats();
    expect((await rejection(c.execute(wf, gradeRequest(wf)))).code).toBe('rate_limited');
    expect(stats().requestsByRoute[executeRoute]! - before.requestsByRoute[executeRoute]!).toBe(4);
    expect(stats().executionsCreated).toBe(before.executionsCreated);

    sandbox.setFaults({ rateLimitRate: 0, serverErrorRate: 1 });
    before = stats();
    for (let i = 0; i < 6; i++) {
      // 500/503 are answered refusals; a gateway's 502 may hide a processed request, so it is "unknown".
      const outcome = await c.execute(wf, gradeRequest(wf)).catch((e: ServiceError) => e);
      if (outcome instanceof ServiceError) expect(outcome.code).toBe('server');
      else expect(outcome.kind).toBe('unknown');
    }
    const sent = stats().requestsByRoute[executeRoute]! - before.requestsByRoute[executeRoute]!;
    const by = stats().responsesByStatus;
    // Every 500/502 is one request; every 503 (Retry-After: 1) is retried up to the attempt limit.
    expect(sent).toBeGreaterThanOrEqual(6);
    expect(Number(by['503'] ?? 0) + Number(by['500'] ?? 0) + Number(by['502'] ?? 0)).toBeGreaterThanOrEqual(sent);
    expect(stats().executionsCreated).toBe(before.executionsCreated);

    sandbox.setFaults({ serverErrorRate: 0.5 });
    let accepted = 0;
    for (let i = 0; i < 6; i++) {
      const outcome = await c.execute(wf, gradeRequest(wf)).catch((e: ServiceError) => e);
      if (!(outcome instanceof ServiceError) && outcome.kind === 'accepted') accepted++;
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('downloads survive a slow result and a 5xx on the result route', async () => {
    const c = client();
    const wf = await colorGrade(c);
    const outcome = await c.execute(wf, gradeRequest(wf));
    if (outcome.kind !== 'accepted') throw new Error('expected accepted');
    const done = await waitForEnd(c, outcome.executionId);
    sandbox.setFaults({ serverErrorRate: 0.5, slowDownloadRate: 1, slowDownloadBytesPerSecond: 1_000_000 });
    for (let i = 0; i < 3; i++) {
      const bytes = new Uint8Array(await (await c.downloadResult(done.resultUrls[0]!)).arrayBuffer());
      expect(sniffImageMime(bytes)).not.toBeNull();
    }
  });
});

describe('against the sandbox: answered rejections and timeouts', () => {
  it('maps the service-side validation, 413, 415 and token-bucket 429 answers', async () => {
    const tight = await startSandbox({ seed: 3, useEnv: false, limits: { maxBodyBytes: 4_000 } });
    try {
      const c = createServiceClient({ baseUrl: tight.url, apiKey: tight.apiKey, retry: { attempts: 1 } });
      // The sandbox states its selection bounds, so the local check refuses too few looks before sending.
      const variations = await c.getWorkflow('look-variations');
      const first = variations.inputSchema.switchFields[0]!;
      const oneLook = { images: { photo }, switchSelections: { [first.id]: [first.options[0]!.id] } };
      const local = await rejection(c.execute(variations, oneLook));
      expect([local.code, local.status, local.field]).toEqual(['validation', undefined, `switchSelections.${first.id}`]);
      // A service that does not state its bounds answers 422 itself, naming the field.
      const unstated = { ...variations, inputSchema: { ...variations.inputSchema, switchFields: [{ ...first, minSelections: undefined }] } };
      const few = await rejection(c.execute(unstated, oneLook));
      expect([few.code, few.status, few.field]).toEqual(['validation', 422, `switchSelections.${first.id}`]);

      const grade = await c.getWorkflow('color-grade');
      const big = await rejection(c.execute(grade, { ...gradeRequest(grade), images: { photo: `data:image/png;base64,${'A'.repeat(8_000)}` } }));
      expect(big.code).toBe('payload_too_large');
      const notImage = await rejection(c.execute(grade, { ...gradeRequest(grade), images: { photo: `data:image/png;base64,${Buffer.from('hello, not an image').toString('base64')}` } }));
      expect(notImage.code).toBe('unsupported_media');
      expect(notImage.field).toBe('images.photo');
      expect(tight.stats().executionsCreated).toBe(0);
    } finally {
      await tight.close();
    }
    const slow = await startSandbox({ seed: 4, useEnv: false, limits: { requestsPerSecond: 0.5, burst: 1 } });
    try {
      const c = createServiceClient({ baseUrl: slow.url, apiKey: slow.apiKey, retry: { attempts: 2, totalMs: 500 } });
      await c.getBalance();
      const limited = await rejection(c.getBalance());
      expect(limited.code).toBe('rate_limited');
      expect(limited.retryAfterMs).toBeGreaterThanOrEqual(1000);
    } finally {
      await slow.close();
    }
  });

  it('a slow service: reads time out as "timeout", an execute that times out is "unknown" and is sent once', async () => {
    const c = client({ timeoutMs: 100, executeTimeoutMs: 100, retry: { attempts: 2, baseDelayMs: 1, sleep: fakeSleep().sleep } });
    const wf = await client().getWorkflow('color-grade');
    sandbox.setFaults({ latencyMs: 400 });
    const readsBefore = stats().requestsByRoute['GET /api/v1/balance'] ?? 0;
    expect((await rejection(c.getBalance())).code).toBe('timeout');
    expect(stats().requestsByRoute['GET /api/v1/balance']! - readsBefore).toBe(2);
    const before = stats().requestsByRoute[executeRoute] ?? 0;
    expect((await c.execute(wf, gradeRequest(wf))).kind).toBe('unknown');
    expect(stats().requestsByRoute[executeRoute]! - before).toBe(1);
  });
});
