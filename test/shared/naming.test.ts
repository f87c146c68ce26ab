import { describe, expect, it } from 'vitest';
import {
  expectedExtension, extensionForFormat, namingSourceOf, planOutputNames, templateProblems, usesCaptureTokens, utf8Length,
  type NamingItem, type NamingOptions,
} from '../../shared/naming';

const at = new Date(2026, 10, 23, 9, 5, 7);
const options = (over: Partial<NamingOptions> = {}): NamingOptions => ({
  template: '{name}_{workflow}{ext}', workflow: 'color-grade', total: 3, at, policy: 'suffix', ...over,
});
const item = (sourcePath: string, over: Partial<NamingItem> = {}): NamingItem => ({
  key: sourcePath, sourcePath, relDir: '', index: 1, outputs: [{ ext: expectedExtension(sourcePath) }], ...over,
});
const names = (items: NamingItem[], opts: Partial<NamingOptions> = {}, existing: string[] = []) =>
  planOutputNames(items, options(opts), existing).map((p) => p.outputs.map((o) => o.relPath).join(' | '));
const one = (source: string, opts: Partial<NamingOptions> = {}, over: Partial<NamingItem> = {}) => names([item(source, over)], opts)[0];

describe('planOutputNames: templates (golden)', () => {
  it.each([
    ['{name}_{workflow}{ext}', '/in/IMG_2041.jpg', 'IMG_2041_color-grade.jpg'],
    ['{name}_{n}{ext}', '/in/IMG_2041.jpg', 'IMG_2041_1.jpg'],
    ['{index}-{name}{ext}', '/in/IMG_2041.jpg', '002-IMG_2041.jpg'],
    ['{name}_{date}_{time}{ext}', '/in/a.png', 'a_2026-11-23_09-05-07.png'],
    ['{name}_{execution}{ext}', '/in/a.jpg', 'a_exe_42.jpg'],
    ['{name}.png', '/in/a.png', 'a.png'],
    ['{name}', '/in/a.JPEG', 'a.jpg'],
    ['{name}{ext}-edited', '/in/a.jpg', 'a.jpg-edited.jpg'],
    ['{name}_{unknown}{ext}', '/in/a.jpg', 'a_{unknown}.jpg'],
    ['{ext}', '/in/a.jpg', 'result.jpg'],
    ['{name}_{workflow}{ext}', 'https://cdn.example/p/IMG%201.jpg?sig=abc', 'IMG 1_color-grade.jpg'],
    ['{name}_{workflow}{ext}', 'C:\\Photos\\IMG_9.png', 'IMG_9_color-grade.png'],
  ])('%s on %s → %s', (template, source, expected) => {
    expect(one(source, { template }, { index: 2, tokens: { execution: 'exe_42' } })).toBe(expected);
  });

  it('{capture_date} {capture_time} {camera}: the values the core read, else plain fallbacks; the template knows it needs them', () => {
    const template = '{capture_date}_{capture_time}_{camera}_{name}{ext}';
    expect(one('/in/a.jpg', { template }, { tokens: { capture_date: '2024-06-01', capture_time: '142233', camera: 'Canon-EOS-R5' } }))
      .toBe('2024-06-01_142233_Canon-EOS-R5_a.jpg');
    expect(one('/in/a.jpg', { template })).toBe('undated_000000_unknown-camera_a.jpg');
    expect(usesCaptureTokens(template)).toBe(true);
    expect(usesCaptureTokens('{name}_{date}{ext}')).toBe(false);
    expect(templateProblems(template)).toEqual([]);
  });

  it('pads {index} to the batch size', () => {
    expect(one('/in/a.jpg', { template: '{index}{ext}', total: 12_000 }, { index: 7 })).toBe('00007.jpg');
  });
});

