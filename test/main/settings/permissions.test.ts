import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../main/core/journal';
import { openSettingsStore } from '../../../main/core/settings';
import { createFileLogSink } from '../../../main/electron/log-file';

// The state folder holds the journal (every photo path the user processed), settings and logs: other local users
// must not read them. Mac/Linux only; Windows keeps per-user profile folders private by ACL.
const posixOnly = process.platform === 'win32' ? describe.skip : describe;
const mode = (path: string) => statSync(path).mode & 0o777;

posixOnly('owner-only state (0700 folders, 0600 files)', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'batchroom-perms-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('creates a fresh state folder 0700 with settings 0600', () => {
    const stateDir = join(base, 'fresh', 'Batchroom');
    const store = openSettingsStore({ stateDir });
    store.update({ concurrency: 3 });
    expect(mode(stateDir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
  });

  it('narrows a folder and a settings file an older version left 0755/0644', () => {
    const stateDir = join(base, 'old');
    mkdirSync(stateDir, { mode: 0o755 });
    chmodSync(stateDir, 0o755);
    writeFileSync(join(stateDir, 'settings.json'), '{"concurrency": 2}\n', { mode: 0o644 });
    const store = openSettingsStore({ stateDir });
    expect(mode(stateDir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
  });

  it('creates the journal and its -wal/-shm files 0600, and narrows old 0644 ones', () => {
    const stateDir = join(base, 'journal');
    const journal = openJournal(stateDir);
    for (const suffix of ['', '-wal', '-shm']) {
      const file = join(stateDir, `journal.db${suffix}`);
      expect(existsSync(file), file).toBe(true);
      expect(mode(file), file).toBe(0o600);
    }
    journal.close();
    for (const suffix of ['', '-wal', '-shm']) {
      const file = join(stateDir, `journal.db${suffix}`);
      if (existsSync(file)) chmodSync(file, 0o644);
    }
    chmodSync(stateDir, 0o755);
    const again = openJournal(stateDir);
    expect(mode(stateDir)).toBe(0o700);
    for (const suffix of ['', '-wal', '-shm']) expect(mode(join(stateDir, `journal.db${suffix}`)), suffix).toBe(0o600);
    again.close();
  });

  it('writes the desktop log 0600 in a 0700 folder, narrowing an old log', () => {
    const logs = join(base, 'logs');
    mkdirSync(logs);
    writeFileSync(join(logs, 'main.log'), '', { mode: 0o644 });
    const sink = createFileLogSink(logs);
    sink({ level: 'info', message: 'hello', time: new Date().toISOString(), scope: 'test' } as never);
    expect(mode(join(logs, 'main.log'))).toBe(0o600);
    const fresh = join(base, 'fresh-logs');
    createFileLogSink(fresh)({ level: 'info', message: 'hello', time: new Date().toISOString(), scope: 'test' } as never);
    expect(mode(fresh)).toBe(0o700);
    expect(mode(join(fresh, 'main.log'))).toBe(0o600);
  });
});
