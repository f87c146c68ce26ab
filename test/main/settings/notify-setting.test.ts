import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSettingsStore } from '../../../main/core/settings';
import { SETTINGS_VERSION } from '../../../shared/settings/schema';

// notifyWhenDone is a new key with a default: a settings file written before it existed loads with it on, untouched
// and unwarned — no migration (migrations are for renamed or re-meant keys).

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('notifyWhenDone in a settings file from before it', () => {
  it('is on, with no repair warning, and turning it off is kept', () => {
    dir = mkdtempSync(join(tmpdir(), 'batchroom-notify-setting-'));
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: SETTINGS_VERSION, theme: 'dark', concurrency: 3 }));
    const store = openSettingsStore({ stateDir: dir });
    expect(store.warnings).toEqual([]);
    expect(store.get()).toMatchObject({ notifyWhenDone: true, theme: 'dark', concurrency: 3 });
    store.update({ notifyWhenDone: false });
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toMatchObject({ notifyWhenDone: false });
    expect(openSettingsStore({ stateDir: dir }).get().notifyWhenDone).toBe(false);
  });
});
