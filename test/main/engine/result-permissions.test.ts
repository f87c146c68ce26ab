import { chmod, mkdir, readdir, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { createFakeClient } from './fake-client';
import { listFilesDeep, useEngineTestBed, waitForBatch, writePhotos } from './helpers';

// Issue 30 item 4: a result carries its original's EXIF; in a shared output folder it must not be readable by more
// people than the original was, nor than the folder lets in. And a sub-folder of the output folder that is someone
// else's symlink must not carry --recursive results out of it. Real files, real modes, real links (POSIX only).

const posix = process.platform !== 'win32';

describe.runIf(posix)('results in a shared output folder', () => {
  const bed = useEngineTestBed();

  async function run(out: string, sidecar: 'none' | 'json' | 'xmp' = 'none') {
    const client = createFakeClient();
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 2 }));
    await engine.start();
    const batch = await engine.createBatch({ workflowId: 'fake-edit', inputs: { paths: [bed.input], recursive: true }, output: { outputFolder: out, sidecar } });
    return { engine, done: await waitForBatch(engine, batch.id, { timeoutMs: 20_000 }) };
  }

  it('a 0600 original gives a 0600 result in a 0755 folder; a 0644 original a 0644 one', async () => {
    const [privatePhoto, publicPhoto] = await writePhotos(bed.input, 2);
    await chmod(privatePhoto!, 0o600);
    await chmod(publicPhoto!, 0o644);
    const out = join(bed.dir.path, 'shared-out');
    await mkdir(out, { mode: 0o755 });
    await chmod(out, 0o755);
    const { engine, done } = await run(out);
    expect(done.counts.saved).toBe(2);
    // Before: both 0644 (the process umask), the private photo's EXIF readable by every local user.
    const modes = Object.fromEntries(await Promise.all(engine.listItems({ batchId: done.id }).items.map(async (item) => {
      const source = Object.values(item.sources)[0]!;
      return [source === privatePhoto ? 'private' : 'public', (await stat(item.outputs[0]!)).mode & 0o777] as const;
    })));
    expect(modes).toEqual({ private: 0o600, public: 0o644 });
  });

  it.each(['xmp', 'json'] as const)('a %s sidecar is readable by exactly whom its result is (the XMP one carries the EXIF and GPS)', async (sidecar) => {
    const [photo] = await writePhotos(bed.input, 1);
    await chmod(photo!, 0o600);
    const out = join(bed.dir.path, 'shared-out');
    await mkdir(out);
    await chmod(out, 0o755);
    const { done } = await run(out, sidecar);
    expect(done.counts.saved).toBe(1);
    const side = (await readdir(out)).find((name) => name.endsWith(`.${sidecar}`));
    expect(side).toBeDefined();
    // Before: the XMP sidecar took the umask (0644), every local user could read the private photo's EXIF.
    expect((await stat(join(out, side!))).mode & 0o777).toBe(0o600);
  });

  it('a 0700 output folder gives 0600 results even from a 0644 original', async () => {
    const [photo] = await writePhotos(bed.input, 1);
    await chmod(photo!, 0o644);
    const out = join(bed.dir.path, 'own-out');
    await mkdir(out);
    await chmod(out, 0o700);
    const { engine, done } = await run(out);
    expect(done.counts.saved).toBe(1);
    const [item] = engine.listItems({ batchId: done.id }).items;
    expect((await stat(item!.outputs[0]!)).mode & 0o777).toBe(0o600);
  });

  it('a symlinked sub-folder inside the output folder: --recursive results are not written through it', async () => {
    await mkdir(join(bed.input, 'sub'));
    await writePhotos(join(bed.input, 'sub'), 1, { prefix: 'nested', offset: 5 });
    await writePhotos(bed.input, 1);
    const out = join(bed.dir.path, 'out');
    const elsewhere = join(bed.dir.path, 'elsewhere');
    await mkdir(out);
    await mkdir(elsewhere);
    await symlink(elsewhere, join(out, 'sub'));
    const { engine, done } = await run(out);
    expect(await readdir(elsewhere)).toEqual([]);
    expect(done.counts.saved).toBe(1);
    const nested = engine.listItems({ batchId: done.id }).items.find((item) => Object.values(item.sources)[0]!.includes('nested'));
    expect(nested?.outputs).toEqual([]);
    expect(nested?.reason ?? '').toMatch(/leads out of the output folder/);
    expect((await listFilesDeep(out)).filter((p) => !p.includes(`${join(out, 'sub')}`))).toHaveLength(1);
  });
});
