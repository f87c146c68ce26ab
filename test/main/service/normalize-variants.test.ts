import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../main/core/service/errors';
import {
  executionIdOf, mapStatus, normalizeBalance, normalizeExecution, normalizeWorkflowDetail, normalizeWorkflowList,
} from '../../../main/core/service/normalize';
import { normalizeContext } from './helpers';

const summary = { id: 'wf1', name: 'Warm', description: 'Warm look', tags: ['color'], creditCost: 2 };
const expected = { id: 'wf1', name: 'Warm', description: 'Warm look', tags: ['color'], creditCost: 2 };

function list(body: unknown) {
  return normalizeWorkflowList(normalizeContext('GET /api/v1/workflows').ctx, body);
}

function shapeErrorOf(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('shape');
    return error as ServiceError;
  }
  throw new Error('expected a shape error');
}

describe('workflow lists', () => {
  it.each([
    ['a bare array', [summary]],
    ['under workflows', { workflows: [summary] }],
    ['under items', { items: [summary], total: 1 }],
    ['under data', { data: [summary] }],
    ['under results', { results: [summary], next: null }],
    ['in {data: {workflows}}', { data: { workflows: [summary] } }],
    ['in {result: …}', { result: [summary] }],
    ['in {success, data}', { success: true, data: [summary] }],
    ['in {success, data: {items}}', { success: true, data: { items: [summary] } }],
  ])('reads %s', (_name, body) => {
    expect(list(body)).toEqual([expected]);
  });

  it.each([
    ['id', { id: 'wf1' }],
    ['workflowId', { workflowId: 'wf1' }],
    ['workflow_id', { workflow_id: 'wf1' }],
    ['a numeric id', { id: 7 }],
  ])('reads the id as %s', (_name, idPart) => {
    const [wf] = list([{ name: 'N', credit_cost: 1, ...idPart }]);
    expect(wf!.id).toBe(String(Object.values(idPart)[0]));
  });

  it.each([
    ['creditCost', { creditCost: 3 }],
    ['credit_cost', { credit_cost: 3 }],
    ['credits', { credits: 3 }],
    ['cost', { cost: 3 }],
    ['price', { price: 3 }],
    ['a numeric string', { cost: '3' }],
    ['a padded numeric string', { price: ' 3.0 ' }],
    ['an object with credits', { cost: { credits: 3 } }],
  ])('reads the cost as %s', (_name, costPart) => {
    expect(list([{ id: 'a', name: 'A', ...costPart }])[0]!.creditCost).toBe(3);
  });

  it('reads tags as strings or objects with a name, and defaults missing description and tags', () => {
    const [wf] = list([{ id: 'a', name: 'A', cost: 1, tags: ['x', { name: 'y' }, { label: 'z' }, { slug: 'x' }] }]);
    expect(wf!.tags).toEqual(['x', 'y', 'z']);
    expect(wf!.description).toBe('');
    expect(list([{ id: 'a', name: 'A', cost: 1 }])[0]!.tags).toEqual([]);
  });

  it('accepts snake_case and PascalCase keys', () => {
    expect(list({ Workflows: [{ Workflow_ID: 'wf1', Name: 'Warm', Description: 'Warm look', Tags: ['color'], CREDIT_COST: 2 }] })).toEqual([expected]);
  });

  it('never invents a cost: a missing or non-numeric cost is a shape error naming the keys seen', () => {
    const error = shapeErrorOf(() => list([{ id: 'a', name: 'A', price_usd: 3 }]));
    expect(error.message).toContain('GET /api/v1/workflows');
    expect(error.message).toContain('no credit cost');
    expect(error.message).toContain('price_usd');
    shapeErrorOf(() => list([{ id: 'a', name: 'A', cost: 'three' }]));
    shapeErrorOf(() => list([{ id: 'a', name: 'A', cost: -1 }]));
  });

  it('skips one unreadable entry with a warning but fails when none can be read', () => {
    const { ctx, records } = normalizeContext('GET /api/v1/workflows');
    expect(normalizeWorkflowList(ctx, [summary, { name: 'no id', cost: 1 }]).map((w) => w.id)).toEqual(['wf1']);
    expect(records.some((r) => r.level === 'warn')).toBe(true);
    shapeErrorOf(() => list([{ name: 'no id', cost: 1 }]));
    expect(list([])).toEqual([]);
  });

  it('fails with a shape error when there is no list at all', () => {
    const error = shapeErrorOf(() => list({ success: true, count: 3 }));
    expect(error.message).toContain('no list of workflows');
    expect(error.message).toContain('success, count');
  });
});

