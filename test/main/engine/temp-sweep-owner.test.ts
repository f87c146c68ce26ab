import { randomUUID } from 'node:crypto';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import { openJournal, type Journal } from '../../../main/core/journal';
import { ownerOfTemp, removeLeftoverTemps } from '../../../main/core/engine/temp-sweep';
import { forceState, makeTempDir, type TempDir } from './helpers';

// Whose a `.batchroom-*` temp is decides whether a start's sweep may remove it (temp-sweep.ts): a temp named after
// an item of this journal goes unless that item is being saved (downloading, pending temp journalled), whatever its
// dates; one named after an item id this journal does not know is another journal's; a random name goes by its
// mtime and ctime, both before the start.

const workflow = { id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 2, inputSchema: { imageFields: [], textFields: [], switchFields: [] } };
const spec = BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: ['/in'] }, output: { outputFolder: '/out' } });
const YEAR_AGO = new Date(Date.now() - 365 * 86_400_000);

describe('the owner of a temp, and what the sweep removes of a folder', () => {
  let dir: TempDir;
  let journal: Journal;
  const [saving, idle, stale] = [randomUUID(), randomUUID(), randomUUID()];
  beforeEach(async () => {
    dir = await makeTempDir('batchroom-temp-owner-');
    journal = openJournal(join(dir.path, 'state'));
    const at = new Date().toISOString();
    journal.createBatch({ id: 'b', spec, workflow, creditCost: 2, state: 'running', pausedReason: null, pauseCode: null, createdAt: at, updatedAt: at,
      creditsSpent: 0, budget: null, outputFolder: '/out' }, [saving, idle, stale].map((id, position) => ({
      id, position, displayName: `p${position}.jpg`, sources: { photo: `/in/p${position}.jpg` }, relDir: '', contentHash: `h${position}`, state: 'pending', reason: null,
    })));
    for (const id of [saving, idle]) forceState(journal, id, 'downloading');
    forceState(journal, stale, 'saved');
    journal.updateItem(saving, { pendingTemp: `/out/.batchroom-${saving}-0a1b2c3d.part` });
    journal.updateItem(stale, { pendingTemp: `/out/.batchroom-${stale}-0a1b2c3d.part` }); // a saved item is never being saved
  });
  afterEach(async () => { journal.close(); await dir.cleanup(); });

  it('tells a running save, this journal\'s leftover, another journal\'s temp and a random name apart', () => {
    expect(ownerOfTemp(journal, `.batchroom-${saving}-0a1b2c3d.part`)).toBe('saving');
    expect(ownerOfTemp(journal, `.batchroom-${saving}-99999999.part_exiftool_tmp`)).toBe('saving');
    expect(ownerOfTemp(journal, `.batchroom-${idle}-0a1b2c3d.part.finish`)).toBe('leftover');
    expect(ownerOfTemp(journal, `.batchroom-${stale}-0a1b2c3d.part`)).toBe('leftover');
    expect(ownerOfTemp(journal, `.batchroom-${randomUUID()}-0a1b2c3d.part`)).toBe('foreign');
    expect(ownerOfTemp(journal, '.batchroom-0a1b2c3d.part')).toBe('unnamed');
    expect(ownerOfTemp(journal, '.batchroom-5566aabb.xmp')).toBe('unnamed');
    expect(ownerOfTemp(journal, '.batchroom-probe-99887766.part')).toBe('unnamed');
  });

  it('removes only the leftovers: not a temp dated back after the start, not a running save\'s, not another journal\'s', async () => {
    const folder = join(dir.path, 'out');
    await mkdir(folder);
    const names = {
      running: `.batchroom-${saving}-0a1b2c3d.part`,
      leftover: `.batchroom-${idle}-0a1b2c3d.part`,
      leftoverAhead: `.batchroom-${stale}-0a1b2c3d.part.finish`,
      foreign: `.batchroom-${randomUUID()}-0a1b2c3d.part`,
      datedBack: '.batchroom-0a1b2c3d.xmp',
    };
    for (const [key, name] of Object.entries(names)) {
      await writeFile(join(folder, name), '');
      const date = key === 'leftoverAhead' ? new Date(Date.now() + 365 * 86_400_000) : YEAR_AGO;
      await utimes(join(folder, name), date, date);
    }
    // The start was a minute ago: every file here was made (ctime) after it, whatever utimes said.
    const removed = await removeLeftoverTemps(folder, journal, Date.now() - 60_000);
    expect(removed).toBe(2);
    expect((await readdir(folder)).sort()).toEqual([names.running, names.foreign, names.datedBack].sort());
    // A start an hour from now: the randomly named one is from before it and goes; the others stay as they are.
    expect(await removeLeftoverTemps(folder, journal, Date.now() + 3_600_000)).toBe(1);
    expect((await readdir(folder)).sort()).toEqual([names.running, names.foreign].sort());
  });
});
