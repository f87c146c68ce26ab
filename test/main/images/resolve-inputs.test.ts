import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInputs, type ResolvedInputs } from '../../../main/core/images/resolve-inputs';
import { describeSkip } from '../../../shared/engine/skip-text';

// One temp tree with links, loops, a folder named like a photo, junk and unsupported files. Every path the policy
// meets must come out either processed or skipped with its reason, with and without recursion.

let base: string;
let input: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'batchroom-inputs-')));
  input = join(base, 'in');
  for (const dir of ['in/x.jpg', 'in/sub/deeper', 'in/sub2', 'in/empty', 'in/.git', 'in/out', 'elsewhere']) await mkdir(join(base, dir), { recursive: true });
  const files = ['a.jpg', 'b.png', 'notes.txt', '.DS_Store', '.hidden.jpg', 'photo.jpg.part', 'README', 'x.jpg/inner.jpg', 'sub/c.jpg',
    'sub/deeper/d.webp', 'sub2/e.jpg', '.git/f.jpg', 'out/result.jpg'];
  for (const name of files) await writeFile(join(input, name), name);
  for (const name of ['g.jpg', 'h.jpg']) await writeFile(join(base, 'elsewhere', name), name);
  await symlink('a.jpg', join(input, 'link-to-a.jpg'));
  await symlink('../elsewhere/g.jpg', join(input, 'alias.jpg'));
  await symlink('../missing.jpg', join(input, 'broken.jpg'));
  await symlink('.', join(input, 'loop'));
  await symlink('..', join(input, 'sub', 'up'));
  await symlink('../elsewhere', join(input, 'linked-dir'));
  await symlink('self.jpg', join(input, 'self.jpg'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Every path met, as `processed` or its skip reason, keyed by the path relative to the input folder. */
function outcomes(result: ResolvedInputs): Map<string, string> {
  const rel = (path: string) => (path === input ? '.' : path.slice(input.length + 1));
  const map = new Map<string, string>();
  for (const file of result.files) map.set(rel(file.path), 'processed');
  for (const skip of result.skipped) {
    expect(map.has(rel(skip.path)), `${skip.path} reported twice`).toBe(false);
    map.set(rel(skip.path), skip.reason);
  }
  return map;
}

// [path relative to in/, outcome without recursion, outcome with recursion] — `processed` or a reason pattern; '—'
// for a path not met (inside a folder that is not searched).
const TABLE: Array<[string, string | RegExp, string | RegExp]> = [
  ['a.jpg', 'processed', 'processed'],
  ['b.png', 'processed', 'processed'],
  ['alias.jpg', 'processed', 'processed'],
  ['link-to-a.jpg', /^same file as .*\/in\/a\.jpg: processed once$/, /^same file as .*\/in\/a\.jpg/],
  ['broken.jpg', 'broken link: its target is missing', 'broken link: its target is missing'],
  ['self.jpg', /link loop/, /link loop/],
  ['loop', /^link loop: leads back to .*\/in$/, /^link loop: leads back to .*\/in$/],
  ['notes.txt', 'not a supported image type (.txt)', 'not a supported image type (.txt)'],
  ['README', /no file extension/, /no file extension/],
  ['.DS_Store', 'system file', 'system file'],
  ['.hidden.jpg', 'hidden file', 'hidden file'],
  ['photo.jpg.part', /partial download/, /partial download/],
  ['.git', 'hidden folder: not searched', 'hidden folder: not searched'],
  ['out', '—', '—'], // the output folder holds results, never inputs: passed over without an entry (issue 31 #14)
  ['x.jpg', 'a folder, not a photo (named like one)', '—'],
  ['x.jpg/inner.jpg', '—', 'processed'],
  ['sub/c.jpg', '—', 'processed'],
  ['sub/deeper/d.webp', '—', 'processed'],
  ['sub/up', '—', /^link loop: leads back to .*\/in$/],
  ['sub2/e.jpg', '—', 'processed'],
  ['linked-dir/g.jpg', '—', /^same file as .*\/in\/alias\.jpg/],
  ['linked-dir/h.jpg', '—', 'processed'],
  ['.', /^6 photos in 4 subfolders not included$/, '—'],
];

describe('resolveInputs', () => {
  it.each([false, true])('gives every path it meets an outcome (recursive: %s)', async (recursive) => {
    const result = await resolveInputs([input], { recursive, exclude: [join(input, 'out')] });
    const seen = outcomes(result);
    for (const [path, flat, deep] of TABLE) {
      const expected = recursive ? deep : flat;
      if (expected === '—') expect(seen.has(path), path).toBe(false);
      else if (expected instanceof RegExp) expect(seen.get(path), path).toMatch(expected);
      else expect(seen.get(path), path).toBe(expected);
    }
    // Nothing met that the table does not name: every outcome is accounted for.
    const named = new Set(TABLE.filter(([, flat, deep]) => (recursive ? deep : flat) !== '—').map(([path]) => path));
    expect([...seen.keys()].filter((path) => !named.has(path))).toEqual([]);
  });

  it('puts the grouped sub-folder reason first and phrases its hint for each surface', async () => {
    const { skipped } = await resolveInputs([input], { recursive: false, exclude: [join(input, 'out')] });
    expect(skipped[0]).toEqual({ path: input, reason: '6 photos in 4 subfolders not included', subfolders: { photos: 6, folders: 4 } });
    expect(describeSkip(skipped[0]!, 'cli')).toBe('6 photos in 4 subfolders not included: add --recursive');
    expect(describeSkip(skipped[0]!, 'app')).toBe('6 photos in 4 subfolders not included: turn on "Include photos in subfolders"');
    expect(describeSkip(skipped[1]!, 'cli')).toBe(skipped[1]!.reason);
  });

  it('never searches an output folder outside the input folder that a link inside it leads to (its results are no inputs)', async () => {
    // `elsewhere` is the output folder here, and `linked-dir` leads to it: its results must not be priced and sent.
    const { files, skipped } = await resolveInputs([input], { recursive: true, exclude: [join(base, 'elsewhere')] });
    expect(files.filter((f) => f.realPath.startsWith(join(base, 'elsewhere')) && !f.path.endsWith('alias.jpg'))).toEqual([]);
    expect(skipped.find((s) => s.path.endsWith('linked-dir'))?.reason).toBe('output folder: not searched');
  });

  it('keeps files in a stable order with their sub-folder, and links with their own name and real path', async () => {
    const { files } = await resolveInputs([input], { recursive: true, exclude: [join(input, 'out')] });
    expect(files.map((f) => [f.relDir, f.path.slice(input.length + 1)])).toEqual([
      ['', 'a.jpg'], ['', 'alias.jpg'], ['', 'b.png'], ['linked-dir', 'linked-dir/h.jpg'], ['sub', 'sub/c.jpg'],
      [join('sub', 'deeper'), 'sub/deeper/d.webp'], ['sub2', 'sub2/e.jpg'], ['x.jpg', 'x.jpg/inner.jpg'],
    ]);
    expect(files.find((f) => f.path.endsWith('alias.jpg'))!.realPath).toBe(join(base, 'elsewhere', 'g.jpg'));
  });

  it.each<[string, string[], Array<[string, string]>]>([
    ['a link given directly is followed like one found in a folder', ['in/link-to-a.jpg'], [['in/link-to-a.jpg', 'processed']]],
    ['a broken link given directly', ['in/broken.jpg'], [['in/broken.jpg', 'broken link: its target is missing']]],
    ['a missing path', ['in/nope.jpg'], [['in/nope.jpg', 'file not found']]],
    ['the same file given twice', ['in/a.jpg', 'in/a.jpg'], [['in/a.jpg', 'processed']]],
    ['a file and a link to it', ['in/a.jpg', 'in/link-to-a.jpg'], [['in/a.jpg', 'processed'], ['in/link-to-a.jpg', 'same file as']]],
    ['a folder named like a photo given directly is searched', ['in/x.jpg'], [['in/x.jpg/inner.jpg', 'processed']]],
    ['a folder and a link to it', ['elsewhere', 'in/linked-dir'], [['elsewhere/g.jpg', 'processed'], ['in/linked-dir', 'same folder as']]],
    ['an unsupported file given directly', ['in/notes.txt'], [['in/notes.txt', 'not a supported image type (.txt)']]],
  ])('%s', async (_what, given, expected) => {
    const result = await resolveInputs(given.map((p) => join(base, p)), { recursive: false });
    const met = new Map([...result.files.map((f) => [f.path, 'processed'] as const), ...result.skipped.map((s) => [s.path, s.reason] as const)]);
    for (const [path, outcome] of expected) expect(met.get(join(base, path)), path).toContain(outcome);
  });

  it('passes ignored paths over without a word (a hot folder\'s own rules)', async () => {
    const result = await resolveInputs([input], { recursive: false, ignore: (path) => path.endsWith('.txt') || path.endsWith('out') });
    const seen = outcomes(result);
    expect(seen.has('notes.txt')).toBe(false);
    expect(seen.has('out')).toBe(false);
    expect(seen.get('a.jpg')).toBe('processed');
  });
});