const groupedSchema = {
  imageFields: [{ id: 'photo', label: 'Photo', required: true }],
  textFields: [{ id: 'look', label: 'Look', presetOptions: [{ id: 'warm', label: 'Warm' }] }],
  switchFields: [{ id: 'fx', label: 'Effects', options: [{ id: 'grain', label: 'Grain' }], multiple: true }],
};
const expectedSchema = {
  imageFields: [{ id: 'photo', label: 'Photo', required: true }],
  textFields: [{ id: 'look', label: 'Look', required: false, presetOptions: [{ id: 'warm', label: 'Warm' }] }],
  switchFields: [{ id: 'fx', label: 'Effects', required: false, options: [{ id: 'grain', label: 'Grain' }], multiple: true }],
};

function detail(body: unknown) {
  return normalizeWorkflowDetail(normalizeContext('GET /api/v1/workflows/wf1').ctx, body);
}

describe('workflow details and input schemas', () => {
  it.each([
    ['plain', { ...summary, inputSchema: groupedSchema }],
    ['in {data}', { data: { ...summary, inputSchema: groupedSchema } }],
    ['in {success, data}', { success: true, data: { ...summary, input_schema: groupedSchema } }],
    ['in {result}', { result: { ...summary, schema: groupedSchema } }],
    ['in {workflow}', { workflow: { ...summary, inputSchema: groupedSchema } }],
    ['snake_case groups', { ...summary, input_schema: { image_fields: groupedSchema.imageFields, text_fields: [{ id: 'look', label: 'Look', preset_options: [{ id: 'warm', label: 'Warm' }] }], switch_fields: groupedSchema.switchFields } }],
    ['short group names', { ...summary, inputs: { images: groupedSchema.imageFields, texts: groupedSchema.textFields, switches: groupedSchema.switchFields } }],
    ['groups on the record itself', { ...summary, ...groupedSchema }],
    ['a flat list with a type discriminator', {
      ...summary,
      inputSchema: [
        { id: 'photo', type: 'image', label: 'Photo', required: true },
        { id: 'look', type: 'text', label: 'Look', presetOptions: ['warm'].map((id) => ({ id, label: 'Warm' })) },
        { id: 'fx', type: 'switch', label: 'Effects', options: [{ value: 'grain', name: 'Grain' }] },
      ],
    }],
    ['a flat list under fields with kind', {
      ...summary,
      input_schema: { fields: [
        { key: 'photo', kind: 'IMAGE', title: 'Photo' },
        { key: 'look', kind: 'text', title: 'Look', options: [{ value: 'warm', label: 'Warm' }] },
        { key: 'fx', kind: 'multi_select', title: 'Effects', choices: [{ id: 'grain', name: 'Grain' }] },
      ] },
    }],
    ['an id-keyed map of typed fields', {
      ...summary,
      inputSchema: {
        photo: { type: 'image', label: 'Photo' },
        look: { type: 'text', label: 'Look', presetOptions: { warm: 'Warm' } },
        fx: { type: 'switch', label: 'Effects', options: { grain: { label: 'Grain' } } },
      },
    }],
  ])('reads an input schema given %s', (_name, body) => {
    expect(detail(body)).toEqual({ ...expected, inputSchema: expectedSchema });
  });

  it('reads options given as strings or objects with id/value and label/name', () => {
    const wf = detail({ ...summary, inputSchema: { textFields: [{ id: 't', presetOptions: ['a', { value: 'b', name: 'Bee' }, { id: 'c' }] }], switchFields: [{ id: 's', options: ['x', { id: 'y', label: 'Why' }] }] } });
    expect(wf.inputSchema.textFields[0]!.presetOptions).toEqual([{ id: 'a', label: 'a' }, { id: 'b', label: 'Bee' }, { id: 'c', label: 'c' }]);
    expect(wf.inputSchema.switchFields[0]!.options).toEqual([{ id: 'x', label: 'x' }, { id: 'y', label: 'Why' }]);
  });

  it('reads single-choice selections from explicit signals only', () => {
    const fx = (extra: object) => detail({ ...summary, inputSchema: { switchFields: [{ id: 's', options: ['x', 'y'], ...extra }] } }).inputSchema.switchFields[0]!.multiple;
    expect(fx({})).toBe(true);
    expect(fx({ multiple: false })).toBe(false);
    expect(fx({ max_selections: 1 })).toBe(false);
    expect(fx({ maxSelections: 3 })).toBe(true);
    const bounded = detail({ ...summary, inputSchema: { switchFields: [{ id: 's', options: ['x', 'y', 'z'], min_selections: 2, maxSelections: '3' }] } });
    expect(bounded.inputSchema.switchFields[0]).toMatchObject({ multiple: true, minSelections: 2, maxSelections: 3 });
    expect(fx({ selectionType: 'single' })).toBe(false);
    expect(fx({ allow_multiple: 'true' })).toBe(true);
    const radio = detail({ ...summary, inputSchema: [{ id: 's', type: 'radio', options: ['x', 'y'] }] });
    expect(radio.inputSchema.switchFields[0]!.multiple).toBe(false);
  });

  it('keeps defaults, descriptions, max lengths and optional flags', () => {
    const wf = detail({
      ...summary,
      inputSchema: {
        imageFields: [{ id: 'bg', optional: true, description: 'Backdrop' }],
        textFields: [{ id: 'cap', required: true, max_length: '80', default: 'hi' }],
        switchFields: [{ id: 's', options: ['x'], default: 'x' }],
      },
    });
    expect(wf.inputSchema.imageFields[0]).toEqual({ id: 'bg', label: 'bg', description: 'Backdrop', required: false });
    expect(wf.inputSchema.textFields[0]).toEqual({ id: 'cap', label: 'cap', required: true, maxLength: 80, defaultValue: 'hi' });
    expect(wf.inputSchema.switchFields[0]!.defaultSelection).toEqual(['x']);
  });

  it('raises shape errors for a missing schema, an unknown field type or a switch without options', () => {
    expect(shapeErrorOf(() => detail({ ...summary })).message).toContain('no input schema');
    const unknownType = shapeErrorOf(() => detail({ ...summary, inputSchema: [{ id: 'v', type: 'video' }] }));
    expect(unknownType.message).toContain('"video"');
    expect(shapeErrorOf(() => detail({ ...summary, inputSchema: { switchFields: [{ id: 's' }] } })).message).toContain('no options');
  });
});

