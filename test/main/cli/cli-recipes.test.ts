import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecipe, serializeRecipe } from '../../../shared/recipes/recipe';
import { cliEnv, ndjson, runCli } from './run-cli';

// The real command, two state folders standing for two computers: a recipe exported on one is imported on the
// other and comes back out byte for byte; a bad file is refused with exit 2 and nothing is written.

let dir: string;
const sha = (bytes: string) => createHash('sha256').update(bytes).digest('hex');
const filesIn = (path: string) => (existsSync(path) ? readdirSync(path).sort() : []);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-recipes-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom recipes', { timeout: 120_000 }, () => {
  it('export on one state folder, import on another: the same bytes, the images checked, duplicates refused', async () => {
    const envA = cliEnv(join(dir, 'state-a'));
    const envB = cliEnv(join(dir, 'state-b'));
    const reference = join(dir, 'reference.jpg');
    await writeFile(reference, 'the reference as saved');
    const original = serializeRecipe(makeRecipe({
      name: 'Warm portraits', workflowId: 'color-grade', budgetPerPhoto: 2,
      parameters: { texts: { prompt: 'warm, soft light' }, switchSelections: { look: ['film'] }, globalOverrides: { imageSize: '2K' } },
      fixedImages: { reference: { path: reference, sha256: sha('the reference as saved') } },
      deliverables: [{ format: 'jpeg', quality: 88, folder: 'web', sidecar: 'xmp' }],
    }));
    const source = join(dir, 'source.batchroom-recipe.json');
    await writeFile(source, original);

    const imported = await runCli(['--json', 'recipes', 'import', source], envA);
    expect(imported.code, imported.stderr).toBe(0);
    expect(ndjson(imported.stdout)).toEqual([{ imported: 'Warm portraits', replaced: false, images: [expect.objectContaining({ where: 'fixedImages.reference', status: 'ok' })] }]);

    const fileA = join(dir, 'from-a.batchroom-recipe.json');
    const exported = await runCli(['recipes', 'export', 'warm PORTRAITS', '--out', fileA], envA);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`Exported "Warm portraits" to ${fileA}`);
    // Imported with the catalog reachable (the sandbox): what its workflow was then is kept (price, field ids), so a
    // later run can say what changed; everything else comes back byte for byte.
    const { seenCreditCost, seenSchema, ...rest } = JSON.parse(readFileSync(fileA, 'utf8')) as Record<string, unknown>;
    expect(`${JSON.stringify(rest, null, 2)}\n`).toBe(original);
    expect(seenCreditCost).toEqual(expect.any(Number));
    expect(seenSchema).toMatchObject({ texts: expect.arrayContaining(['look']), images: expect.any(Array) });

    // "Another computer": the reference image there is not the one the recipe was saved with.
    await writeFile(reference, 'another image under the same name');
    const onB = await runCli(['recipes', 'import', fileA], envB);
    expect(onB.code, onB.stderr).toBe(0);
    expect(onB.stdout).toContain('Imported "Warm portraits" (workflow color-grade).');
    expect(onB.stderr).toContain(`fixedImages.reference: ${reference} is not the image the recipe was saved with`);

    const fileB = join(dir, 'from-b.batchroom-recipe.json');
    const [again, list, show, duplicate] = await Promise.all([
      runCli(['recipes', 'export', 'Warm portraits', '--out', fileB], envB),
      runCli(['--json', 'recipes', 'list'], envB),
      runCli(['recipes', 'show', 'warm portraits'], envB),
      runCli(['recipes', 'import', fileA], envB),
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(fileB)).toEqual(readFileSync(fileA));
    expect(readFileSync(join(dir, 'state-b', 'recipes', 'warm portraits.json'))).toEqual(readFileSync(join(dir, 'state-a', 'recipes', 'warm portraits.json')));
    expect(ndjson(list.stdout)[0]).toMatchObject({ recipes: [{ name: 'Warm portraits', workflowId: 'color-grade', budgetPerPhoto: 2 }], problems: [] });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('Warm portraits — workflow color-grade');
    expect(show.stdout).toContain(`fixedImages.reference  ${reference}  (CHANGED: its content differs)`);
    expect(show.stdout).toContain('format:   jpeg, quality 88');
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('a recipe named "Warm portraits" already exists');
    expect(duplicate.stderr).toContain('--as NAME');

    const [renamed, replaced] = [
      await runCli(['recipes', 'import', fileA, '--as', 'Warm (client B)'], envB),
      await runCli(['--json', 'recipes', 'import', fileA, '--replace'], envB),
    ];
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(ndjson(replaced.stdout)[0]).toMatchObject({ imported: 'Warm portraits', replaced: true });
    expect(filesIn(join(dir, 'state-b', 'recipes'))).toEqual(['warm (client b).json', 'warm portraits.json']);

    const deleted = await runCli(['recipes', 'delete', 'WARM (CLIENT B)'], envB);
    expect(deleted.stdout).toContain('Deleted recipe "Warm (client B)".');
    const gone = await runCli(['recipes', 'show', 'Warm (client B)'], envB);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('no recipe named "Warm (client B)"');
    expect(gone.stderr).toContain('batchroom recipes list');
  });

  it('a bad file is refused with a clear error naming the field, exit 2, and nothing written', async () => {
    const env = cliEnv(join(dir, 'state-c'));
    const good = JSON.parse(serializeRecipe(makeRecipe({ name: 'Good', workflowId: 'upscale' }))) as Record<string, unknown>;
    const cases: Array<[string, string, string]> = [
      ['field.json', JSON.stringify({ ...good, deliverables: [{ format: 'bmp' }] }), 'deliverables.0.format'],
      ['newer.json', JSON.stringify({ ...good, version: 3 }), 'made by a newer Batchroom'],
      ['broken.json', '{"kind": "batchroom-recipe",', 'not valid JSON'],
      ['other.json', JSON.stringify({ hello: 'world' }), 'not a Batchroom recipe file'],
    ];
    for (const [name, text] of cases) await writeFile(join(dir, name), text);
    await writeFile(join(dir, 'good.json'), JSON.stringify(good));
    const results = await Promise.all([
      ...cases.map(([name]) => runCli(['recipes', 'import', join(dir, name)], env)),
      runCli(['recipes', 'import', join(dir, 'good.json'), '--as', 'a/b'], env),
      runCli(['recipes', 'import', join(dir, 'absent.json')], env),
    ]);
    for (const [i, [, , message]] of cases.entries()) {
      expect(results[i]!.code, results[i]!.stderr).toBe(2);
      expect(results[i]!.stderr).toContain(message);
      expect(results[i]!.stdout).toBe('');
    }
    expect(results[4]!.code).toBe(2);
    expect(results[4]!.stderr).toContain('must not contain / or \\');
    expect(results[5]!.code).toBe(2);
    expect(results[5]!.stderr).toContain('no such file');
    expect(filesIn(join(dir, 'state-c', 'recipes'))).toEqual([]);
  });
});
