import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClientOptions } from '../../../main/core/service/client';
import { createNodeTransport, WireFailure, type Transport } from '../../../main/core/service/node-transport';
import { REQUEST, TEST_KEY, WORKFLOW, rejection, testClient } from './fixtures';
import { drop, hang, json, ok, startStub, status } from './stub-server';

type Stub = Awaited<ReturnType<typeof startStub>>;
let stub: Stub;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => {
  await stub.close();
});

const client = (extra: Partial<ServiceClientOptions> = {}) => testClient(stub.origin, extra);


const accepted = ok({ executionId: 'ex_1', status: 'queued' });

describe('execute', () => {
  it('posts the request as JSON and returns the execution id', async () => {
    stub.reply(accepted);
    const outcome = await client().execute(WORKFLOW, { ...REQUEST, switchSelections: {}, globalOverrides: { aspectRatio: undefined } });
    expect(outcome).toEqual({ kind: 'accepted', executionId: 'ex_1' });
    const [req] = stub.requests;
    expect(`${req!.method} ${req!.url}`).toBe('POST /api/v1/workflows/warm-look/execute');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(JSON.parse(req!.body)).toEqual(REQUEST);
  });

  it('validates locally and sends nothing when the request does not fit the schema', async () => {
    stub.reply(accepted);
    const error = await rejection(client().execute(WORKFLOW, { images: { photo: REQUEST.images.photo }, texts: { look: 'neon' }, globalOverrides: { imageSize: '8K' as '2K' } }));
    expect(error.code).toBe('validation');
    expect(error.field).toBe('texts.look');
    expect(error.detail.problems).toHaveLength(2);
    expect(error.message).toContain('Not sent');
    expect(error.message).not.toContain('iVBOR');
    expect(stub.requests).toHaveLength(0);
  });

  it('returns "unknown" (and never resubmits) when the connection drops after the request was sent', async () => {
    stub.reply(drop, accepted);
    const outcome = await client().execute(WORKFLOW, REQUEST);
    expect(outcome.kind).toBe('unknown');
    expect(outcome.kind === 'unknown' && outcome.reason).toMatch(/may have reached the service/);
    expect(stub.requests).toHaveLength(1);
  });

  it('returns "unknown" on a timeout, a gateway 502/504, an answer without an id and a truncated answer', async () => {
    for (const handler of [hang, status(504), status(502), ok({ ok: true }), (_r: unknown, res: Parameters<typeof json>[0]) => json(res, 202, '{"executionId": "ex')]) {
      stub.requests.length = 0;
      stub.reply(handler as Parameters<Stub['reply']>[0], accepted);
      // Only the hanging service needs a short timeout; the others answer, and a loaded CI machine may be slow.
      const outcome = await client({ executeTimeoutMs: handler === hang ? 300 : 10_000 }).execute(WORKFLOW, REQUEST);
      expect(outcome.kind).toBe('unknown');
      expect(stub.requests).toHaveLength(1);
    }
  });

  it('returns "unknown" when the caller aborts mid-flight, and throws cancelled when nothing was sent', async () => {
    stub.reply(hang);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect((await client().execute(WORKFLOW, REQUEST, { signal: controller.signal })).kind).toBe('unknown');
    stub.requests.length = 0;
    expect((await rejection(client().execute(WORKFLOW, REQUEST, { signal: AbortSignal.abort() }))).code).toBe('cancelled');
    expect(stub.requests).toHaveLength(0);
  });

  it('retries only when the service said "not processed, come back" (429/503 with Retry-After)', async () => {
    stub.reply(status(429, { error: { code: 'rate_limited' } }, { 'Retry-After': '1' }), status(503, {}, { 'Retry-After': '0' }), accepted);
    const c = client();
    expect(await c.execute(WORKFLOW, REQUEST)).toEqual({ kind: 'accepted', executionId: 'ex_1' });
    expect(stub.requests).toHaveLength(3);
    expect(c.delays[0]).toBeGreaterThanOrEqual(1000);
  });

  it('throws without retrying on 5xx, 429 or 503 without Retry-After, and on rejections', async () => {
    const cases: [Parameters<typeof status>, string][] = [
      [[500], 'server'], [[503], 'server'], [[429], 'rate_limited'],
      [[402, { error: { code: 'insufficient_credits', message: 'Balance too low', required: 2, available: 1 } }], 'insufficient_credits'],
      [[401, { error: 'invalid_api_key' }], 'unauthorized'], [[404], 'not_found'], [[413], 'payload_too_large'], [[415], 'unsupported_media'],
      [[422, { error: { code: 'validation_failed', field: 'images.photo', message: 'bad image' } }], 'validation'],
    ];
    for (const [args, code] of cases) {
      stub.requests.length = 0;
      stub.reply(status(...args), accepted);
      const error = await rejection(client().execute(WORKFLOW, REQUEST));
      expect(error.code).toBe(code);
      expect(stub.requests).toHaveLength(1);
      if (code === 'insufficient_credits') expect([error.required, error.available]).toEqual([2, 1]);
      if (code === 'validation') expect(error.field).toBe('images.photo');
    }
  });

  it('treats a 200 with success: false as an answered rejection, for execute and for reads', async () => {
    stub.reply(ok({ success: false, error: { code: 'insufficient_credits', message: 'Top up first', required: 2, available: 0 } }));
    const credits = await rejection(client().execute(WORKFLOW, REQUEST));
    expect([credits.code, credits.required, credits.available]).toEqual(['insufficient_credits', 2, 0]);
    expect(credits.message).toContain('Top up first');
    stub.reply(ok({ ok: false, message: 'maintenance' }));
    expect((await rejection(client().getBalance())).code).toBe('server');
    expect(stub.requests).toHaveLength(2);
  });

  it('retries a connection that was refused or a host that did not resolve (provably never sent)', async () => {
    const attempts: string[] = [];
    const real = createNodeTransport();
    // Failures as the node transport reports them: the code Node gave, and how far the connection had got.
    const flaky: Transport = async (wire) => {
      attempts.push(String(wire.url));
      if (attempts.length === 1) throw new WireFailure('ECONNREFUSED', 'connecting');
      if (attempts.length === 2) throw new WireFailure('EAI_AGAIN', 'connecting');
      return real(wire);
    };
    stub.reply(accepted);
    expect(await client({ transport: flaky }).execute(WORKFLOW, REQUEST)).toEqual({ kind: 'accepted', executionId: 'ex_1' });
    expect(attempts).toHaveLength(3);
    expect(stub.requests).toHaveLength(1);
  });

  it('throws a network error (not "unknown") when the service refuses every connection', async () => {
    await stub.close();
    const error = await rejection(client().execute(WORKFLOW, REQUEST));
    expect(error.code).toBe('network');
    stub = await startStub();
  });

  it('treats a failure on an established connection, or one the transport did not classify, as possibly sent', async () => {
    for (const thrown of [new WireFailure('ECONNREFUSED', 'established'), new WireFailure(undefined, 'established'), Object.assign(new Error('read ECONNREFUSED'), { code: 'ECONNREFUSED' })]) {
      const broken: Transport = async () => {
        throw thrown;
      };
      expect((await client({ transport: broken }).execute(WORKFLOW, REQUEST)).kind).toBe('unknown');
    }
  });
});
