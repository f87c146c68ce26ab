import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSettingsStore, type SettingsBackend } from '../../../main/core/settings';
import { DEFAULT_SETTINGS, SETTINGS_VERSION } from '../../../shared/settings/schema';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stateDir(file?: string | object): string {
  const dir = mkdtempSync(join(tmpdir(), 'batchroom-settings-'));
  dirs.push(dir);
  if (file !== undefined) writeFileSync(join(dir, 'settings.json'), typeof file === 'string' ? file : JSON.stringify(file));
  return dir;
}

const readFile = (dir: string) => JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
const backups = (dir: string) => readdirSync(dir).filter((f) => f !== 'settings.json');
const folder = (id: string, extra: object = {}) => ({ id, path: `/in/${id}`, workflowId: 'wf', outputFolder: `/out/${id}`, ...extra });

describe('openSettingsStore', () => {
  it('starts from defaults in an empty state dir and writes a versioned file, without warnings', () => {
    const dir = stateDir();
    const store = openSettingsStore({ stateDir: dir });
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.warnings).toEqual([]);
    expect(store.path).toBe(join(dir, 'settings.json'));
    expect(readFile(dir)).toEqual({ version: SETTINGS_VERSION, ...DEFAULT_SETTINGS });
  });

  it('persists updates across reopening, notifies listeners, and refuses invalid patches naming the field', () => {
    const dir = stateDir();
    const store = openSettingsStore({ stateDir: dir });
    const seen: number[] = [];
    store.onChange((s) => seen.push(s.concurrency));
    store.update({ concurrency: 8, theme: 'dark', hotFolders: [folder('a')] });
    expect(() => store.update({ concurrency: 0 })).toThrow(/concurrency/);
    expect(() => store.update({ colour: 'red' } as never)).toThrow(/colour|Unrecognized/);
    expect(seen).toEqual([8]);
    const again = openSettingsStore({ stateDir: dir });
    expect(again.warnings).toEqual([]);
    expect(again.get()).toMatchObject({ concurrency: 8, theme: 'dark', sandboxMode: 'auto' });
    expect(again.get().hotFolders[0]).toMatchObject({ id: 'a', enabled: false });
    expect(again.reset()).toEqual(DEFAULT_SETTINGS);
  });

  it('migrates a version-1 file (renamed keys, converted values), keeping the original as a backup', () => {
    const v1 = {
      apiUrl: 'https://staging.example/api/v1',
      useSandbox: true,
      parallelism: 6,
      outputDir: '/photos/out',
      filenamePattern: '{basename}-edited{extension}',
      onCollision: 'replace',
      darkMode: false,
      watchFolders: [folder('w')],
    };
    const dir = stateDir(v1);
    const store = openSettingsStore({ stateDir: dir });
    expect(store.get()).toMatchObject({
      serviceUrl: 'https://staging.example/api/v1',
      sandboxMode: 'always',
      concurrency: 6,
      outputFolder: '/photos/out',
      namingTemplate: '{name}-edited{ext}',
      collisionPolicy: 'overwrite',
      theme: 'light',
      stripMetadata: true,
    });
    expect(store.get().hotFolders.map((f) => f.id)).toEqual(['w']);
    expect(store.warnings.map((w) => w.kind)).toEqual(['migrated']);
    expect(store.warnings[0]!.message).toMatch(/version 1 to 2.*renamed "apiUrl" to "serviceUrl"/);
    const backupPath = store.warnings[0]!.backupPath!;
    expect(JSON.parse(readFileSync(backupPath, 'utf8'))).toEqual(v1);
    expect(readFile(dir)).toMatchObject({ version: SETTINGS_VERSION, concurrency: 6 });
    expect(readFile(dir)).not.toHaveProperty('apiUrl');
    // Migrated once: the next start is clean.
    expect(openSettingsStore({ stateDir: dir }).warnings).toEqual([]);
  });

  it('survives a corrupt file: defaults, the broken file kept byte for byte, a warning', () => {
    const broken = '{"concurrency": 8, "theme": "dark"';
    const dir = stateDir(broken);
    const store = openSettingsStore({ stateDir: dir, now: () => new Date('2026-01-02T03:04:05.678Z') });
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.warnings).toHaveLength(1);
    expect(store.warnings[0]).toMatchObject({ kind: 'corrupt-file', key: null });
    const backupPath = store.warnings[0]!.backupPath!;
    expect(backupPath).toBe(join(dir, 'settings.corrupt-2026-01-02T03-04-05-678Z.json'));
    expect(readFileSync(backupPath, 'utf8')).toBe(broken);
    expect(store.warnings[0]!.message).toContain(backupPath);
    expect(readFile(dir)).toEqual({ version: SETTINGS_VERSION, ...DEFAULT_SETTINGS });
  });

  it.each([['[1,2]'], ['"just a string"'], ['']])('treats %j (not a JSON object) as corrupt', (text) => {
    const store = openSettingsStore({ stateDir: stateDir(text) });
    expect(store.warnings.map((w) => w.kind)).toEqual(['corrupt-file']);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('resets only the broken key of a hand-edited file and reports it', () => {
    const edited = { version: 2, concurrency: 'lots', theme: 'dark', sidecars: true, outputFolder: '/out' };
    const dir = stateDir(edited);
    const store = openSettingsStore({ stateDir: dir });
    expect(store.get()).toMatchObject({ concurrency: 4, theme: 'dark', sidecars: true, outputFolder: '/out' });
    expect(store.warnings).toHaveLength(1);
    expect(store.warnings[0]).toMatchObject({ kind: 'invalid-value', key: 'concurrency' });
    expect(store.warnings[0]!.message).toMatch(/"concurrency" was invalid .*using the default 4/);
    expect(JSON.parse(readFileSync(store.warnings[0]!.backupPath!, 'utf8'))).toEqual(edited);
    expect(readFile(dir)).toMatchObject({ concurrency: 4, theme: 'dark' });
  });

  it('drops one broken hot folder, keeping the others', () => {
    const dir = stateDir({ version: 2, hotFolders: [folder('good'), folder('bad', { workflowId: '' }), folder('also-good')] });
    const store = openSettingsStore({ stateDir: dir });
    expect(store.get().hotFolders.map((f) => f.id)).toEqual(['good', 'also-good']);
    expect(store.warnings.map((w) => [w.kind, w.key])).toEqual([['invalid-value', 'hotFolders[1]']]);
    expect(store.warnings[0]!.message).toContain('"bad"');
  });

  it('drops and reports unknown keys', () => {
    const dir = stateDir({ version: 2, theme: 'dark', colour: 'red', apiKey: 'sk_live_shouldneverbehere1234' });
    const store = openSettingsStore({ stateDir: dir });
    expect(store.get().theme).toBe('dark');
    expect(store.warnings.map((w) => [w.kind, w.key])).toEqual([
      ['unknown-key', 'colour'],
      ['unknown-key', 'apiKey'],
    ]);
    expect(store.warnings[1]!.message).toMatch(/never reads API keys from this file.*batchroom key set/);
    expect(readFile(dir)).not.toHaveProperty('colour');
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('sk_live_');
    expect(backups(dir)).toHaveLength(1);
    // The backup keeps the user's file, but a key pasted into it by mistake is masked, not copied.
    const backup = readFileSync(store.warnings[0]!.backupPath!, 'utf8');
    expect(backup).toContain('"colour"');
    expect(backup).not.toContain('sk_live_shouldneverbehere1234');
  });

  it('runs on defaults in memory when the file cannot be read, leaving it untouched', () => {
    const dir = stateDir();
    mkdirSync(join(dir, 'settings.json')); // a directory where the file should be: EISDIR on read
    const store = openSettingsStore({ stateDir: dir });
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.warnings.map((w) => w.kind)).toEqual(['unreadable']);
    expect(store.update({ theme: 'dark' }).theme).toBe('dark');
    expect(statSync(join(dir, 'settings.json')).isDirectory()).toBe(true);
  });

  it('reads a file from a newer version without crashing, keeping a backup', () => {
    const dir = stateDir({ version: SETTINGS_VERSION + 1, theme: 'dark', futureThing: 1 });
    const store = openSettingsStore({ stateDir: dir });
    expect(store.get().theme).toBe('dark');
    expect(store.warnings.map((w) => w.kind).sort()).toEqual(['newer-version', 'unknown-key']);
    expect(existsSync(store.warnings[0]!.backupPath!)).toBe(true);
  });

  it('works over any backend (the electron-store one has the same shape)', () => {
    let file: Record<string, unknown> = { version: 2, theme: 'light' };
    const writes: Record<string, unknown>[] = [];
    const backend: SettingsBackend = {
      path: '/virtual/settings.json',
      read: () => file,
      write: (data) => {
        file = data;
        writes.push(data);
      },
    };
    const store = openSettingsStore({ stateDir: stateDir(), createBackend: () => backend });
    expect(store.get().theme).toBe('light');
    expect(writes).toHaveLength(1); // missing keys filled in once
    store.update({ theme: 'dark' });
    expect(file).toMatchObject({ version: 2, theme: 'dark' });
    expect(store.path).toBe('/virtual/settings.json');
  });
});
