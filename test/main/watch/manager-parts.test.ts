import { describe, expect, it } from 'vitest';
import { HotFolderConfigSchema, type HotFolderConfig } from '../../../shared/hotfolders/model';
import { parametersHash } from '../../../main/core/journal/ledger-key';
import { createBackgroundWork, previousSettingsAfterSave, reactionToSave, validateFolderConfig } from '../../../main/core/watch/manager-parts';
import { silentLogger } from '../../../main/core/log';

const base: HotFolderConfig = HotFolderConfigSchema.parse({
  id: 'f1', path: '/in', recursive: false, workflowId: 'wf', parameters: { texts: { look: 'warm' } }, outputFolder: '/out', collisionPolicy: 'suffix',
  moveOriginals: false, budget: null, enabled: true, existingFiles: 'dry-run', polling: false,
});

describe('what a saved hot-folder change does to a running folder', () => {
  const armed = { armed: true, status: { state: 'armed' } };
  const idle = { armed: false, status: { state: 'disarmed' } };
  const held = { armed: true, status: { state: 'awaiting-review' } };
  it.each([
    ['turned off while armed', armed, { enabled: false }, 'disarm'],
    ['turned on while idle', idle, {}, 'arm-fresh'],
    ['held files, now "skip"', held, { existingFiles: 'skip' }, 'skip-held'],
    ['held files, now "process"', held, { existingFiles: 'process' }, 'approve-held'],
    ['same path, subfolders added: resume from the baseline', armed, { recursive: true }, 'rearm-resume'],
    ['output folder moved: resume', armed, { outputFolder: '/elsewhere' }, 'rearm-resume'],
    ['another folder: a fresh start', armed, { path: '/other' }, 'arm-fresh'],
    ['only the naming changed: nothing to redo', armed, { namingTemplate: '{name}_x{ext}' }, 'none'],
  ] as const)('%s → %s', (_name, runtime, change, expected) => {
    expect(reactionToSave(runtime, base, { ...base, ...change } as HotFolderConfig)).toBe(expected);
  });
});

describe('the settings a folder ran with before', () => {
  it('remembers the old workflow and parameters once, newest first, at most 20', () => {
    const once = previousSettingsAfterSave(base, { workflowId: 'wf', parameters: { texts: { look: 'cool' } } });
    expect(once).toEqual([{ workflowId: 'wf', parametersHash: parametersHash(base.parameters) }]);
    expect(previousSettingsAfterSave(base, { workflowId: 'wf', parameters: base.parameters })).toEqual([]);
    const again = previousSettingsAfterSave({ ...base, previousSettings: once }, { workflowId: 'other', parameters: {} });
    expect(again).toHaveLength(1);
    const many = Array.from({ length: 25 }, (_, i) => ({ workflowId: `w${i}`, parametersHash: 'h' }));
    expect(previousSettingsAfterSave({ ...base, previousSettings: many }, { workflowId: 'other', parameters: {} })).toHaveLength(20);
  });

  it('refuses an output folder that is the watched folder or contains it, naming the field', () => {
    for (const outputFolder of ['/in', '/']) {
      expect(() => validateFolderConfig({ path: '/in', outputFolder })).toThrowError(expect.objectContaining({ code: 'validation', field: 'outputFolder' }));
    }
    // A subfolder is fine: the watcher ignores it, so results are never picked up again.
    expect(() => validateFolderConfig({ path: '/in', outputFolder: '/in/out' })).not.toThrow();
    expect(() => validateFolderConfig({ path: '/in', outputFolder: '/out' })).not.toThrow();
  });
});

describe('background work', () => {
  it('answers after respondWithinMs while the work goes on, and settled() waits for all of it', async () => {
    const work = createBackgroundWork(20, silentLogger);
    let finished = false;
    let release!: () => void;
    await work.run(new Promise<void>((done) => { release = done; }).then(() => { finished = true; }));
    expect(finished).toBe(false);
    const settled = work.settled();
    release();
    await settled;
    expect(finished).toBe(true);
    await work.run(Promise.reject(new Error('logged, not thrown')));
  });
});
