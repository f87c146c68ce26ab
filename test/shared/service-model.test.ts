import { describe, expect, it } from 'vitest';
import {
  BalanceSchema, ExecuteRequestSchema, ExecutionSchema, WorkflowDetailSchema, WorkflowSummarySchema,
} from '../../shared/service/model';
import { formatZodError, parseWith } from '../../shared/validation';

const summary = { id: 'wf_warm', name: 'Warm look', description: 'Adds warmth', tags: ['color'], creditCost: 2 };
const detail = {
  ...summary,
  inputSchema: {
    imageFields: [{ id: 'photo', label: 'Photo', required: true }],
    textFields: [
      { id: 'caption', label: 'Caption' },
      { id: 'look', label: 'Look', presetOptions: [{ id: 'warm', label: 'Warm' }, { id: 'cool', label: 'Cool' }] },
    ],
    switchFields: [{ id: 'fx', label: 'Effects', options: [{ id: 'grain', label: 'Grain' }], multiple: true }],
  },
};

function messageOf(schema: Parameters<typeof parseWith>[0], input: unknown): string {
  const outcome = parseWith(schema, input);
  if (outcome.ok) throw new Error('expected the record to be rejected');
  return outcome.message;
}

describe('workflow records', () => {
  it('accepts a valid summary and fills defaults', () => {
    const parsed = WorkflowSummarySchema.parse({ id: 'a', name: 'A', creditCost: 0 });
    expect(parsed).toEqual({ id: 'a', name: 'A', description: '', tags: [], creditCost: 0 });
  });

  it('accepts a valid detail with every field kind and defaults required flags', () => {
    const parsed = WorkflowDetailSchema.parse(detail);
    expect(parsed.inputSchema.imageFields[0]?.required).toBe(true);
    expect(parsed.inputSchema.textFields[0]?.required).toBe(false);
    expect(parsed.inputSchema.textFields[1]?.presetOptions?.map((o) => o.id)).toEqual(['warm', 'cool']);
    expect(parsed.inputSchema.switchFields[0]?.multiple).toBe(true);
  });

  it('rejects a negative cost with a readable message naming the field', () => {
    expect(messageOf(WorkflowSummarySchema, { ...summary, creditCost: -1 })).toBe('creditCost: must not be negative');
  });

  it('rejects a missing or empty id', () => {
    expect(messageOf(WorkflowSummarySchema, { ...summary, id: undefined })).toBe('id: is required');
    expect(messageOf(WorkflowSummarySchema, { ...summary, id: '  ' })).toBe('id: must not be empty');
  });

  it('names nested schema problems by path', () => {
    const bad = { ...detail, inputSchema: { ...detail.inputSchema, switchFields: [{ id: 'fx', label: 'Effects', options: [] }] } };
    expect(messageOf(WorkflowDetailSchema, bad)).toBe('inputSchema.switchFields.0.options: must list at least one option');
  });
});

describe('execute request', () => {
  const ok = { images: { photo: 'data:image/png;base64,iVBORw0KGgo=' }, globalOverrides: { aspectRatio: '16:9', imageSize: '2K' } };

  it('accepts every documented aspect ratio and size', () => {
    for (const aspectRatio of ['1:1', '2:3', '3:2', '3:4', '4:3', '9:16', '16:9', '21:9']) {
      for (const imageSize of ['1K', '2K']) {
        expect(ExecuteRequestSchema.safeParse({ ...ok, globalOverrides: { aspectRatio, imageSize } }).success).toBe(true);
      }
    }
  });

  it('rejects a bad aspect ratio and says which values are allowed', () => {
    expect(messageOf(ExecuteRequestSchema, { ...ok, globalOverrides: { aspectRatio: '5:4' } })).toBe(
      'globalOverrides.aspectRatio: must be one of 1:1, 2:3, 3:2, 3:4, 4:3, 9:16, 16:9, 21:9 (got "5:4")',
    );
  });

  it('rejects size 4K', () => {
    expect(messageOf(ExecuteRequestSchema, { ...ok, globalOverrides: { imageSize: '4K' } })).toBe(
      'globalOverrides.imageSize: must be one of 1K, 2K (got "4K")',
    );
  });

  it('rejects images that are neither http(s) nor data URLs, and an empty image map', () => {
    expect(messageOf(ExecuteRequestSchema, { images: { photo: 'file:///etc/passwd' } })).toBe(
      'images.photo: must be an http(s) URL or a base64 data URL',
    );
    expect(messageOf(ExecuteRequestSchema, { images: {} })).toBe('images: must name at least one image field');
  });

  it('accepts texts and switch selections as maps', () => {
    const parsed = ExecuteRequestSchema.parse({ ...ok, texts: { look: 'warm' }, switchSelections: { fx: ['grain'] } });
    expect(parsed.switchSelections).toEqual({ fx: ['grain'] });
  });
});

describe('execution', () => {
  const running = { id: 'ex_1', status: 'running', progress: 40 };

  it('accepts a running execution and defaults result URLs', () => {
    expect(ExecutionSchema.parse(running)).toEqual({ ...running, resultUrls: [] });
  });

  it('rejects progress 140', () => {
    expect(messageOf(ExecutionSchema, { ...running, progress: 140 })).toBe('progress: must be between 0 and 100');
  });

  it('rejects an unknown status', () => {
    expect(messageOf(ExecutionSchema, { ...running, status: 'exploded' })).toMatch(/^status: /);
  });

  it('rejects a completed execution without results', () => {
    expect(messageOf(ExecutionSchema, { ...running, status: 'completed', progress: 100 })).toBe(
      'resultUrls: a completed execution must carry at least one result URL',
    );
  });

  it('rejects a missing id', () => {
    expect(messageOf(ExecutionSchema, { status: 'queued', progress: 0 })).toBe('id: is required');
  });
});

describe('balance', () => {
  it('accepts API credits with a web-credit breakdown', () => {
    const balance = { apiCredits: 120, webCredits: { total: 30, breakdown: [{ label: 'Monthly', credits: 30 }] } };
    expect(BalanceSchema.parse(balance)).toEqual(balance);
  });

  it('rejects a non-numeric balance', () => {
    expect(messageOf(BalanceSchema, { apiCredits: 'lots', webCredits: { total: 0, breakdown: [] } })).toBe(
      'apiCredits: must be a number of credits',
    );
  });
});

describe('formatZodError', () => {
  it('prefixes a label and joins several problems', () => {
    const result = WorkflowSummarySchema.safeParse({ name: '', creditCost: -2 });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(formatZodError(result.error, 'workflow')).toBe(
        'workflow: id: is required; name: must not be empty; creditCost: must not be negative',
      );
    }
  });
});