describe('planOutputNames: safe on every platform', () => {
  it.each([
    ['a/b\\c:d*e?f"g<h>i|j', 'x_a_b_c_d_e_f_g_h_i_j.jpg'],
    ['tab\there\u0001\u007f', 'x_tab_here__.jpg'],
    ['ünïcødé 📷 ../x', 'x_ünïcødé 📷 .._x.jpg'],
  ])('a value %j → %s', (workflow, expected) => {
    expect(one('/in/x.jpg', { workflow })).toBe(expected);
  });

  it.each([
    ['{name}', 'CON.jpg', '_CON.jpg'],
    ['{name}', 'lpt1.png', '_lpt1.png'],
    ['{name}. ', 'photo.jpg', 'photo. .jpg'],
    ['{name}_{workflow}{ext}', 'CON.jpg', 'CON_color-grade.jpg'],
    ['...{ext}', 'x.jpg', 'result.jpg'],
  ])('template %s on %s → %s', (template, source, expected) => {
    expect(one(`/in/${source}`, { template })).toBe(expected);
  });

  it('writes names in NFC whatever form the source name came in', () => {
    const decomposed = 'Cafe\u0301.jpg';
    expect(one(`/in/${decomposed}`)).toBe('Caf\u00e9_color-grade.jpg');
  });

  it('removes a trailing dot or space when nothing follows it', () => {
    const plan = planOutputNames([{ ...item('/in/a.jpg'), outputs: [{ ext: '' }] }], options({ template: '{name}. ' }), []);
    expect(plan[0]!.outputs[0]!.fileName).toBe('a');
  });

  it('makes mirrored sub-folders safe too', () => {
    expect(one('/in/sub/a.jpg', {}, { relDir: 'trip: day 1/CON' })).toBe('trip_ day 1/_CON/a_color-grade.jpg');
  });
});

