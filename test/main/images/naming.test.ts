import { describe, expect, it } from 'vitest';
import { extensionForFormat, renderName, sanitizeFileName, withSuffix } from '../../../main/core/images/naming';

const base = { name: 'IMG_0001', ext: '.jpg', workflow: 'color-grade', index: 7, total: 250, n: 1, resultCount: 1, at: new Date(2026, 2, 4, 5, 6, 7), execution: 'exe_abc' };

describe('naming template', () => {
  it('fills every token', () => {
    expect(renderName('{name}_{workflow}_{index}_{n}_{date}_{time}_{execution}{ext}', base))
      .toBe('IMG_0001_color-grade_007_1_2026-03-04_05-06-07_exe_abc.jpg');
  });

  it('pads the index to the batch size and keeps the result extension', () => {
    expect(renderName('{index}', { ...base, total: 12_000 })).toBe('00007.jpg');
    expect(renderName('{name}.png', { ...base, ext: '.png' })).toBe('IMG_0001.png');
  });

  it('numbers several results of one execution when the template does not', () => {
    expect(renderName('{name}{ext}', { ...base, n: 2, resultCount: 3 })).toBe('IMG_0001_2.jpg');
    expect(renderName('{name}-{n}{ext}', { ...base, n: 2, resultCount: 3 })).toBe('IMG_0001-2.jpg');
  });

  it('makes names safe on every platform', () => {
    expect(sanitizeFileName('a/b\\c:d*e?f"g<h>i|j')).toBe('a_b_c_d_e_f_g_h_i_j');
    expect(sanitizeFileName('CON')).toBe('_CON');
    expect(sanitizeFileName('trailing. ')).toBe('trailing');
    expect(sanitizeFileName('')).toBe('result');
    expect(renderName('{name}{ext}', { ...base, name: 'ünïcødé 📷 ../x' })).toBe('ünïcødé 📷 .._x.jpg');
    expect(Buffer.byteLength(sanitizeFileName('é'.repeat(400)))).toBeLessThanOrEqual(230);
  });

  it('suffixes and maps formats', () => {
    expect(withSuffix('a.jpg', 2)).toBe('a (2).jpg');
    expect(withSuffix('noext', 3)).toBe('noext (3)');
    expect(extensionForFormat('jpeg')).toBe('.jpg');
    expect(extensionForFormat('png')).toBe('.png');
  });
});