function execution(body: unknown, requestedId = 'ex1') {
  return normalizeExecution(normalizeContext('GET /api/v1/executions/ex1').ctx, body, requestedId);
}

describe('executions', () => {
  it.each([
    ['executionId', { executionId: 'e1' }],
    ['execution_id', { execution_id: 'e1' }],
    ['id', { id: 'e1' }],
    ['taskId', { taskId: 'e1' }],
    ['{data: {id}}', { data: { id: 'e1', status: 'queued' } }],
    ['{success, data: {task_id}}', { success: true, data: { task_id: 'e1' } }],
    ['{result: {executionId}}', { result: { executionId: 'e1' } }],
    ['{execution: {id}}', { execution: { id: 'e1' } }],
  ])('reads the execution id of an execute answer as %s', (_name, body) => {
    expect(executionIdOf(body)).toBe('e1');
  });

  it('returns no id when the answer has none', () => {
    expect(executionIdOf({ ok: true })).toBeUndefined();
    expect(executionIdOf('garbage')).toBeUndefined();
  });

  it.each([
    ...['queued', 'pending', 'waiting', 'submitted', 'QUEUED'].map((s) => [s, 'queued'] as const),
    ...['running', 'processing', 'in_progress', 'IN-PROGRESS', 'InProgress', 'started'].map((s) => [s, 'running'] as const),
    ...['completed', 'succeeded', 'success', 'done', 'finished', 'COMPLETED'].map((s) => [s, 'completed'] as const),
    ...['failed', 'error'].map((s) => [s, 'failed'] as const),
    ...['cancelled', 'canceled', 'expired', 'timeout', 'timed_out'].map((s) => [s, 'cancelled'] as const),
  ])('maps status %s to %s', (wire, status) => {
    expect(mapStatus(wire)).toBe(status);
    const urls = status === 'completed' ? { resultUrls: ['https://cdn.example.com/r.png'] } : {};
    expect(execution({ id: 'e1', status: wire, ...urls }).status).toBe(status);
  });

  it('keeps an unknown status as running and logs a warning', () => {
    const { ctx, records } = normalizeContext();
    const result = normalizeExecution(ctx, { id: 'e1', status: 'thinking', progress: 10 }, 'e1');
    expect(result.status).toBe('running');
    expect(records.filter((r) => r.level === 'warn').map((r) => r.fields?.status)).toEqual(['thinking']);
  });

  it.each([
    ['progress', { progress: 40 }],
    ['progressPercent', { progressPercent: 40 }],
    ['progress_percent', { progress_percent: 40 }],
    ['percent', { percent: 40 }],
    ['percentage', { percentage: 40 }],
    ['a numeric string', { progress: '40' }],
    ['a percent string', { percent: '40%' }],
    ['an object', { progress: { percent: 40 } }],
  ])('reads progress as %s', (_name, part) => {
    expect(execution({ id: 'e1', status: 'running', ...part }).progress).toBe(40);
  });

  it('treats progress as a percentage (no 0–1 rescaling), clamps it, and sets 100 when completed', () => {
    expect(execution({ id: 'e1', status: 'running', progress: 0.5 }).progress).toBe(0.5);
    expect(execution({ id: 'e1', status: 'running', progress: 150 }).progress).toBe(100);
    expect(execution({ id: 'e1', status: 'running', progress: -3 }).progress).toBe(0);
    expect(execution({ id: 'e1', status: 'running' }).progress).toBe(0);
    expect(execution({ id: 'e1', status: 'done', progress: 20, urls: ['https://x.test/a.png'] }).progress).toBe(100);
  });

  it.each([
    ['resultUrls', { resultUrls: ['https://x.test/a.png'] }],
    ['result_urls', { result_urls: ['https://x.test/a.png'] }],
    ['results of objects with url', { results: [{ url: 'https://x.test/a.png' }] }],
    ['outputs of objects with uri', { outputs: [{ uri: 'https://x.test/a.png' }] }],
    ['output as a single string', { output: 'https://x.test/a.png' }],
    ['images with href', { images: [{ href: 'https://x.test/a.png' }] }],
    ['urls', { urls: ['https://x.test/a.png'] }],
    ['a map of names to urls', { outputs: { main: 'https://x.test/a.png' } }],
    ['a nested result object', { result: { urls: ['https://x.test/a.png'] } }],
    ['a nested data object beside the id', { data: { images: [{ url: 'https://x.test/a.png' }] } }],
  ])('reads result URLs as %s', (_name, part) => {
    expect(execution({ id: 'e1', status: 'completed', ...part }).resultUrls).toEqual(['https://x.test/a.png']);
  });

  it.each([
    ['objects with label', { results: [{ url: 'https://x.test/a.jpg', label: 'Warm' }, { url: 'https://x.test/b.jpg', label: 'Cool' }] }, ['Warm', 'Cool']],
    ['objects with look/name', { outputs: [{ uri: 'https://x.test/a.jpg', look: 'warm' }, { uri: 'https://x.test/b.jpg', name: 'cool' }] }, ['warm', 'cool']],
    ['a map of look names to urls', { outputs: { warm: 'https://x.test/a.jpg', cool: 'https://x.test/b.jpg' } }, ['warm', 'cool']],
    ['plain URLs beside labelled objects', { resultUrls: ['https://x.test/a.jpg', 'https://x.test/b.jpg'], results: [{ url: 'https://x.test/b.jpg', label: 'Mono' }] }, [null, 'Mono']],
    ['relative URLs with labels', { results: [{ url: '/r/a.jpg', label: 'Warm' }, { url: '/r/b.jpg', label: 'Cool' }] }, ['Warm', 'Cool']],
  ])('reads result labels from %s', (_name, part, labels) => {
    expect(execution({ id: 'e1', status: 'completed', ...part }).resultLabels).toEqual(labels);
  });

  it.each([
    ['plain URLs', { resultUrls: ['https://x.test/a.jpg', 'https://x.test/b.jpg'] }],
    ['file names of the service', { results: [{ url: 'https://x.test/a.jpg', name: 'result_0.jpg' }, { url: 'https://x.test/b.jpg', name: 'result_1.jpg' }] }],
    ['numbered keys', { outputs: { 0: 'https://x.test/a.jpg', 1: 'https://x.test/b.jpg' } }],
    ['a URL as the label', { results: [{ url: 'https://x.test/a.jpg', title: 'https://x.test/a.jpg' }] }],
  ])('gives no labels for %s', (_name, part) => {
    expect(execution({ id: 'e1', status: 'completed', ...part }).resultLabels).toBeUndefined();
  });

  it('resolves relative result URLs against the service and keeps several results in order', () => {
    const result = execution({ id: 'e1', status: 'succeeded', results: ['/results/a.png', 'https://cdn.test/b.png'] });
    expect(result.resultUrls).toEqual(['https://svc.example.com/results/a.png', 'https://cdn.test/b.png']);
  });

  it('reads envelopes, uses the requested id when the record has none, and keeps the failure reason', () => {
    expect(execution({ success: true, status: 'ok', data: { status: 'processing', percent: 5 } }, 'req')).toMatchObject({ id: 'req', status: 'running', progress: 5 });
    expect(execution({ data: { id: 'e1', state: 'FAILED', error: { message: 'model crashed' } } })).toMatchObject({ status: 'failed', error: 'model crashed' });
    expect(execution({ id: 'e1', status: 'error', error_message: 'bad input' }).error).toBe('bad input');
  });

  it('infers completed from results when there is no status, and otherwise raises a shape error', () => {
    expect(execution({ id: 'e1', output: ['https://x.test/a.png'] }).status).toBe('completed');
    const error = shapeErrorOf(() => execution({ id: 'e1', progress: 3 }));
    expect(error.message).toContain('no status');
    expect(error.message).toContain('id, progress');
  });

  it('raises a shape error for a completed execution without result URLs', () => {
    expect(shapeErrorOf(() => execution({ id: 'e1', status: 'completed' })).message).toContain('no result URLs');
  });
});