describe('planOutputNames: 250 bytes per result name (255 with its .json sidecar)', () => {
  it.each([
    ['ASCII', 'a'.repeat(300)],
    ['accented', 'é'.repeat(200)],
    ['CJK', '写真'.repeat(100)],
    ['emoji', '👨‍👩‍👧'.repeat(30)],
  ])('%s: cuts the stem on a character boundary, keeps the literal suffix and the extension', (_label, stem) => {
    const name = one(`/in/${stem}.jpg`)!;
    expect(utf8Length(name)).toBeLessThanOrEqual(250);
    expect(utf8Length(`${name}.json`)).toBeLessThanOrEqual(255);
    expect(name.endsWith('_color-grade.jpg')).toBe(true);
    const kept = name.slice(0, -'_color-grade.jpg'.length);
    expect(stem.startsWith(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('keeps a collision suffix inside the limit', () => {
    const stem = '写'.repeat(100);
    const plan = planOutputNames([item(`/in/${stem}.jpg`)], options(), [`${stem.slice(0, 78)}_color-grade.jpg`]);
    const name = plan[0]!.outputs[0]!.fileName;
    expect(name).toMatch(/ \(2\)\.jpg$/);
    expect(utf8Length(name)).toBeLessThanOrEqual(250);
  });

  it('cuts the workflow id too when the name alone is not enough, never the extension', () => {
    const name = one(`/in/${'n'.repeat(300)}.png`, { workflow: 'w'.repeat(300) })!;
    expect(utf8Length(name)).toBe(250);
    expect(name.endsWith('.png')).toBe(true);
  });
});

describe('planOutputNames: collisions', () => {
  it('settles in sorted source order whatever order the items come in', () => {
    const a = item('/in/photo.jpg', { key: 'a', outputs: [{ ext: '.jpg' }] });
    const b = item('/in/photo.png', { key: 'b', outputs: [{ ext: '.jpg' }] });
    const forward = names([a, b]);
    const backward = names([b, a]).reverse();
    expect(forward).toEqual(['photo_color-grade.jpg', 'photo_color-grade (2).jpg']);
    expect(backward).toEqual(forward);
  });

  it.each([
    ['suffix', 'photo_color-grade (2).jpg', 'write', 'existing'],
    ['skip', 'photo_color-grade.jpg', 'skip', 'existing'],
    ['overwrite', 'photo_color-grade.jpg', 'overwrite', 'existing'],
  ] as const)('policy %s against an existing file → %s (%s)', (policy, expected, action, collidedWith) => {
    const plan = planOutputNames([item('/in/photo.jpg')], options({ policy }), ['photo_color-grade.jpg']);
    expect(plan[0]!.outputs[0]).toMatchObject({ relPath: expected, action, collidedWith });
  });

  it('compares names as macOS and Windows do (case and Unicode form)', () => {
    const plan = planOutputNames([item('/in/Café.jpg')], options(), ['CAFE\u0301_COLOR-GRADE.JPG'.replace('E\u0301', 'E\u0301')]);
    expect(plan[0]!.outputs[0]!.fileName).toBe('Café_color-grade (2).jpg');
  });

  it('never lets two results of one batch share a name, even under overwrite or skip', () => {
    for (const policy of ['overwrite', 'skip'] as const) {
      expect(names([item('/in/a/x.jpg', { key: '1' }), item('/in/b/x.jpg', { key: '2' })], { policy }))
        .toEqual(['x_color-grade.jpg', 'x_color-grade (2).jpg']);
    }
  });

  it('skips suffixes taken on disk, and never names a result after a protected original', () => {
    const plan = planOutputNames([item('/in/x.jpg')], options({ protectedNames: ['x_color-grade (2).jpg'] }), ['x_color-grade.jpg', 'x_color-grade (3).jpg']);
    expect(plan[0]!.outputs[0]!.fileName).toBe('x_color-grade (4).jpg');
  });

  it('keeps the same name in different sub-folders', () => {
    expect(names([item('/in/a/x.jpg', { key: '1', relDir: 'a' }), item('/in/b/x.jpg', { key: '2', relDir: 'b' })]))
      .toEqual(['a/x_color-grade.jpg', 'b/x_color-grade.jpg']);
  });
});

describe('planOutputNames: several results per execution', () => {
  it.each([
    ['{name}{ext}', [null, null, null], ['a_1.jpg', 'a_2.jpg', 'a_3.jpg']],
    ['{name}{ext}', ['Warm look', 'Cool/Blue', null], ['a_Warm look.jpg', 'a_Cool_Blue.jpg', 'a_3.jpg']],
    ['{name}-{n}{ext}', ['Warm', 'Cool', null], ['a-1.jpg', 'a-2.jpg', 'a-3.jpg']],
  ])('%s with labels %j', (template, labels, expected) => {
    const plan = planOutputNames([item('/in/a.jpg', { outputs: labels.map((label) => ({ ext: '.jpg', label })) })], options({ template }), []);
    expect(plan[0]!.outputs.map((o) => o.fileName)).toEqual(expected);
  });
});

describe('the naming source and the extension', () => {
  it('names a two-image item after its first image field in the workflow order', () => {
    expect(namingSourceOf({ background: '/in/bg.jpg', subject: '/in/person.jpg' }, ['subject', 'background'])).toBe('/in/person.jpg');
    expect(namingSourceOf({ b: '/in/2.jpg', a: '/in/1.jpg' })).toBe('/in/1.jpg');
  });

  it.each([
    ['/in/a.png', 'source', '.png'],
    ['/in/a.JPEG', 'source', '.jpg'],
    ['/in/a.heic', 'source', '.jpg'],
    ['/in/a.avif', 'source', '.jpg'],
    ['/in/a.gif', 'source', '.jpg'],
    ['/in/a.dng', 'source', '.jpg'],
    ['/in/a.tiff', 'source', '.tif'],
    ['/in/a.webp', 'source', '.webp'],
    ['/in/a.png', 'jpeg', '.jpg'],
    ['/in/a.webp', 'png', '.png'],
    ['/in/a.jpg', 'tiff', '.tif'],
    ['/in/a.jpg', 'webp', '.webp'],
  ])('%s with output format %s → %s', (source, format, ext) => {
    expect(expectedExtension(source, format)).toBe(ext);
  });

  it('maps result formats to extensions', () => {
    expect(extensionForFormat('jpeg')).toBe('.jpg');
    expect(extensionForFormat('png')).toBe('.png');
    expect(extensionForFormat('mystery')).toBe('.bin');
  });

  it('reports template problems before a template is saved', () => {
    expect(templateProblems('{name}_{workflow}{ext}')).toEqual([]);
    expect(templateProblems('{nme}{ext}')).toContain('Unknown token: {nme}');
    expect(templateProblems('a/{name}')).toContain('Names cannot contain / or \\.');
    expect(templateProblems('{workflow}{ext}')).toContain('Without {name}, {index} or {n}, every result gets the same name.');
    expect(templateProblems(`{name}${'x'.repeat(200)}`)).toContain('The fixed text of the template is too long for a file name.');
  });
});
