import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultOutputFolder } from '../../../main/core/engine/output-folder';
import { makeTempDir } from './helpers';

describe('default output folder (next to the photos)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await makeTempDir();
    await mkdir(join(dir.path, 'shoot'));
    await writeFile(join(dir.path, 'shoot', 'a.jpg'), 'x');
  });
  afterEach(() => dir.cleanup());

  it.each([
    ['a dropped folder: inside it', ['shoot'], [], ['shoot', 'Batchroom']],
    ['dropped files: beside them', ['shoot/a.jpg'], [], ['shoot', 'Batchroom']],
    ['a missing file: beside where it was meant to be', ['shoot/gone.jpg'], [], ['shoot', 'Batchroom']],
    ['a multi-image mapping: beside its first file', [], [{ subject: 'shoot/a.jpg' }], ['shoot', 'Batchroom']],
  ])('%s', async (_name, paths, mappings, expected) => {
    const inputs = { paths: paths.map((p) => join(dir.path, p)), recursive: false, mappings: mappings.map((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, join(dir.path, v)]))) };
    expect(await defaultOutputFolder(inputs)).toBe(join(dir.path, ...expected));
  });

  it('has no folder to go next to when every input is a URL', async () => {
    expect(await defaultOutputFolder({ paths: ['https://example.com/a.jpg'], recursive: false, mappings: [] })).toBeNull();
  });
});