function balance(body: unknown) {
  return normalizeBalance(normalizeContext('GET /api/v1/balance').ctx, body);
}

describe('balances', () => {
  const web = { total: 30, breakdown: [{ label: 'subscription', credits: 20 }, { label: 'purchased', credits: 10 }] };

  it.each([
    ['apiCredits', { apiCredits: 100 }],
    ['api_credits', { api_credits: 100 }],
    ['credits', { credits: 100 }],
    ['balance', { balance: 100 }],
    ['a numeric string', { api_credits: '100' }],
  ])('reads the API credits as %s', (_name, part) => {
    expect(balance({ ...part, webCredits: web }).apiCredits).toBe(100);
  });

  it.each([
    ['{total, breakdown: [...]}', { webCredits: web }],
    ['a map of label → credits', { web_credits: { subscription: 20, purchased: 10 } }],
    ['a map with a total', { webCredits: { total: 30, subscription: 20, purchased: 10 } }],
    ['a list with name/amount', { webCredits: [{ name: 'subscription', amount: 20 }, { name: 'purchased', amount: '10' }] }],
    ['a map of objects', { webCredits: { subscription: { credits: 20 }, purchased: { credits: 10 } } }],
    ['a total beside a breakdown', { webCredits: 30, breakdown: { subscription: 20, purchased: 10 } }],
    ['{total, items}', { webCredits: { total: 30, items: [{ type: 'subscription', balance: 20 }, { type: 'purchased', balance: 10 }] } }],
  ])('reads web credits given as %s', (_name, part) => {
    expect(balance({ apiCredits: 100, ...part })).toEqual({ apiCredits: 100, webCredits: web });
  });

  it('reads envelopes', () => {
    expect(balance({ success: true, data: { api_credits: 100, web_credits: web } }).apiCredits).toBe(100);
    expect(balance({ result: { balance: { apiCredits: 100, webCredits: web } } }).apiCredits).toBe(100);
    expect(balance({ balance: { apiCredits: 100, webCredits: web } }).apiCredits).toBe(100);
  });

  it('reports no web credits when the service gives none, and fails without API credits', () => {
    expect(balance({ apiCredits: 5 })).toEqual({ apiCredits: 5, webCredits: { total: 0, breakdown: [] } });
    const error = shapeErrorOf(() => balance({ webCredits: web, plan: 'pro' }));
    expect(error.message).toContain('no API credit balance');
    expect(error.message).toContain('webCredits, plan');
    shapeErrorOf(() => balance({ apiCredits: 5, webCredits: 'lots' }));
  });
});
