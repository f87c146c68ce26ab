import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowDetailSchema, WorkflowSummarySchema, BalanceSchema } from '../../../shared/service/model';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { sandboxApi, startTestSandbox } from '../../helpers/sandbox';

let sandbox: RunningSandbox;
let api: ReturnType<typeof sandboxApi>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ credits: 250 });
  api = sandboxApi(sandbox);
});
afterAll(() => sandbox.close());

describe('GET /workflows', () => {
  it('lists at least six workflows whose records match the domain model', async () => {
    const { status, body, headers } = await api('/workflows');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.workflows.length).toBeGreaterThanOrEqual(6);
    for (const workflow of body.workflows) expect(() => WorkflowSummarySchema.parse(workflow)).not.toThrow();
    const costs = new Set(body.workflows.map((w: { creditCost: number }) => w.creditCost));
    expect(costs.size).toBeGreaterThanOrEqual(3);
    const tags = new Set(body.workflows.flatMap((w: { tags: string[] }) => w.tags));
    expect(tags.size).toBeGreaterThanOrEqual(4);
  });

  it('filters by tag, and an unknown tag gives an empty list', async () => {
    const { body } = await api('/workflows?tag=composite');
    expect(body.workflows.map((w: { id: string }) => w.id).sort()).toEqual(['before-after', 'product-backdrop']);
    expect((await api('/workflows?tag=nope')).body.workflows).toEqual([]);
  });

  it('accepts a trailing slash', async () => {
    expect((await api('/workflows/')).status).toBe(200);
  });
});

describe('GET /workflows/{id}', () => {
  it('returns every workflow detail in the domain-model shape, covering every field kind between them', async () => {
    const { body: list } = await api('/workflows');
    const details = await Promise.all(list.workflows.map(async (w: { id: string }) => (await api(`/workflows/${w.id}`)).body));
    for (const detail of details) expect(() => WorkflowDetailSchema.parse(detail)).not.toThrow();
    const schemas = details.map((d) => d.inputSchema);
    expect(schemas.some((s) => s.imageFields.length >= 2)).toBe(true);
    expect(schemas.some((s) => s.imageFields.length === 1)).toBe(true);
    expect(schemas.some((s) => s.imageFields.some((f: { required: boolean }) => !f.required))).toBe(true);
    expect(schemas.some((s) => s.textFields.some((f: { presetOptions?: unknown }) => f.presetOptions))).toBe(true);
    expect(schemas.some((s) => s.textFields.some((f: { presetOptions?: unknown; maxLength?: number }) => !f.presetOptions && f.maxLength))).toBe(true);
    expect(schemas.some((s) => s.switchFields.some((f: { options: unknown[] }) => f.options.length >= 3))).toBe(true);
  });

  it('describes preset options and switch options as {id, label}', async () => {
    const { body } = await api('/workflows/color-grade');
    const look = body.inputSchema.textFields.find((f: { id: string }) => f.id === 'look');
    expect(look.required).toBe(true);
    expect(look.presetOptions).toContainEqual({ id: 'warm', label: 'Warm' });
    const { body: film } = await api('/workflows/film-effects');
    const effects = film.inputSchema.switchFields[0];
    expect(effects).toMatchObject({ id: 'effects', multiple: true, minSelections: 1, maxSelections: 5, required: true });
    expect(effects.defaultSelection).toEqual(['grain', 'vignette']);
  });

  it('answers 404 workflow_not_found for an unknown id', async () => {
    const { status, body } = await api('/workflows/does-not-exist');
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'workflow_not_found', workflowId: 'does-not-exist' });
    expect(typeof body.error.message).toBe('string');
  });
});

describe('GET /balance', () => {
  it('returns API credits and a web-credit breakdown', async () => {
    const { status, body } = await api('/balance');
    expect(status).toBe(200);
    expect(BalanceSchema.parse(body).apiCredits).toBe(250);
    expect(body.webCredits.breakdown.length).toBeGreaterThan(0);
    const sum = body.webCredits.breakdown.reduce((total: number, entry: { credits: number }) => total + entry.credits, 0);
    expect(body.webCredits.total).toBe(sum);
  });

  it('keeps a separate balance per key', async () => {
    const other = sandboxApi(sandbox, 'sk_test_anotherkey123');
    await fetch(`${sandbox.url.replace('/api/v1', '')}/sandbox/credits`, {
      method: 'POST', headers: { authorization: 'Bearer sk_test_anotherkey123', 'content-type': 'application/json' }, body: '{"credits":7}',
    });
    expect((await other('/balance')).body.apiCredits).toBe(7);
    expect((await api('/balance')).body.apiCredits).toBe(250);
  });
});

describe('authentication', () => {
  it.each([
    ['no header', null, 'missing_api_key'],
    ['a live key', 'Bearer sk_live_abcdefghijkl', 'invalid_api_key'],
    ['a short test key', 'Bearer sk_test_abc', 'invalid_api_key'],
    ['a non-bearer scheme', 'Basic c2tfdGVzdF94eXo=', 'invalid_api_key'],
    ['an empty bearer', 'Bearer ', 'invalid_api_key'],
  ])('answers 401 JSON for %s', async (_name, header, code) => {
    const headers: Record<string, string> = header === null ? {} : { authorization: header };
    const { status, body, headers: responseHeaders } = await sandboxApi(sandbox, null)('/balance', { headers });
    expect(status).toBe(401);
    expect(body.error.code).toBe(code);
    expect(responseHeaders.get('www-authenticate')).toMatch(/^Bearer/);
    expect(JSON.stringify(body)).not.toContain('sk_live_abcdefghijkl');
  });

  it('guards every API route', async () => {
    const anonymous = sandboxApi(sandbox, null);
    for (const path of ['/workflows', '/workflows/color-grade', '/executions/exe_x', '/balance']) {
      expect((await anonymous(path)).status).toBe(401);
    }
    expect((await anonymous('/workflows/color-grade/execute', { body: {} })).status).toBe(401);
  });
});

describe('unknown routes and methods', () => {
  it('answers 404 not_found for an unknown path and 405 with Allow for a wrong method', async () => {
    const missing = await api('/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    const wrong = await api('/workflows', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.code).toBe('method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET');
    const malformed = await api('/workflows/%E0%A4%A');
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe('not_found');
    expect((await api('/workflows/color%2Dgrade')).body.id).toBe('color-grade');
  });
});
