import { describe, expect, it } from 'vitest';
import { toUiError, unwrap, BridgeError } from '../../renderer/lib/errors';
import { formFromParameters, initialForm, toggleOption, toParameters, validateForm } from '../../renderer/lib/form-model';
import { formatCredits, formatEta, formatNumber } from '../../renderer/lib/format';
import { previewNames, templateProblems } from '../../renderer/lib/naming';
import { backdrop, caption, colorGrade } from './helpers/fixtures';

describe('form model', () => {
  it('starts required preset fields on their first option and optional ones on their default', () => {
    expect(initialForm(colorGrade).texts).toEqual({ look: 'warm' });
    expect(initialForm(caption).texts).toEqual({ caption: '', position: 'bottom' });
  });

  it('toggles options in schema order, and single-choice fields keep one', () => {
    const multi = caption.inputSchema.switchFields[0]!;
    expect(toggleOption(multi, ['uppercase'], 'shadow')).toEqual(['shadow', 'uppercase']);
    expect(toggleOption(multi, ['shadow', 'uppercase'], 'shadow')).toEqual(['uppercase']);
    expect(toggleOption({ ...multi, multiple: false }, ['shadow'], 'banner')).toEqual(['banner']);
  });

  it('validates required images, texts, preset membership, length and selection bounds', () => {
    const form = initialForm(backdrop);
    expect(validateForm(backdrop, form)).toEqual({ 'image:backdrop': 'Add a photo for Backdrop.', 'switch:extras': 'Choose at least one extras option.' });
    const bounded = { ...backdrop.inputSchema.switchFields[0]!, minSelections: 0, maxSelections: 1 };
    const withBounds = { ...backdrop, inputSchema: { ...backdrop.inputSchema, switchFields: [bounded] } };
    expect(validateForm(withBounds, { ...form, fixedImages: { backdrop: '/b.jpg' }, switches: { extras: ['shadow', 'reflection'] } })).toEqual({ 'switch:extras': 'Choose at most 1 options for Extras.' });
    expect(validateForm(colorGrade, { ...initialForm(colorGrade), texts: { look: 'sepia' } })).toEqual({ 'text:look': 'Choose one of the listed options for Look.' });
  });

  it('builds parameters without empty values and round-trips them into a form', () => {
    const form = { ...initialForm(caption), texts: { caption: 'Hi', position: '' }, aspectRatio: '4:3' as const };
    const params = toParameters(caption, form);
    expect(params).toEqual({ texts: { caption: 'Hi' }, switchSelections: { style: ['shadow'] }, globalOverrides: { aspectRatio: '4:3' } });
    const back = formFromParameters(caption, params);
    expect(back.texts.caption).toBe('Hi');
    expect(back.aspectRatio).toBe('4:3');
    expect(back.imageSize).toBeNull();
  });
});

describe('naming preview', () => {
  it('fills every token and pads the index to the batch size', () => {
    const now = new Date(2026, 10, 22, 9, 5, 7);
    expect(previewNames('{name}_{workflow}_{index}_{n}_{date}_{time}{ext}', ['IMG.jpg', 'B.png'], { workflow: 'wf', total: 12_000, now }))
      .toEqual(['IMG_wf_00001_1_2026-11-22_09-05-07.jpg', 'B_wf_00002_1_2026-11-22_09-05-07.png']);
  });

  it('shows the collision suffix the engine will write when two samples meet', () => {
    expect(previewNames('{workflow}{ext}', ['a.jpg', 'b.jpg'], { workflow: 'wf' })).toEqual(['wf.jpg', 'wf (2).jpg']);
  });

  it('names the problems of a template', () => {
    expect(templateProblems('{name}{ext}')).toEqual([]);
    expect(templateProblems('{nmae}/x')).toEqual(['Unknown token: {nmae}', 'Names cannot contain / or \\.', expect.stringMatching(/same name/)]);
  });
});

describe('errors and formatting', () => {
  it('keeps the technical detail beside the plain words', async () => {
    expect(toUiError('rate_limited', '429 retry-after 3')).toEqual({ code: 'rate_limited', title: expect.stringMatching(/busy/), detail: 'rate_limited: 429 retry-after 3' });
    expect(toUiError('weird_code', 'Something odd').title).toBe('Something odd');
    await expect(unwrap(Promise.resolve({ ok: false as const, code: 'not_found', message: 'no batch b1' }))).rejects.toBeInstanceOf(BridgeError);
    await expect(unwrap(Promise.reject(new Error('socket closed')))).rejects.toMatchObject({ ui: { code: 'disconnected' } });
  });

  it('formats credits and time left', () => {
    expect(formatCredits(1)).toBe('1 credit');
    expect(formatCredits(1500)).toBe('1,500 credits');
    // Written as toLocaleString('en-US') writes numbers, without Intl (its first use costs a page 30–70 ms).
    for (const n of [0, 1, 7.5, 12.25, 999, 1000, 1234.5, -1234.567, 0.0004, 0.125, 1e6, 123456789.123, -1000000, 2 ** 53, 1e21, Number.NaN]) {
      expect(formatNumber(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
    // Halves round away from zero on either side, on the number's shortest decimal form (as ICU does: 0.5005 is
    // 0.50049… as a double, and 500.49… in thousandths, yet toLocaleString writes 0.501).
    for (const n of [-695.3415, 695.3415, -0.0005, 0.0005, -0.0015, 0.5005, -0.5005, -1.0005, 1.0005, -2.5, -1234.5675, -999.9995, 999_999.9995, -123456789012.3455]) {
      expect(formatNumber(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
    for (let i = -20_000; i <= 20_000; i += 1) {
      const n = i / 10_000 + (i % 7) * 100; // every fourth decimal, halves included, both signs
      if (Math.abs(n) >= 0.0005) expect(formatNumber(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
    // One deliberate difference: what rounds to zero is written without a sign (toLocaleString writes -0).
    for (const n of [-0, -0.0004, -1e-7]) expect(formatNumber(n), String(n)).toBe('0');
    expect(formatCredits(1234.567)).toBe('1,234.57 credits');
    expect(formatEta(null)).toBe('—');
    expect(formatEta(42_000)).toBe('42s');
    expect(formatEta(3_725_000)).toBe('1h 02m');
  });
});

describe('errors from main, as the UI words them', () => {
  it('says the numbers when main sent them, and keeps field and hint', async () => {
    expect(toUiError('insufficient_credits', 'short', { detail: { required: 39, available: 36 } }).title).toBe('This needs 39 credits; you have 36 credits. Top up your account or choose fewer photos.');
    expect(toUiError('budget_exceeded', 'over', { detail: { required: 12, budget: 10 } }).title).toBe('This costs 12 credits, over the budget of 10 credits you set.');
    expect(toUiError('insufficient_credits', 'short').title).toMatch(/not enough credits/);
    const missing = await unwrap(Promise.resolve({ ok: false as const, code: 'missing_key', message: 'No API key for https://api.example.com.', hint: 'Add one in Settings.' })).catch((e: BridgeError) => e.ui);
    expect(missing).toMatchObject({ code: 'missing_key', title: 'No API key for https://api.example.com.', hint: 'Add one in Settings.' });
  });

  it('drops a malformed field or detail from the wire but keeps the message', async () => {
    const bad = { ok: false as const, code: 'validation', message: 'style: not an option', detail: { required: 'lots' } } as never;
    const ui = await unwrap(Promise.resolve(bad)).catch((e: BridgeError) => e.ui);
    expect(ui).toEqual({ code: 'validation', title: 'style: not an option', detail: 'validation: style: not an option' });
  });
});
