import { describe, expect, it } from 'vitest';
import type { ExecuteRequest, WorkflowDetail } from '../../shared/service/model';
import { validateExecuteRequest, validateWorkflowParameters } from '../../shared/service/validate-request';

const workflow: WorkflowDetail = {
  id: 'wf',
  name: 'Poster',
  description: '',
  tags: [],
  creditCost: 2,
  inputSchema: {
    imageFields: [
      { id: 'photo', label: 'Photo', required: true },
      { id: 'backdrop', label: 'Backdrop', required: false },
    ],
    textFields: [
      { id: 'look', label: 'Look', required: true, presetOptions: [{ id: 'warm', label: 'Warm' }, { id: 'cool', label: 'Cool' }] },
      { id: 'caption', label: 'Caption', required: false, maxLength: 5 },
    ],
    switchFields: [
      { id: 'effects', label: 'Effects', required: false, multiple: true, options: [{ id: 'grain', label: 'Grain' }, { id: 'vignette', label: 'Vignette' }] },
      { id: 'frame', label: 'Frame', required: true, multiple: false, options: [{ id: 'thin', label: 'Thin' }, { id: 'thick', label: 'Thick' }] },
    ],
  },
};

const good: ExecuteRequest = {
  images: { photo: 'data:image/png;base64,iVBORw0KGgo=' },
  texts: { look: 'warm', caption: 'hi' },
  switchSelections: { effects: ['grain', 'vignette'], frame: ['thin'] },
  globalOverrides: { aspectRatio: '3:2', imageSize: '2K' },
};

function fields(request: unknown): string[] {
  const result = validateExecuteRequest(workflow, request as ExecuteRequest);
  return result.ok ? [] : result.problems.map((p) => p.field);
}

describe('validateExecuteRequest', () => {
  it('accepts a request that fits the schema, with URL or data-URL images', () => {
    expect(validateExecuteRequest(workflow, good)).toEqual({ ok: true });
    expect(fields({ ...good, images: { photo: 'https://example.com/a.jpg', backdrop: 'http://x.test/b.png' } })).toEqual([]);
  });

  it('requires the required image fields and rejects unknown ones and non-image values', () => {
    expect(fields({ ...good, images: {} })).toEqual(['images.photo']);
    expect(fields({ ...good, images: { photo: good.images.photo, extra: good.images.photo } })).toEqual(['images.extra']);
    expect(fields({ ...good, images: { photo: '/home/me/photo.jpg' } })).toEqual(['images.photo']);
    expect(fields({ ...good, images: { photo: 'data:image/png,notbase64' } })).toEqual(['images.photo']);
  });

  it('checks text values against presets, length, control characters and unknown ids', () => {
    expect(fields({ ...good, texts: { look: 'hot' } })).toEqual(['texts.look']);
    expect(fields({ ...good, texts: { look: 'warm', caption: 'too long' } })).toEqual(['texts.caption']);
    expect(fields({ ...good, texts: { look: 'warm', caption: 'a\u0007' } })).toEqual(['texts.caption']);
    expect(fields({ ...good, texts: { look: 'warm', mood: 'x' } })).toEqual(['texts.mood']);
    expect(fields({ ...good, texts: {} })).toEqual(['texts.look']);
    expect(fields({ ...good, texts: { look: 5 } })).toEqual(['texts.look']);
  });

  it('checks switch selections: known options, single choice, required, unknown ids', () => {
    expect(fields({ ...good, switchSelections: { frame: ['thin'], effects: ['sparkle'] } })).toEqual(['switchSelections.effects']);
    expect(fields({ ...good, switchSelections: { frame: ['thin', 'thick'] } })).toEqual(['switchSelections.frame']);
    expect(fields({ ...good, switchSelections: { frame: ['thin', 'thin'] } })).toEqual([]);
    expect(fields({ ...good, switchSelections: {} })).toEqual(['switchSelections.frame']);
    expect(fields({ ...good, switchSelections: { frame: [] } })).toEqual(['switchSelections.frame']);
    expect(fields({ ...good, switchSelections: { frame: ['thin'], glow: ['on'] } })).toEqual(['switchSelections.glow']);
    expect(fields({ ...good, switchSelections: { frame: 'thin' } })).toEqual(['switchSelections.frame']);
  });

  it('checks aspect ratio and image size against the allowed values', () => {
    expect(fields({ ...good, globalOverrides: { aspectRatio: '5:4' } })).toEqual(['globalOverrides.aspectRatio']);
    expect(fields({ ...good, globalOverrides: { imageSize: '4K' } })).toEqual(['globalOverrides.imageSize']);
    expect(fields({ ...good, globalOverrides: { quality: 'max' } })).toEqual(['globalOverrides.quality']);
    expect(fields({ ...good, globalOverrides: { aspectRatio: undefined } })).toEqual([]);
  });

  it('reports every problem at once, each with a message naming the allowed values', () => {
    const result = validateExecuteRequest(workflow, { images: {}, texts: { look: 'hot' }, globalOverrides: { imageSize: '3K' } } as unknown as ExecuteRequest);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.field)).toEqual(['images.photo', 'texts.look', 'switchSelections.frame', 'globalOverrides.imageSize']);
    expect(result.problems.find((p) => p.field === 'texts.look')?.message).toContain('warm, cool');
    expect(result.problems.find((p) => p.field === 'globalOverrides.imageSize')?.message).toContain('1K, 2K');
  });

  it('uses a switch default selection to satisfy a required switch that was not sent', () => {
    const withDefault: WorkflowDetail = {
      ...workflow,
      inputSchema: { ...workflow.inputSchema, switchFields: [{ ...workflow.inputSchema.switchFields[1]!, defaultSelection: ['thin'] }] },
    };
    expect(validateExecuteRequest(withDefault, { ...good, switchSelections: undefined })).toEqual({ ok: true });
  });
});

describe('selection bounds', () => {
  const bounded: WorkflowDetail = {
    ...workflow,
    inputSchema: {
      ...workflow.inputSchema,
      switchFields: [{
        id: 'looks', label: 'Looks', required: true, multiple: true, minSelections: 2, maxSelections: 3,
        options: ['a', 'b', 'c', 'd'].map((id) => ({ id, label: id.toUpperCase() })),
      }],
    },
  };
  const check = (looks: string[]) => {
    const result = validateExecuteRequest(bounded, { ...good, switchSelections: { looks } });
    return result.ok ? [] : result.problems.map((p) => `${p.field}: ${p.message}`);
  };

  it('accepts a count within the stated bounds', () => {
    expect(check(['a', 'b'])).toEqual([]);
    expect(check(['a', 'b', 'c'])).toEqual([]);
  });

  it('rejects too few or too many choices before anything is sent', () => {
    expect(check(['a'])).toEqual(['switchSelections.looks: "Looks" takes between 2 and 3 options (got 1)']);
    expect(check(['a', 'b', 'c', 'd'])).toEqual(['switchSelections.looks: "Looks" takes between 2 and 3 options (got 4)']);
  });
});

describe('validateWorkflowParameters', () => {
  it('checks everything but the images (for the batch settings form)', () => {
    expect(validateWorkflowParameters(workflow, { texts: { look: 'cool' }, switchSelections: { frame: ['thick'] } })).toEqual({ ok: true });
    const result = validateWorkflowParameters(workflow, { texts: { look: 'x' }, switchSelections: { frame: ['thick'] } });
    expect(result.ok ? [] : result.problems.map((p) => p.field)).toEqual(['texts.look']);
  });
});
